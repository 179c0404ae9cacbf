"""faces/sfnt.py reads a font file's style as fontTools does, and refuses a damaged one at the file, in words."""
from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest
from fontTools.ttLib import TTCollection
from fontTools.ttLib import TTFont as ToolsFont

from pnpgen.errors import PnpError
from pnpgen.faces.fonts import BUNDLED_FONTS
from pnpgen.faces.sfnt import read_styles
from test_fonts import make_cff_font, make_variable_font


def style_by_fonttools(font: ToolsFont) -> tuple:
    """(family, weight, italic, CFF outlines, the named instances' weights) as fontTools reads them."""
    names = font["name"]
    weight, italic = font["OS/2"].usWeightClass, bool(font["OS/2"].fsSelection & 1)
    weights = tuple(sorted({round(i.coordinates["wght"]) for i in font["fvar"].instances})) if "fvar" in font else ()
    return names.getDebugName(16) or names.getDebugName(1), weight, italic, "glyf" not in font, weights


def fonts_made(tmp_path: Path) -> list[Path]:
    made = [make_cff_font(tmp_path / "tiny.otf", "Tiny CFF", 700), make_variable_font(tmp_path / "tiny-var.ttf")]
    return sorted(BUNDLED_FONTS.glob("*.ttf")) + made


def test_styles_are_what_fonttools_reads(tmp_path):
    for path in fonts_made(tmp_path):
        style = read_styles(path)[0]
        assert (style.family, style.weight, style.italic, style.cff, style.weights) == \
            style_by_fonttools(ToolsFont(str(path), lazy=True)), path.name


def test_a_collection_gives_each_member(tmp_path):
    members = [ToolsFont(str(path)) for path in fonts_made(tmp_path)[2:]]
    collection = TTCollection()
    collection.fonts = members
    collection.save(str(tmp_path / "both.ttc"))
    styles = read_styles(tmp_path / "both.ttc", collection=True)
    assert [(s.family, s.weight) for s in styles] == [style_by_fonttools(font)[:2] for font in members]


@pytest.mark.parametrize("what, data, expected", [
    ("empty", b"", "the file is empty"),
    ("text", b"not a font\n", "it does not start like a TrueType or OpenType font"),
    ("truncated", b"\0\1\0\0\0\x10", "it ends early"),
    ("too many tables", b"OTTO\xff\xff" + bytes(12), "its directory lists 65535 tables; expected at most 256"),
])
def test_what_is_not_a_font_is_refused_in_words(tmp_path, what, data, expected):
    (tmp_path / "fonts").mkdir()
    path = tmp_path / "fonts" / "Broken.ttf"
    path.write_bytes(data)
    with pytest.raises(PnpError) as caught:
        read_styles(path)
    assert str(caught.value).startswith(f"fonts/Broken.ttf: not a font file I can read ({expected}")


def test_a_damaged_font_is_refused_never_a_traceback(tmp_path):
    """Seeded damage anywhere in small real fonts, a collection header included: a style or a PnpError."""
    rng = random.Random(29)
    sources = [path.read_bytes() for path in fonts_made(tmp_path)[2:]]
    for trial in range(400):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        collection = trial % 5 == 0
        if collection:
            data = b"ttcf\0\1\0\0" + struct.pack(">II", rng.randrange(3), 16) + bytes(data)
        path = tmp_path / ("damaged.ttc" if collection else "damaged.ttf")
        path.write_bytes(bytes(data[:rng.randrange(len(data) + 1)] if trial % 3 == 0 else data))
        try:
            read_styles(path, collection)
        except PnpError as error:
            assert "not a font file I can read (" in str(error)
