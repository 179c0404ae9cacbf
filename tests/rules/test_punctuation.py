"""The half-width punctuation font read back: every mark's outline from the face, half an em wide, opening marks
moved left; the same font whether the glyphs are read straight from the face or through the subsetter."""
from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont as ToolsFont

from pnpgen.faces.fonts import BUNDLED_FONTS
from pnpgen.faces.font import register_font
from pnpgen.rules import punctuation
from pnpgen.rules.punctuation import CLOSING, OPENING, make_half_font


@pytest.fixture(scope="module", params=["Regular", "Bold"])
def face(request):
    path = BUNDLED_FONTS / f"NotoSansJP-{request.param}.ttf"
    return register_font(f"HalfTest{request.param}", path)


def outlines(data: bytes) -> dict[str, tuple]:
    """Each mark's contours, flags and horizontal metrics, by character."""
    font = ToolsFont(io.BytesIO(data))
    cmap, glyf, hmtx = font.getBestCmap(), font["glyf"], font["hmtx"]
    return {char: (list(glyf[cmap[ord(char)]].coordinates), list(glyf[cmap[ord(char)]].endPtsOfContours),
                   hmtx[cmap[ord(char)]]) for char in CLOSING + OPENING}


@pytest.mark.parametrize("composite", [False, True])
def test_every_mark_keeps_its_outline_at_half_an_em(face, monkeypatch, composite):
    if composite:  # a face whose 」 were made of other glyphs goes through the subsetter
        read = punctuation.read_glyph
        monkeypatch.setattr(punctuation, "read_glyph",
                            lambda file, gid: None if gid == face.file.glyph_id("」") else read(file, gid))
    half = make_half_font(face)
    assert half == make_half_font(face)  # the same bytes every time
    original, made = outlines(bytes(face.file.data)), outlines(half)
    font = ToolsFont(io.BytesIO(half))
    assert font.getGlyphOrder()[0] == ".notdef" and len(font.getGlyphOrder()) == len(CLOSING + OPENING) + 1
    assert "GSUB" not in font and "GPOS" not in font
    for char in CLOSING + OPENING:
        points, ends, (advance, lsb) = original[char]
        made_points, made_ends, (made_advance, made_lsb) = made[char]
        assert made_advance == advance // 2 and made_ends == ends
        shift = -(advance - advance // 2) if char in OPENING else 0
        assert made_points == [(x + shift, y) for x, y in points], char
        assert made_lsb == (lsb + shift if char in OPENING else lsb)
