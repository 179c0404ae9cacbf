"""Turn a rulebook's Markdown, a sandboxed Jinja template, and a game's data into the Markdown to typeset.

Kept apart from typesetting so that the checker, which reads the expanded rules too, loads no typesetter.
"""
from __future__ import annotations

import re
import sys
import traceback
from pathlib import Path

import jinja2
from jinja2.sandbox import SecurityError

from ..errors import Location, PnpError
from ..files.reading import MAX_FILE_BYTES, refuse_large
from ..templating import limits
from ..templating.limits import ENDLESS, NO_MEMORY
from ..templating.run_budget import RunOutOfBudget, Spender
from ..project.model import Game, Project
from ..templating.sandbox import make_environment
from .context import find_edition, make_context

DEFAULT_ACCENT = "#8c3b2a"
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


# What expanding gave, for the project it was expanded for: a build works out a rulebook's digest from its
# expansion (reads.py) and typesets the same expansion after, in the process it forks; one project at a time.
_EXPANDED: dict[tuple, tuple] = {}  # (game id, source, text, marked) -> (project, game, Markdown, marks noted)


def expand_markdown(project: Project, game: Game, source: Path, text: str, marks: list | None = None) -> str:
    """The Markdown with its {{ … }} expressions evaluated against the game's data (sandboxed, strict), what the
    helpers print besides the data in the project's edition's words. marks: where to note the assumed numbers it
    prints, each then followed by ASSUMED_MARK (None: printed plain). The project and its games are frozen values:
    the same ones expand alike."""
    key = (game.id, str(source), text, marks is not None)
    kept = _EXPANDED.get(key)
    if kept is not None and kept[0] is project and kept[1] is game:
        if marks is not None:
            marks.extend(kept[3])
        return kept[2]
    if any(found[0] is not project for found in _EXPANDED.values()):
        _EXPANDED.clear()  # another project's (watch loads the project again on each save): it is not kept alive
    noted = len(marks) if marks is not None else 0
    expanded = expand_now(project, game, source, text, marks)
    _EXPANDED[key] = (project, game, expanded, tuple(marks[noted:]) if marks is not None else ())
    return expanded


def expand_now(project: Project, game: Game, source: Path, text: str, marks: list | None) -> str:
    env = make_environment(project.templates_dir)
    where = show_path(project, source)
    try:
        return limits.render(env.from_string(text), make_context(game, marks, find_edition(project, game)),
                             Spender(f"{where}, the rulebook of game {game.id}", Location(where), "rulebook"))
    except RunOutOfBudget:
        raise
    except jinja2.TemplateSyntaxError as err:
        raise PnpError(f"template syntax error: {err.message}", Location(where, err.lineno or 0, 1)) from None
    except (PnpError, RecursionError, MemoryError) as err:
        message = err.problems[0].message if isinstance(err, PnpError) else ENDLESS if isinstance(
            err, RecursionError) else NO_MEMORY
        raise PnpError(message, Location(where, template_line(), 1)) from None
    except (jinja2.TemplateError, SecurityError, TypeError, ValueError, LookupError, ArithmeticError) as err:
        message = str(err)
        raise PnpError(f"{message}; expected an expression over game, players, components, count(), each(), "
                       "values(), table() …", Location(where, template_line(), 1)) from None


def read_source(project: Project, source: Path) -> str:
    refuse_large(source, MAX_FILE_BYTES, Location(show_path(project, source)), "Markdown file")
    try:
        return source.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise PnpError(f"cannot read the rulebook ({err}); expected a UTF-8 Markdown file",
                       Location(show_path(project, source))) from None


def accent_of(game: Game) -> str:
    """The colour a game's rulebook sets its headings and marks in: its defaults' accent, else the house one."""
    accent = str(game.defaults.get("accent", DEFAULT_ACCENT))
    return accent if _HEX.match(accent) else DEFAULT_ACCENT


def template_line() -> int:
    """The line of the rulebook template being rendered when the current exception was raised."""
    frames = reversed(list(traceback.walk_tb(sys.exc_info()[2])))
    return next((line for frame, line in frames if frame.f_code.co_filename == "<template>"), 0)


def show_path(project: Project, source: Path) -> str:
    try:
        return str(Path(source).resolve().relative_to(project.root.resolve()))
    except ValueError:
        return str(source)
