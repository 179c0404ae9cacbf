"""Turn a template's error into the words of a message: where in the templates it was raised, what the card lacks."""
from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import jinja2

from ..errors import Location
from ..project.model import Card, Project


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
        if filename.endswith(".j2") or filename.endswith(template):
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
