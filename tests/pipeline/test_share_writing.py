"""A build's PDFs are written by one process, or shared with a second when there are pieces enough to pay for it;
either way they are the same bytes."""
import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.pipeline import build as pipeline, workers
from pnpgen.pipeline.build import share_writing

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


class Placed:
    def __init__(self, pieces: int):
        self.pages = [type("Page", (), {"placements": [None] * pieces})()]


def test_few_pieces_are_written_here_and_many_are_shared_largest_first(monkeypatch):
    small = [Placed(100), Placed(50)]
    assert share_writing(small) == (small, [])
    monkeypatch.setattr(pipeline, "PARALLEL_PIECES", 100)
    big, middle, little = Placed(90), Placed(60), Placed(40)
    mine, theirs = share_writing([little, big, middle])
    assert (mine, theirs) == ([big], [middle, little])  # each to the lighter side: 90 against 60 + 40
    assert share_writing([big]) == ([big], [])  # one PDF is made whole by one process


@pytest.mark.parametrize("threshold", [1, 10 ** 9])
def test_shared_or_not_the_pdfs_are_the_same(tmp_path, monkeypatch, threshold):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    started = []
    monkeypatch.setattr(pipeline, "PARALLEL_PIECES", threshold)
    monkeypatch.setattr(workers, "Background", lambda job, made=workers.Background: started.append(job) or made(job))
    pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False))
    assert len(started) == (1 if threshold == 1 else 0)  # the print-and-play PDF, on the other core
    pnpgen.build(project, Options(out_dir=tmp_path / "alone", cache=False, check=False))
    written = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*.pdf"))
    assert len(written) == 2
    for name in written:
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes()
