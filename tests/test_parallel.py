"""Background jobs: done on another core when forking is safe, their errors raised where they are awaited."""
import threading
from pathlib import Path

import pytest

from pnpgen.errors import Location, PnpError
from pnpgen.parallel import Background


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
        assert job.process is None and ran == []
        job.wait()
        assert ran == [threading.get_ident()]
    finally:
        stop.set()
        other.join()
