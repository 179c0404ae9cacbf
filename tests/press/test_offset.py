"""A back offset is range-checked: applied within the paper, marks kept 6 mm from the edge, refused with gutterfold."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pdfprobe import clipped_boxes, segments
from pnpgen.cli import main
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.project.model import Size
from pnpgen.units import mm, to_mm

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
A4, LETTER = Size(mm(210), mm(297)), Size(mm(215.9), mm(279.4))
POKER = Size(mm(63), mm(88))


def deck(n: int) -> list[Item]:
    return [Item(f"front-{i}", "back", POKER, f"deck #{i + 1}") for i in range(n)]


def mark_extent(page):
    for mark in page.marks:
        p = mark.points
        if mark.kind in ("crop", "cut", "fold"):
            yield min(p[0], p[2]), min(p[1], p[3]), max(p[0], p[2]), max(p[1], p[3])


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("offset", [(2, 0), (-4, 0), (0, 1.5), (0, -1.5), (4, -1.6), (0, 0)])
def test_back_pages_move_by_the_offset_and_print_nothing_in_the_margin(paper, offset):
    plain = impose(deck(9), SheetSpec(paper))
    shifted = impose(deck(9), SheetSpec(paper, back_offset=(mm(offset[0]), mm(offset[1]))))
    for before, after in zip(plain, shifted):
        for a, b in zip(before.placements, after.placements):
            moved = (to_mm(b.x - a.x), to_mm(b.y - a.y))
            assert moved == pytest.approx(offset if after.side == "back" else (0, 0), abs=1e-6)
        for x0, y0, x1, y1 in mark_extent(after):
            assert min(x0, y0) >= mm(6) - 1e-6 and x1 <= paper.width - mm(6) + 1e-6 and y1 <= paper.height - mm(6) + 1e-6
        for p in after.placements:  # the bleed stops at the margin; only a trim pushed into it goes further
            assert p.clip.x0 >= min(mm(6), p.x) - 1e-6 and p.clip.y0 >= min(mm(6), p.y) - 1e-6
            assert p.clip.x1 <= max(paper.width - mm(6), p.x + p.width) + 1e-6
            assert p.clip.y1 <= max(paper.height - mm(6), p.y + p.height) + 1e-6


def test_an_offset_into_the_margin_is_reported_on_the_page():
    pages = impose(deck(9), SheetSpec(LETTER, back_offset=(0, mm(-3))))  # trims 7.7 mm from the edge → 4.7
    back = pages[1]
    assert back.side == "back" and len(back.notes) == 1
    assert "4.7 mm from the paper's edge, inside the 6 mm margin" in back.notes[0]
    assert pages[0].notes == ()


def test_an_offset_off_the_paper_is_refused_with_the_range_that_works():
    with pytest.raises(ValueError) as caught:
        impose(deck(9), SheetSpec(A4, back_offset=(mm(12), 0)))  # the grid is 10.5 mm from each side
    message = str(caught.value)
    assert message.startswith("--back-offset 12,0 moves back trims off the paper; expected an offset from -4.5 to 4.5 mm "
                              "across and from -10.5 to 10.5 mm up (within the 6 mm margin)")


def test_the_cli_refuses_an_offset_off_the_paper_and_an_offset_with_gutterfold(tmp_path):
    runner = CliRunner()
    project = str(FIXTURES / "numbered-backs")
    off = runner.invoke(main, ["build", project, "-o", str(tmp_path / "a"), "--back-offset", "0,40", "--no-cache"])
    assert off.exit_code == 1 and "Traceback" not in off.output
    assert "--back-offset 0,40 moves back trims off the paper" in off.output
    folded = runner.invoke(main, ["build", project, "-o", str(tmp_path / "b"), "--back-offset", "1,0", "--gutterfold"])
    assert folded.exit_code == 1
    assert "--back-offset 1,0 does not apply with --gutterfold" in folded.output
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    bad = runner.invoke(main, ["build", project, "--back-offset", "nan,0"])
    assert bad.exit_code == 2 and "expected X,Y in millimetres" in bad.output


def test_a_built_back_page_keeps_its_marks_6_mm_from_the_edge(tmp_path):
    result = CliRunner().invoke(main, ["build", str(FIXTURES / "numbered-backs"), "-o", str(tmp_path), "--paper", "letter",
                                       "--back-offset", "3.5,-2", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "inside the 6 mm margin" in result.output
    pdf = next(p for p in tmp_path.rglob("*.pdf") if "print-and-play" not in p.name)
    reader = PdfReader(pdf)
    back = reader.pages[1]
    width, height = to_mm(float(back.mediabox.width)), to_mm(float(back.mediabox.height))
    for x0, y0, x1, y1 in segments(reader, back):
        assert min(x0, x1, y0, y1) >= 6 - 0.01 and max(x0, x1) <= width - 6 + 0.01 and max(y0, y1) <= height - 6 + 0.01
    drawn = clipped_boxes(reader, back)
    # the bleed stops at the margin; a trim pushed into it (reported above) is drawn to its edge
    assert drawn and all(d.clip[0] >= min(6, d.box[0] + 3) - 0.01 and d.clip[1] >= min(6, d.box[1] + 3) - 0.01
                         for d in drawn)
