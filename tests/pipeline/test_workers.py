"""Background jobs: done on another core when forking is safe, their errors raised where they are awaited."""
import os
import signal
import threading
from pathlib import Path

import pytest

from pnpgen.errors import Location, PnpError, Problem
from pnpgen.pipeline.workers import Background, can_fork


def test_a_job_runs_and_its_file_appears(tmp_path: Path):
    target = tmp_path / "out.txt"
    job = Background(lambda: target.write_text("done"))
    job.wait()
    assert target.read_text() == "done"


def test_a_pnperror_in_the_job_comes_back_with_its_location():
    def fail():
        raise PnpError("the rulebook says 46 but the data has 45", Location("rules/x.md", 3, 5))

    with pytest.raises(PnpError) as caught:
        Background(fail).wait()
    assert str(caught.value) == "rules/x.md:3:5: the rulebook says 46 but the data has 45"


def test_with_other_threads_the_job_runs_when_awaited(tmp_path: Path):
    """serve and watch build beside other threads, where forking is not safe."""
    ran = []
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        job = Background(lambda: ran.append(threading.get_ident()))
        assert job.pid is None and ran == []
        job.wait()
        assert ran == [threading.get_ident()]
    finally:
        stop.set()
        other.join()


def test_every_problem_of_a_job_comes_back_with_its_location_and_sheet():
    problems = [Problem(Location("cards.xlsx", 12, 3, "Deck"), "a value\nwith a new line"),
                Problem(Location("cards.yaml", 4, 1), "another"), Problem(None, "no place")]

    def fail():
        raise PnpError(problems)

    with pytest.raises(PnpError) as caught:
        Background(fail).wait()
    assert caught.value.problems == PnpError(problems).problems


def test_a_job_that_crashes_or_dies_is_reported_and_its_bytes_come_back_whole():
    big = bytes(range(256)) * 4000  # more than a pipe holds at once
    assert Background(lambda: big).wait() == big
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        Background(lambda: 1 / 0).wait()
    with pytest.raises(RuntimeError, match="exit code 3"):
        Background(lambda: os._exit(3)).wait()


def test_no_pickle_carries_an_outcome():
    source = (Path(__file__).resolve().parents[2] / "pnpgen" / "pipeline" / "workers.py").read_text(encoding="utf-8")
    assert "import pickle" not in source and "Pipe(" not in source and ".send(" not in source


class BlockedJob:
    """A job in a forked child that says it has started (b"s" on `started`), then waits for a byte on release (none
    comes before it is interrupted), and on its way out says it is cleaning up (b"c") and waits for release again
    before it writes the marker. The pipes are closed when the test ends."""

    def __init__(self, marker: Path):
        self.started, started_write = os.pipe()
        release_read, self.release = os.pipe()
        self.pipes = (self.started, started_write, release_read, self.release)
        self.marker = marker

        def run() -> None:
            try:
                os.write(started_write, b"s")
                os.read(release_read, 1)
            finally:
                os.write(started_write, b"c")
                os.read(release_read, 1)
                marker.write_text("cleaned up", encoding="utf-8")
        self.job = Background(run)

    def said(self) -> bytes:
        return os.read(self.started, 1)


@pytest.fixture
def blocked(tmp_path: Path):
    job = BlockedJob(tmp_path / "marker")
    yield job
    for fd in job.pipes:
        os.close(fd)


@pytest.mark.skipif(not can_fork(), reason="the job runs in a forked child only where fork exists")
def test_cancel_interrupts_a_child_that_ctrl_c_did_not_reach_and_a_second_ctrl_c_spares_its_cleanup(blocked):
    job = blocked.job
    assert blocked.said() == b"s"  # the child is in its job
    os.kill(job.pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the child…
    assert blocked.said() == b"c"  # …which is cleaning up now
    os.kill(job.pid, signal.SIGINT)  # a second Ctrl-C (or cancel()'s own) while it cleans up
    os.write(blocked.release, b"g")
    job.cancel()
    assert job.pid is None
    assert blocked.marker.read_text(encoding="utf-8") == "cleaned up"


@pytest.mark.skipif(not can_fork(), reason="the job runs in a forked child only where fork exists")
def test_cancel_ends_a_job_when_only_this_process_was_interrupted(blocked):
    job = blocked.job
    assert blocked.said() == b"s"
    releaser = threading.Thread(target=lambda: blocked.said() and os.write(blocked.release, b"g"))
    releaser.start()  # lets the cleanup through once the job says it is cleaning up
    job.cancel()  # no Ctrl-C reached the child: cancel() interrupts it itself
    releaser.join()
    assert job.pid is None
    assert blocked.marker.read_text(encoding="utf-8") == "cleaned up"
