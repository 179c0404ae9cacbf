"""Turn the text a template prints as written (string literals in its Jinja code, text between its SVG tags) into
findings: each number held to the component or figure it states, as rulebook prose is, at the template's line."""
from __future__ import annotations

import functools
import re
from dataclasses import replace

from ..project.model import Component, Game, Project
from .fields import template_texts
from .findings import PASS, WARN, Finding, locator
from .numerals import find_numbers
from .tables import check_prose
from .vocabulary import Noun, list_names
from .wordrules import check_text, find_rules

_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_STRING = re.compile(r"'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"")
_TAG = re.compile(r"<[^<>]*>")
PRINTED = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]")
_ESCAPE = re.compile(r"\\(.)")


@functools.lru_cache(maxsize=64)  # the checks of one build read the same templates more than once
def find_printed_literals(source: str) -> tuple[tuple[str, int], ...]:
    """(text, offset in the source) of each piece of text the template writes out itself: the string literals of its
    `{{ }}` and `{% %}` code, and the text between SVG tags outside the code; comments print nothing."""
    found = []
    kept = _COMMENT.sub(spaces, source)
    for code in _CODE.finditer(kept):
        for match in _STRING.finditer(code.group(0)):
            body = match.group(1) if match.group(1) is not None else match.group(2)
            if PRINTED.search(body):  # an escape (\n) keeps its two characters, so offsets stay the source's
                found.append((_ESCAPE.sub(lambda m: " \n" if m.group(1) == "n" else " " + m.group(1), body),
                              code.start() + match.start() + 1))
    outside = _TAG.sub(spaces, _CODE.sub(spaces, kept))
    for match in re.finditer(r"[^\n<>]+", outside):  # each run between tags once: linear in the template's length
        if PRINTED.search(match.group(0)):
            text = match.group(0)
            found.append((text.strip(), match.start() + len(text) - len(text.lstrip())))
    return tuple(found)


def spaces(match: re.Match) -> str:
    """The matched text as spaces, its line breaks kept: what follows keeps its line and column."""
    return re.sub(r"[^\n]", " ", match.group(0))


def check_template_text(project: Project, game: Game, nouns: list[Noun], strict: bool = False) -> list[Finding]:
    """Text written into a template (「磐座 ３か所」, 「…×２」VP。) is printed on every piece: hold it too. A figure it
    states that the data only assumes is reported as that assumption, not as agreeing with the document; a
    template only one component draws with speaks of that component when its text names none (「英雄（全５枚）」)."""
    findings: list[Finding] = []
    rules = find_rules(game)
    assumed = find_assumed(game)
    for name, (source, drawn) in gather_templates(project, game).items():
        origin = f"template text {name}"
        subject = list_names(drawn[0])[-1] if len(drawn) == 1 else ""
        heading = f"# {subject}\n" if subject and not find_numbers(subject) else ""
        at = locator(source, f"templates/{name}")
        for text, start in find_printed_literals(source):
            locate = lambda offset, start=start, at=at: at(start + offset)  # noqa: E731  (offsets are the source's)
            if find_numbers(text):  # read under the component's name as a heading: offsets past it are the text's
                shifted = lambda offset, start=start - len(heading), at=at: at(start + offset)  # noqa: E731
                stated = check_prose(game, heading + text, shifted, nouns, strict, origin, subject)
                findings.extend(mark_assumed(stated, origin, assumed))
            findings.extend(check_text(game, text, locate, rules, origin))
    return findings


def gather_templates(project: Project, game: Game) -> dict[str, tuple[str, list[Component]]]:
    """Each template of the game's components (imports followed): its source and the components drawn with it."""
    found: dict[str, tuple[str, list[Component]]] = {}
    for component in game.components:
        for name, source in template_texts(project, component).items():
            found.setdefault(name, (source, []))[1].append(component)
    return found


def find_assumed(game: Game) -> dict[str, str]:
    """Why each figure or component count the data assumes stands, by the label its nouns carry."""
    reasons = {f"figure {f.name}": f.assumed for f in game.figures if f.assumed}
    for expectation in game.expectations:
        if expectation.kind == "total" and "equals" in dict(expectation.assumed):
            reasons[f"count {expectation.component}"] = dict(expectation.assumed)["equals"]
    return reasons


_RULEBOOK_FIGURE = re.compile(r"\{\{ figure\('(\w+)'\)\|zen \}\}")


def mark_assumed(findings: list[Finding], origin: str, assumed: dict[str, str]) -> list[Finding]:
    """A printed number that agrees with an assumed figure states the assumption: a warning, never a ✓; the way to
    print a figure is a template's (card.figures.NAME), not a rulebook's."""
    marked = []
    for finding in findings:
        label = finding.check[len(origin) + 1:]
        if finding.status == PASS and label in assumed:
            marked.append(replace(finding, status=WARN, expected="not stated", figure="assumed",
                                  detail=f"assumption: the template prints {finding.found}, which the document does "
                                  f"not state ({assumed[label]})"))
        else:
            marked.append(replace(finding, detail=_RULEBOOK_FIGURE.sub(r"{{ card.figures.\1|zen }}", finding.detail)))
    return marked
