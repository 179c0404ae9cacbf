"""Turn an expectation's expressions into values, and the cards they fail on into located errors."""
from __future__ import annotations

import difflib
import re

from ..errors import Location, PnpError
from ..project.model import Expectation
from ..templating.sandbox import compile_expression

_MISSING = re.compile(r"has no attribute '([^']+)'")
_INTERNAL = re.compile(r"'?<?[\w.]*(?:pnpgen|Fields|Card)[\w.]*(?: object)?>?'?")


def evaluate(expression: str, expectation: Expectation, **names):
    try:
        return compile_expression(expression)(**names)
    except Exception as err:  # a designer's expression failing on some card is a located input error
        raise PnpError(f"expression '{expression}' failed: {explain(err)}; expected it to work for every card",
                       expectation.location) from None


def select_cards(expression: str, expectation: Expectation, pieces: list, keep: bool = True, **names) -> list:
    """The pieces for which the expression holds (or, with keep=False, does not); a card it fails on is named by
    the cell that should hold the field it reads (data/tea.csv:B15), not by the expectation alone."""
    run = compile_expression(expression)
    chosen = []
    for piece in pieces:
        try:
            holds = bool(run(card=piece.card.fields, **names))
        except Exception as err:
            raise PnpError(f"{describe_failure(expression, err, piece.card, pieces)} (the expectation at {expectation.location})",
                           locate_field(piece.card, err, pieces)) from None
        if holds == keep:
            chosen.append(piece)
    return chosen


def explain(err: Exception) -> str:
    """The error in the designer's words: never an internal class name."""
    missing = _MISSING.search(str(err))
    if missing:
        return f"the card has no field '{missing.group(1)}'"
    return _INTERNAL.sub("the value", str(err))


def describe_failure(expression: str, err: Exception, card, pieces: list) -> str:
    missing = _MISSING.search(str(err))
    if not missing:
        return f"expression '{expression}' failed on this card: {explain(err)}; expected it to work for every card"
    name = missing.group(1)
    known = sorted({k for p in pieces for k in p.card.fields})
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"did you mean '{close[0]}'?" if close and close[0] != name else "expected a value in this cell"
    return f"expression '{expression}' reads card.{name}, but this card has no field '{name}' (an empty or missing cell); {hint}"


def locate_field(card, err: Exception, pieces: list) -> Location:
    """The cell of the card's row in the column that holds the missing field on other cards, else the card."""
    where = card.location
    missing = _MISSING.search(str(err))
    if not missing or where.sheet is None:
        return where
    for piece in pieces:
        for name, spot in piece.card.find_cells():
            if name == missing.group(1) and spot.file == where.file and spot.sheet == where.sheet:
                return Location(where.file, where.line, spot.col, where.sheet)
    return where
