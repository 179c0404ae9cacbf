"""Turn a game's data into what it only assumes: counts and figures the documents leave blank (`assumed:`)."""
from __future__ import annotations

from ..errors import PnpError
from .model import Game

MARK = "（仮）"  # what a card or map prints after a number the data only assumes, unless the build is final
# the same mark in an edition in another script: a full-width Japanese bracket does not belong in a Latin line
MARKS = {"en": " (TBD)"}


def assumed_count(game: Game, component_id: str) -> tuple[str, str] | None:
    """(why, the document it would be stated in) when the data assumes how many pieces the component has."""
    for expectation in game.expectations:
        if expectation.component == component_id and expectation.kind in ("total", "distribution"):
            for figure, why in expectation.assumed:
                if figure == "equals":
                    return why, expectation.source.document if expectation.source else ""
    return None


def mark_assumed(game: Game, name: str, final: bool, language: str | None = None) -> str:
    """MARK (in the edition's language: MARKS) when the figure or component count `name` is one the data only
    assumes (and the build is not final), else ""; templates print it after the number:
    `{{ a.iwakura }}か所{{ assumed('iwakura_per_area') }}`."""
    figure = game.figure(name)
    if figure is None and name not in {c.id for c in game.components}:
        known = ", ".join([f.name for f in game.figures] + [c.id for c in game.components]) or "none"
        raise PnpError(f"assumed('{name}'): no figure or component '{name}' in game '{game.id}'; expected one of {known}")
    if final:
        return ""
    assumed = figure.assumed if figure is not None else assumed_count(game, name)
    return MARKS.get(language, MARK) if assumed else ""


def count_assumptions(game: Game) -> int:
    """How many counts and figures of the game's data are only assumed."""
    return sum(len(e.assumed) for e in game.expectations) + sum(bool(f.assumed) for f in game.figures)
