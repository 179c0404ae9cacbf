"""Turn a card and a template's error into the words of messages: the few fields that tell the card from the others
of its component, where in the templates the error was raised, what the card lacks."""
from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import jinja2

from ..errors import Location
from ..project.model import Card, Component, Project


def distinguishing_fields(component: Component) -> list[str]:
    """The fields whose values tell a component's cards apart, most varied first (game-wide and component
    defaults, such as colours, are the same on every card and say nothing about which card it is)."""
    if len(component.cards) == 1:
        return []
    seen: dict[str, set] = {}
    for card in component.cards:
        for name, value in card.fields.items():
            seen.setdefault(name, set()).add(repr(value))
    missing = {name for name in seen if any(name not in c.fields for c in component.cards)}
    varied = [name for name in seen if len(seen[name]) > 1 or name in missing]
    # Most varied first; among equals the shorter values (a name, a number) before long texts.
    return sorted(varied, key=lambda name: (-len(seen[name]), sum(map(len, seen[name])) / len(seen[name])))


def describe_card(card: Card, names: list[str] | None = None, limit: int = 3) -> str:
    """"(number=7, ron=True)": the card by the given fields (distinguishing_fields), else (a component of one
    card) by its first ones."""
    if names is None or not any(name in card.fields for name in names):
        names = [k for k, v in card.fields.items() if isinstance(v, (int, str)) and not isinstance(v, bool)]
    shown = [f"{name}={shorten(card.fields[name])}" for name in names if card.fields.get(name) not in (None, "")][:limit]
    return f"({', '.join(shown)})" if shown else ""


def shorten(value, limit: int = 12) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_holding(card: Card, content: str | None) -> str:
    """The field whose text is the text that did not fit: the one equal to it, else the longest one within it
    (a short field such as a name is often part of a longer effect text that merely repeats it)."""
    if not content:
        return ""
    texts = [(name, str(value).strip()) for name, value in card.fields.items()
             if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip()]
    exact = [name for name, text in texts if text == content.strip()]
    within = [(name, text) for name, text in texts if text in content]
    if exact or within:
        name = exact[0] if exact else max(within, key=lambda found: len(found[1]))[0]  # the first longest
        return f"field '{name}' "
    return ""


def explain_undefined(message: str, card: Card) -> str:
    match = re.search(r"has no attribute '([^']+)'", message or "")
    if match and "Fields" in message:
        name = match.group(1)
        close = difflib.get_close_matches(name, list(card.fields), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "expected it in the card, the component's defaults or the game's defaults"
        return f"the card has no field '{name}'; {hint}"
    return f"{message}; expected a variable the template receives (card, component, game, W, H, B, SAFE, side, build)"


def template_line(template: str) -> str:
    """Where in the templates the error was raised: the deepest template frame (partials included)."""
    tb = sys.exc_info()[2]
    where = template
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".j2", template)):
            marker = "/templates/"
            name = filename.split(marker, 1)[1] if marker in filename else template
            where = f"{name} line {tb.tb_lineno}"
        tb = tb.tb_next
    return where


def template_location(project: Project, err: jinja2.TemplateSyntaxError):
    name = err.filename or err.name or "template"
    shown = str(Path(name).resolve().relative_to(project.root)) if err.filename else f"templates/{name}"
    return Location(shown, err.lineno or 0, 1)


def find_undecodable(templates_dir: Path, template: str) -> str:
    """Where the first template that is not UTF-8 goes wrong ("templates/front.svg.j2:3:14"): the face's own
    template first, then the others it may include, in name order."""
    own = templates_dir / template
    others = sorted(p for p in templates_dir.rglob("*") if p.is_file() and not p.is_symlink() and p != own)
    for path in [own] + others:
        try:
            data = path.read_bytes()
            data.decode("utf-8")
        except OSError:
            continue
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
            return f"templates/{path.relative_to(templates_dir).as_posix()}:{line}:{column}"
    return f"templates/{template}"
