"""Turn problems found anywhere in the pipeline into located, user-facing errors."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path


@dataclass(frozen=True, order=True, slots=True)  # a deck keeps one for each card and field: no __dict__ each
class Location:
    """A place in a source file; line and col count from 1. In a spreadsheet, line and col are the cell's row and
    column and `sheet` names its tab ("" for a CSV file), so it reads `file:sheet!C12`."""

    file: str
    line: int = 0
    col: int = 0
    sheet: str | None = None

    def __str__(self) -> str:
        if self.sheet is not None and self.line > 0:
            tab = f"{self.sheet}!" if self.sheet else ""
            return f"{self.file}:{tab}{column_name(self.col)}{self.line}"
        if self.sheet:
            return f"{self.file}:{self.sheet}"
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"

    def relative_to(self, root: Path) -> "Location":
        try:
            rel = Path(self.file).resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            return self
        return replace(self, file=str(rel))


def column_name(col: int) -> str:
    """A spreadsheet column's letters: 1 -> A, 27 -> AA."""
    name = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        name = chr(65 + rest) + name
    return name


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: where, what, and what was expected."""

    location: Location | None
    message: str

    def __str__(self) -> str:
        return shown(f"{self.location}: {self.message}" if self.location else self.message)


# Data quoted in a message must not drive the terminal (ESC sequences, carriage returns, new lines that
# would print a fake summary): each message is one line.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")  # bidi overrides too


def shown(text: str) -> str:
    """Text from a project as a terminal line: control characters written as escapes (\\x1b, \\n), never obeyed."""
    return CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


class PnpError(Exception):
    """The one error type the library raises for bad input; it carries every problem found."""

    def __init__(self, problems: Problem | list[Problem] | str, location: Location | None = None):
        if isinstance(problems, str):
            problems = [Problem(location, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = sorted(problems, key=_sort_key)
        super().__init__("\n".join(str(p) for p in self.problems))


def _sort_key(problem: Problem) -> tuple:
    loc = problem.location
    return (loc is None, loc.file if loc else "", loc.line if loc else 0, loc.col if loc else 0)


class Collector:
    """Gathers problems so that a stage can report all of them at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, location: Location | None, message: str) -> None:
        self.problems.append(Problem(location, message))

    def extend(self, error: PnpError) -> None:
        self.problems.extend(error.problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise PnpError(self.problems)
