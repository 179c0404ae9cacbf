"""Turn the template renders and PDF writes of one run (a build, a check, an export, a preview's rebuild) into a
bounded whole: steps, time and output in all, refused with the component and template that spent the most.

Each render has limits of its own (limits.py), but a hostile project can stay under them many times over and run
for hours. The run's limits follow a rule, not a measurement: 100,000 distinct faces (the pieces one component may
have), each several times as heavy as a designer's heaviest, and an hour. They are checked as each face is rendered
and each PDF written, never by signals. Faces from the cache cost nothing. A helper process spends from the budget
as it stood when it was forked and hands back what it spent itself, so that both halves of a build count.
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import os
import time
from dataclasses import astuple, dataclass
from typing import BinaryIO, Callable

from ..errors import Location, PnpError

MAX_STEPS = 1_000_000_000  # template loop iterations and calls in one run: 100,000 faces of 10,000
MAX_SECONDS = 3600.0  # wall-clock time of one run, as far as its renders and writes see it
MAX_OUTPUT = 25_000_000_000  # characters of SVG templates write and bytes of PDF a build writes: 100,000 faces of
# 80,000 characters, each written once as SVG and twice in PDFs (its component's and the print-and-play)
LIMITS_VARIABLE = "PNPGEN_RUN_LIMITS"  # "steps=N,seconds=N,output=N": other limits for a run, such as a test's
KINDS = ("steps", "seconds", "output")


class RunOutOfBudget(PnpError):
    """A limit of the whole run is spent: the run stops, even where a render's own errors are gathered and
    reported together."""


@dataclass(frozen=True)
class Limits:
    steps: int = MAX_STEPS
    seconds: float = MAX_SECONDS
    output: int = MAX_OUTPUT


@dataclass(frozen=True)
class Spender:
    """What a render or write is charged to, as a message names it."""

    label: str  # "templates/front.svg.j2 for component g/deck"
    location: Location | None = None
    unit: str = "face"  # what each charge is, counted in the message ("" for a PDF's writes)


class RunBudget:
    """What one run has spent, in all and by spender; over a limit, charge() raises RunOutOfBudget."""

    def __init__(self, run: str, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.run, self.limits, self.clock = run, limits, clock
        self.deadline = clock() + limits.seconds
        self.steps = 0
        self.output = 0
        self.spent: dict[Spender, list] = {}  # spender -> [steps, output, seconds, count]
        self.share: dict[Spender, list] | None = None  # in a helper process: what it spent itself

    def charge(self, spender: Spender, steps: int = 0, output: int = 0, seconds: float = 0.0, count: int = 1) -> None:
        """Add one render's (or write's) spending, then refuse to go on past a limit."""
        for tally in (self.spent, self.share) if self.share is not None else (self.spent,):
            entry = tally.setdefault(spender, [0, 0, 0.0, 0])
            for column, amount in enumerate((steps, output, seconds, count)):
                entry[column] += amount
        self.steps += steps
        self.output += output
        self.refuse_overspending()

    def refuse_overspending(self) -> None:
        if self.steps > self.limits.steps:
            spender, amount, count = self.most(0)
            raise self.stop(spender, f"used more than {self.limits.steps:,} template steps in all (loop iterations "
                            "and calls; the limit for one run)", f"{amount:,} steps", count,
                            "expected templates that do bounded work")
        if self.output > self.limits.output:
            spender, amount, count = self.most(1)
            raise self.stop(spender, f"wrote more than {self.limits.output:,} characters of SVG and PDF in all "
                            "(the limit for one run)", f"{amount:,} characters", count, "expected faces of ordinary size")
        if self.clock() > self.deadline:
            spender, amount, count = self.most(2)
            raise self.stop(spender, f"was still rendering and writing after {self.limits.seconds:,.0f} seconds (the "
                            "limit for one run)", f"{amount:,.0f} seconds", count, "expected templates that do bounded work")

    def most(self, column: int) -> tuple[Spender, object, int]:
        """The spender that spent the most of one column (the first of equals), what it spent, its count."""
        spender = max(self.spent, key=lambda s: self.spent[s][column])
        return spender, self.spent[spender][column], self.spent[spender][3]

    def stop(self, spender: Spender, over: str, amount: str, count: int, expected: str) -> RunOutOfBudget:
        counted = f" over {count:,} {spender.unit}{'' if count == 1 else 's'}" if spender.unit else ""
        return RunOutOfBudget(f"the {self.run} {over}; most went to {spender.label} ({amount}{counted}); {expected}",
                              spender.location)

    def start_share(self) -> None:
        """In a helper process: keep apart what it spends from here on, to hand back."""
        self.share = {}

    def hand_over(self) -> bytes:
        """What this helper process spent, as JSON for the process that forked it."""
        return json.dumps([[s.label, s.location and astuple(s.location), s.unit, *entry]
                           for s, entry in (self.share or {}).items()], ensure_ascii=True).encode("ascii")

    def take(self, handed: bytes | None) -> None:
        """Add what a helper process spent (hand_over()), then refuse to go on past a limit."""
        for label, where, unit, steps, output, seconds, count in json.loads(handed) if handed else ():
            spender = Spender(label, None if where is None else Location(*where), unit)
            self.charge(spender, steps, output, seconds, count)


_RUN: contextvars.ContextVar[RunBudget | None] = contextvars.ContextVar("pnpgen_run_budget", default=None)


@contextlib.contextmanager
def whole_run(run: str, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic):
    """Every render and write inside is charged to one RunBudget ("the build", "the check" … in messages); inside
    a run already going, to that one. Usable as a decorator."""
    going = _RUN.get()
    if going is not None:
        yield going
        return
    token = _RUN.set(RunBudget(run, limits or limits_from_environment(), clock))
    try:
        yield _RUN.get()
    finally:
        _RUN.reset(token)


def current() -> RunBudget | None:
    return _RUN.get()


def limits_from_environment() -> Limits:
    """The limits, or those $PNPGEN_RUN_LIMITS sets (such as steps=100000,output=5000000)."""
    text = os.environ.get(LIMITS_VARIABLE, "")
    values: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        name, _, number = part.partition("=")
        if not part:
            continue
        if name.strip() not in KINDS or not number.strip().isdigit() or int(number) == 0:
            raise PnpError(f"${LIMITS_VARIABLE} is '{text}'; expected limits such as steps=100000,seconds=600,"
                           "output=50000000 (whole numbers above 0; any of steps, seconds and output)")
        values[name.strip()] = int(number)
    return Limits(**values)


def charge(spender: Spender, steps: int = 0, output: int = 0, seconds: float = 0.0, count: int = 1) -> None:
    """Charge the run going on (none: nothing to charge)."""
    run = _RUN.get()
    if run is not None:
        run.charge(spender, steps, output, seconds, count)


def apart(job: Callable[[], object]) -> Callable[[], bytes | None]:
    """job for a forked helper: it returns what it spent (for take()); run in this very process, None."""
    parent = os.getpid()

    def run() -> bytes | None:
        budget = _RUN.get()
        if budget is None or os.getpid() == parent:
            job()
            return None
        budget.start_share()
        job()
        return budget.hand_over()
    return run


def take(handed: bytes | None) -> None:
    """Add what a helper process spent to the run going on."""
    run = _RUN.get()
    if run is not None:
        run.take(handed)


class CountedWrites:
    """A file whose writes are charged to the run going on, as a PDF's output."""

    def __init__(self, out: BinaryIO, spender: Spender):
        self.out, self.spender = out, spender

    def write(self, data: bytes) -> int:
        charge(self.spender, output=len(data), count=0)
        return self.out.write(data)
