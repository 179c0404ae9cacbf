"""The progress line: a bar, the rate and what is left once the phase has run a second, on a terminal only."""
from __future__ import annotations

from pnpgen.pipeline.progress import ProgressLine


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_says_the_rate_and_the_time_left(capsys):
    clock = Clock()
    line = ProgressLine(active=True, clock=clock)
    line.show("rendering", 0, 300, "deck")
    assert "0/300 deck" in capsys.readouterr().err  # too early to tell a rate
    clock.now += 2
    line.show("rendering", 100, 300, "deck")
    shown = capsys.readouterr().err
    assert "[#######.............] 100/300, 50/s, 4 s left deck" in shown
    line.clear()
    assert capsys.readouterr().err.strip() == ""


def test_a_new_phase_starts_its_own_clock(capsys):
    clock = Clock()
    line = ProgressLine(active=True, clock=clock)
    line.show("rendering", 10, 10, "deck")
    clock.now += 5
    line.show("writing", 1, 4, "deck.pdf")
    assert "1/4 deck.pdf" in capsys.readouterr().err


def test_nothing_is_shown_off_a_terminal(capsys):
    line = ProgressLine(active=False)
    line.show("rendering", 1, 2, "deck")
    line.clear()
    assert capsys.readouterr().err == ""
