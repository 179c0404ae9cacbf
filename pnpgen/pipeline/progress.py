"""Turn a build's progress (phase, done, total, label) into one line on a terminal: a bar, the rate, what is left."""
from __future__ import annotations

import math
import sys
import time

import click

from ..errors import shown


class ProgressLine:
    """A one-line progress bar on a terminal; silent when stderr is a file or a pipe."""

    def __init__(self, active: bool | None = None, clock=time.monotonic) -> None:
        self.active = sys.stderr.isatty() if active is None else active
        self.clock = clock
        self.shown = False
        self.phase, self.started = "", 0.0

    def show(self, phase: str, done: int, total: int, label: str) -> None:
        if not self.active or total <= 0:
            return
        if phase != self.phase:
            self.phase, self.started = phase, self.clock()
        filled = round(20 * done / total)
        line = shown(f"{phase:10} [{'#' * filled}{'.' * (20 - filled)}] {done}/{total}{self.pace(done, total)} {label}")
        click.echo("\r" + line[:100].ljust(100), nl=False, err=True)
        self.shown = True

    def pace(self, done: int, total: int) -> str:
        """", 850/s, 4 s left" once the phase has run long enough to tell."""
        elapsed = self.clock() - self.started
        if elapsed < 1 or done <= 0:
            return ""
        rate = done / elapsed
        return f", {rate:.0f}/s, {math.ceil((total - done) / rate)} s left"

    def clear(self) -> None:
        if self.shown:
            click.echo("\r" + " " * 100 + "\r", nl=False, err=True)
            self.shown = False
