"""Every cut has a guide on every paper the build offers, read back from the PDF: each line a trim edge lies on
has a mark drawn along it, beyond the pieces, inside the printable area."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pdfprobe import clipped_boxes, segments
from pnpgen.cli import main
from pnpgen.units import PAPER_SIZES_MM

BLEED = 3.0  # the scaffold's deck asks 3 mm
TOL = 0.05  # mm


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("guides")
    result = CliRunner().invoke(main, ["init", str(root / "game")])
    assert result.exit_code == 0, result.output
    return root / "game"


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES_MM))
def test_every_trim_line_has_a_mark_along_it(deck, tmp_path, paper):
    result = CliRunner().invoke(main, ["build", str(deck), "--paper", paper, "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "no crop marks" not in result.output
    reader = PdfReader(next(tmp_path.rglob("deck.pdf")))
    for page in reader.pages[::2]:  # the fronts (backs mirror them)
        width, height = (float(v) * 25.4 / 72 for v in (page.mediabox.width, page.mediabox.height))
        trims = [(b.box[0] + BLEED, b.box[1] + BLEED, b.box[2] - BLEED, b.box[3] - BLEED)
                 for b in clipped_boxes(reader, page)]
        assert trims
        lines = segments(reader, page)
        for vertical, (lo, hi) in ((True, (0, 2)), (False, (1, 3))):
            for position in {round(t[k], 3) for t in trims for k in (lo, hi)}:
                along = [s for s in lines if (abs(s[0] - s[2]) < TOL) == vertical and (abs(s[1] - s[3]) < TOL) != vertical
                         and abs((s[0] if vertical else s[1]) - position) < TOL]
                assert along, (paper, "vertical" if vertical else "horizontal", position)
                for x0, y0, x1, y1 in along:  # in the printable area, never over a piece
                    assert min(x0, x1) >= 6 - TOL and max(x0, x1) <= width - 6 + TOL
                    assert min(y0, y1) >= 6 - TOL and max(y0, y1) <= height - 6 + TOL
                    middle = ((x0 + x1) / 2, (y0 + y1) / 2)
                    assert not any(t[0] + TOL < middle[0] < t[2] - TOL and t[1] + TOL < middle[1] < t[3] - TOL
                                   for t in trims)
