"""What the data only assumes is marked where cards and maps print it, and a final build prints it plain."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.project.assumptions import MARK, assumed_count, mark_assumed
from pnpgen.project.validate import load_project

REPO = Path(__file__).resolve().parents[2]


def test_a_figure_or_count_the_data_assumes_is_marked_unless_the_build_is_final():
    game = load_project(REPO).game("otogi-taisen")
    assert mark_assumed(game, "iwakura_per_area", final=False) == MARK  # 磐座 per area: not in the document
    assert mark_assumed(game, "area-map", final=False) == MARK and assumed_count(game, "area-map")
    assert mark_assumed(game, "markers", final=False) == ""  # 「マーカー（３２個）」 is stated
    assert mark_assumed(game, "iwakura_per_area", final=True) == ""
    with pytest.raises(PnpError) as caught:
        mark_assumed(game, "iwakura", final=False)
    assert str(caught.value.problems[0]).startswith("assumed('iwakura'): no figure or component 'iwakura' in "
                                              "game 'otogi-taisen'; expected one of ")


def map_text(out: Path) -> str:
    return "".join(page.extract_text() for page in PdfReader(out / "otogi-taisen" / "area-map.pdf").pages)


def test_the_map_marks_its_assumed_count_and_a_final_build_does_not(tmp_path):
    for name, final in (("draft", False), ("final", True)):
        pnpgen.build(REPO, Options(out_dir=tmp_path / name, game="otogi-taisen", only="components", final=final,
                                   check=False, cache_dir=tmp_path / "cache"))
    assert "磐座 4か所（仮）" in map_text(tmp_path / "draft")
    final = map_text(tmp_path / "final")
    assert "磐座 4か所" in final and "磐座 4か所（仮）" not in final
