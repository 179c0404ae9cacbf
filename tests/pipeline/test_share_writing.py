"""A build's PDFs are written by one process, or shared with a second when there are pieces enough to pay for it;
either way they are the same bytes."""
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import pnpgen
from pnpgen import Options
from pnpgen.pipeline import pdf_jobs, workers
from pnpgen.pipeline.pdf_jobs import group_retitled, share_writing

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


class Placed:
    def __init__(self, pieces: int):
        self.pages = [type("Page", (), {"placements": [None] * pieces})()]
        self.same_as = None


def test_few_pieces_are_written_here_and_many_are_shared_largest_first(monkeypatch):
    small = [[Placed(100)], [Placed(50)]]
    assert share_writing(small) == (small, [])
    monkeypatch.setattr(pdf_jobs, "PARALLEL_PIECES", 100)
    big, middle, little = [Placed(90)], [Placed(60)], [Placed(40)]
    mine, theirs = share_writing([little, big, middle])
    assert (mine, theirs) == ([big], [middle, little])  # each to the lighter side: 90 against 60 + 40
    assert share_writing([big]) == ([big], [])  # one PDF is made whole by one process


def test_a_pdf_that_another_is_under_its_own_title_goes_with_it_when_both_are_written():
    deck, other = Placed(9), Placed(9)
    game = Placed(9)
    game.same_as = deck
    assert group_retitled([deck, other, game]) == [[deck, game], [other]]
    assert group_retitled([other, game]) == [[other], [game]]  # the deck's PDF is up to date: the game's alone


def build_both_ways(tmp_path: Path, fixture: str) -> list[Path]:
    """Build the fixture with the cache and without, into out/ and alone/; the PDFs' names, which must match."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / fixture, project)
    pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False))
    pnpgen.build(project, Options(out_dir=tmp_path / "alone", cache=False, check=False))
    written = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*.pdf"))
    assert written == sorted(p.relative_to(tmp_path / "alone") for p in (tmp_path / "alone").rglob("*.pdf"))
    return written


@pytest.mark.parametrize("threshold", [1, 10 ** 9])
def test_shared_or_not_the_pdfs_are_the_same(tmp_path, monkeypatch, threshold):
    started = []
    monkeypatch.setattr(pdf_jobs, "PARALLEL_PIECES", threshold)
    monkeypatch.setattr(workers, "Background", lambda job, made=workers.Background: started.append(job) or made(job))
    written = build_both_ways(tmp_path, "tts-many-cards")
    assert len(started) == (2 if threshold == 1 else 0)  # once a build, on the other core
    assert len(written) == 3
    for name in written:
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes()


def test_a_game_of_one_component_has_its_pdf_as_its_print_and_play_pdf_under_the_games_title(tmp_path, monkeypatch):
    """Made once for both files, or each on its own: the same bytes, each file whole, each with its own title."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    pnpgen.build(project, Options(out_dir=tmp_path / "together", cache=False, check=False))
    monkeypatch.setattr(pdf_jobs, "group_retitled", lambda outputs: [[output] for output in outputs])
    pnpgen.build(project, Options(out_dir=tmp_path / "apart", cache=False, check=False))
    deck, game = (tmp_path / "together" / "tiny" / name for name in ("deck.pdf", "tiny-print-and-play.pdf"))
    assert PdfReader(deck, strict=True).metadata.title == "小さなゲーム — デッキ"
    assert PdfReader(game, strict=True).metadata.title == "小さなゲーム"
    assert deck.read_bytes().split(b"/Title")[0] == game.read_bytes().split(b"/Title")[0]
    for path in (deck, game):
        assert path.read_bytes() == (tmp_path / "apart" / "tiny" / path.name).read_bytes()
