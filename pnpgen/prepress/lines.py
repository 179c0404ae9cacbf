"""Turn the SVG lines of a rendered face into the template lines that wrote them, for findings that point there.

A text() call's SVG is noted as it is made, with the template line that called it (the innermost template
frame on the stack, a macro's own file included); any other element is found in the templates'
text: the line that opens its tag with all its attributes, the one matching most of its literal
values where several do (the face's own template first, then those it may import).
"""
from __future__ import annotations

import functools
import sys
from pathlib import Path


def calling_template() -> tuple[str, int] | None:
    """(template name, line) of the innermost template code running now, None outside a template."""
    frame = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template.name, template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None


class TemplateLines:
    """Notes each text() call of one face's rendering (note, given to Renderer.on_text), then names the
    template line behind each SVG line of that face (locate)."""

    def __init__(self, templates_dir: Path):
        self.templates_dir = templates_dir
        self.calls: list[tuple[str, str, int]] = []  # (the SVG text() wrote, template, line)
        self.templates = sorted(templates_dir.rglob("*.j2"))
        self.found: dict[tuple, tuple[str, int]] = {}  # (template, tag, attributes) -> where

    def note(self, fragment: str) -> None:
        where = calling_template()
        if where is not None:
            self.calls.append((str(fragment), *where))

    def take(self, svg: str, template: str) -> "FaceLines":
        """The lines of a face just rendered from template (the calls noted since the last take)."""
        calls, self.calls = self.calls, []
        return FaceLines(svg, template, calls, self)


class FaceLines:
    """An element of one face's SVG -> (the template file it was written in, relative to the project; its line,
    0 when no line of the templates can be told to be it)."""

    def __init__(self, svg: str, template: str, calls: list, lines: TemplateLines):
        self.template, self.lines = template, lines
        self.texts: dict[int, tuple[str, int]] = {}  # SVG line -> where the text() call that wrote it is
        at = 0
        for fragment, name, line in calls:
            found = svg.find(fragment, at) if fragment else -1
            if found < 0 and fragment:
                found = svg.find(fragment)
            if found < 0:
                continue
            at = found + len(fragment)
            first = svg.count("\n", 0, found) + 1
            for number in range(first, first + fragment.count("\n") + 1):
                self.texts.setdefault(number, (f"templates/{name}", line))

    def locate(self, element) -> tuple[str, int]:
        if local_name(element.tag) == "text" and element.sourceline in self.texts:
            return self.texts[element.sourceline]
        key = (self.template, element.tag, tuple(element.attrib.items()))
        if key not in self.lines.found:
            self.lines.found[key] = self.search(element)
        return self.lines.found[key]

    def search(self, element) -> tuple[str, int]:
        folder = self.lines.templates_dir
        own = folder / self.template
        for path in [own] + [p for p in self.lines.templates if p != own]:
            line = find_element(element, source_lines(path))
            if line:
                return f"templates/{path.relative_to(folder).as_posix()}", line
        return f"templates/{self.template}", 0


def local_name(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


@functools.lru_cache(maxsize=64)
def source_lines(path: Path) -> tuple[str, ...]:
    try:
        return tuple(path.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def find_element(element, lines: tuple[str, ...]) -> int:
    """The template line that writes an element like this one: a line opening its tag and naming all its
    attributes; among several, the one whose literal values match most (the first of equals); 0 for none."""
    names = [local_name(name) for name in element.attrib]
    opening = f"<{local_name(element.tag)}"
    candidates = [number for number, text in enumerate(lines, 1)
                  if opening + " " in text or text.rstrip().endswith(opening)
                  if all(f"{name}=" in text for name in names)]
    if not candidates:
        return 0
    literal = [f'{local_name(name)}="{value}"' for name, value in element.attrib.items()]
    return max(candidates, key=lambda number: (sum(part in lines[number - 1] for part in literal), -number))
