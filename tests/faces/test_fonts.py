"""FontBook: discovery, resolution, the painter's families, CFF and variable font conversion, errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from pdfprobe import strings
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont as ToolsFont
from fontTools.ttLib.tables.TupleVariation import TupleVariation
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnpgen.errors import PnpError
from pnpgen.faces.convert import Converter
from pnpgen.faces.font import reportlab_name
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook, parse_weight

BUNDLED = BUNDLED_FONTS


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook([BUNDLED])


def draw_a(pen) -> None:
    pen.moveTo((100, 0))
    pen.lineTo((500, 0))
    pen.curveTo((500, 300), (400, 700), (300, 700))
    pen.curveTo((200, 700), (100, 300), (100, 0))
    pen.closePath()


def finish(fb: FontBuilder, family: str, weight: int, path: Path) -> Path:
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200,
                usWeightClass=weight, fsType=0)
    fb.setupPost()
    fb.save(str(path))
    return path


def make_cff_font(path: Path, family: str = "Tiny CFF", weight: int = 400) -> Path:
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef", "space", "A"])
    fb.setupCharacterMap({32: "space", 65: "A"})
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    pen = T2CharStringPen(600, None)
    draw_a(pen)
    empty = {name: T2CharStringPen(width, None).getCharString() for name, width in ((".notdef", 500), ("space", 250))}
    fb.setupCFF(family.replace(" ", "") + "-Regular", {"FullName": family}, {**empty, "A": pen.getCharString()}, {})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "space": (250, 0), "A": (600, 100)})
    return finish(fb, family, weight, path)


def make_variable_font(path: Path, family: str = "Tiny Var") -> Path:
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "space", "A"])
    fb.setupCharacterMap({32: "space", 65: "A"})
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    pen = TTGlyphPen(None)
    for point in ((100, 0), (100, 700), (500, 700), (500, 0)):
        (pen.lineTo if pen.points else pen.moveTo)(point)
    pen.closePath()
    fb.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "space": TTGlyphPen(None).glyph(), "A": pen.glyph()})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "space": (250, 0), "A": (600, 100)})
    fb.setupFvar([("wght", 100, 400, 900, "Weight")],
                 [{"location": {"wght": 400}, "stylename": "Regular"}, {"location": {"wght": 700}, "stylename": "Bold"}])
    # At wght 900 the stem widens by 50 units on each side (plus 4 phantom points).
    deltas = [(-50, 0), (-50, 0), (50, 0), (50, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
    fb.setupGvar({"A": [TupleVariation({"wght": (0, 1.0, 1.0)}, deltas)]})
    return finish(fb, family, 400, path)


def embedded_fonts(pdf: Path) -> dict[str, dict]:
    page = PdfReader(str(pdf)).pages[0]
    fonts = page["/Resources"]["/Font"]
    found = (f.get_object() for f in fonts.values())
    return {str(f["/BaseFont"]): f for f in found if f["/Subtype"] != "/Type1"}  # skip the canvas' Helvetica


def draw_pdf(tmp_path: Path, font_name: str, text: str = "A A") -> Path:
    target = tmp_path / "out.pdf"
    canvas = Canvas(str(target))
    canvas.setFont(reportlab_name(font_name), 12)
    canvas.drawString(72, 72, text)
    canvas.save()
    return target


def test_resolves_regular_bold_and_numeric_weights(book):
    assert book.resolve("Noto Sans JP") == "NotoSansJP-Regular"
    assert book.resolve("Noto Sans JP", "bold") == "NotoSansJP-Bold"
    assert book.resolve("noto sans jp", "bolder") == "NotoSansJP-Bold"
    assert book.resolve("Noto Sans JP", 700) == "NotoSansJP-Bold"
    assert book.resolve("Noto Sans JP", "600") == "NotoSansJP-Bold"
    assert book.resolve("Noto Sans JP", 500) == "NotoSansJP-Regular"
    assert book.resolve("Noto Sans JP", 100) == "NotoSansJP-Regular"
    assert book.resolve("Noto Sans JP", 900) == "NotoSansJP-Bold"
    assert book.resolve("Noto Sans JP", style="italic") == "NotoSansJP-Regular"  # no italic: upright
    assert book.families() == {"Noto Sans JP": [400, 700]}


def test_generic_families_and_lists_map_to_the_default(book):
    assert book.resolve(None) == "NotoSansJP-Regular"
    assert book.resolve("sans-serif", "bold") == "NotoSansJP-Bold"
    for generic in ("serif", "monospace", "system-ui"):
        assert book.resolve(generic) == "NotoSansJP-Regular"
    assert book.resolve("Arial, 'Noto Sans JP', serif", "bold") == "NotoSansJP-Bold"
    assert book.resolve('"Helvetica Neue", sans-serif') == "NotoSansJP-Regular"


def test_unknown_family_and_weight_are_errors(book):
    with pytest.raises(PnpError, match=r"unknown font family 'Comic Sans': expected one of Noto Sans JP"):
        book.resolve("Comic Sans")
    with pytest.raises(PnpError, match="font-weight 'heavy' is not a weight"):
        book.resolve(None, "heavy")
    assert parse_weight("normal") == 400 and parse_weight(" 300 ") == 300


def test_a_face_found_once_is_found_alike_and_errors_are_said_every_time():
    book = FontBook([BUNDLED])
    asked = [("Noto Sans JP", "bold", "normal"), ("Noto Sans JP", 700, "normal"), (None, "normal", "italic"),
             ("sans-serif", 600.0, "normal")]
    first = [book.find_face(*args) for args in asked]
    assert [book.find_face(*args) for args in asked] == first == [book.pick_face(*args) for args in asked]
    for _ in range(2):  # a weight 1 found once is no answer for True, which equals it
        assert book.find_face(None, 1).weight == 400
        with pytest.raises(PnpError, match="font-weight 'True' is not a weight"):
            book.find_face(None, True)
        with pytest.raises(PnpError, match=r"font-weight '\[700\]' is not a weight"):
            book.find_face(None, [700])  # unhashable: picked each time, and refused
        with pytest.raises(PnpError, match="unknown font family 'Comic Sans'"):
            book.find_face("Comic Sans")


def test_missing_default_family_is_reported(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "Tiny.otf")
    with pytest.raises(PnpError, match="default font family 'Noto Sans JP' is not among the fonts found"):
        FontBook([fonts]).resolve("sans-serif")


def test_the_painter_resolves_families_through_the_book(book, tmp_path):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20">'
           '<text x="1" y="10" font-family="sans-serif" font-weight="bold">Bold</text>'
           '<text x="1" y="20" font-family="Noto Sans JP" font-weight="400">日本</text>'
           '<text x="1" y="30">no family</text>'
           '<text x="1" y="40" font-family="Arial">unknown</text></svg>')
    names = [s.font for s in strings(Converter(book, tmp_path).face_form("k", svg, "x.svg.j2"))]
    assert names == ["NotoSansJP-Bold", "NotoSansJP-Regular", "NotoSansJP-Regular", "NotoSansJP-Regular"]



def test_cff_font_is_converted_embedded_and_subset(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "TinyCFF.otf")
    cache = tmp_path / "cache"
    book = FontBook([BUNDLED, fonts], cache_dir=cache)
    assert book.families()["Tiny CFF"] == [400]
    name = book.resolve("Tiny CFF")
    assert name == "TinyCFF-Regular"
    converted = list(cache.glob("*.ttf"))
    assert len(converted) == 1 and not list(cache.glob(".tmp-*"))
    assert "glyf" in ToolsFont(str(converted[0])) and "CFF " not in ToolsFont(str(converted[0]))
    (base_font, font), = embedded_fonts(draw_pdf(tmp_path, name)).items()
    assert base_font[1:7].isupper() and base_font[7] == "+"  # "/ABCDEF+..." means subset
    assert "/FontFile2" in font["/FontDescriptor"]


def test_registration_is_shared_between_books(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "Again.otf", family="Again CFF")
    first = FontBook([fonts], cache_dir=tmp_path / "cache", default_family="Again CFF").resolve(None)
    second = FontBook([fonts], cache_dir=tmp_path / "cache", default_family="Again CFF").resolve(None)
    assert first == second == "AgainCFF-Regular"


def test_variable_font_is_instanced_per_weight(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_variable_font(fonts / "TinyVar.ttf")
    cache = tmp_path / "cache"
    book = FontBook([fonts], cache_dir=cache, default_family="Tiny Var")
    assert book.families() == {"Tiny Var": [400, 700]}
    regular, bold = book.resolve(None), book.resolve(None, "bold")
    assert (regular, bold) == ("TinyVar-Regular", "TinyVar-Bold")
    widths = {}
    for path in cache.glob("*.ttf"):
        font = ToolsFont(str(path))
        assert "fvar" not in font and "gvar" not in font
        glyph = font["glyf"]["A"]
        widths[font["OS/2"].usWeightClass] = glyph.xMax - glyph.xMin
    assert widths[700] > widths[400]
    (base_font, _), = embedded_fonts(draw_pdf(tmp_path, bold)).items()
    assert base_font.endswith("+TinyVar-Bold")


def test_broken_font_names_the_file(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "Broken.otf").write_bytes(b"this is not a font at all")
    (fonts / "notes.txt").write_text("ignored")
    with pytest.raises(PnpError) as caught:
        FontBook([BUNDLED, fonts])
    assert str(caught.value).startswith("fonts/Broken.otf: not a font file I can read (")
