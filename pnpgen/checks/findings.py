"""Turn what a check found into findings: a status, what was checked, where, and the document it cites."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable

from ..errors import Location, Problem
from ..project.model import Source

PASS, FAIL, WARN = "pass", "fail", "warn"
SYMBOLS = {PASS: "✓", FAIL: "✗", WARN: "⚠"}


@dataclass(frozen=True)
class Finding:
    status: str
    game: str
    check: str  # what was checked, e.g. "total battle-cards" or "setup battle-cards at 3 players: pieces used"
    location: Location
    expected: object = None
    found: object = None
    detail: str = ""  # which cards differ, or why it is only a warning
    source: Source | None = None
    figure: str = ""  # which figure of the expectation this is about, as `known:` names it

    def line(self) -> str:
        text = f"{SYMBOLS[self.status]} {self.location}: {self.check}"
        if self.expected is not None or self.found is not None:
            text += f": expected {show(self.expected)}, found {show(self.found)}"
        if self.detail:
            text += f" — {self.detail}"
        if self.source:
            text += f" [{self.source.document}: 「{self.source.quote}」]"
        return text

    def as_problem(self) -> Problem:
        return Problem(self.location, self.line()[2:].split(": ", 1)[1])

    def as_dict(self) -> dict:
        return {
            "status": self.status,
            "game": self.game,
            "check": self.check,
            "file": self.location.file,
            "line": self.location.line,
            "expected": jsonable(self.expected),
            "found": jsonable(self.found),
            "detail": self.detail,
            "source": {"document": self.source.document, "quote": self.source.quote} if self.source else None,
            "col": self.location.col,  # version 1 plus: the column, and the figure `known:` would name
            "figure": self.figure or None,
        }


def show(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    return value


def locator(text: str, file: str) -> Callable[[int], Location]:
    """Offsets into `text` as the file:line:col they stand at."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def locate(offset: int) -> Location:
        line = bisect_right(starts, offset)
        return Location(file, line, offset - starts[line - 1] + 1)

    return locate


def failures(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.status == FAIL]
