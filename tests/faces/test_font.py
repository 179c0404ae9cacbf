"""The font model: a Font measures as reportlab does to the bit, answers glyph IDs from its own file (a collection's
member, a CFF or variable face's converted copy) and is embedded as a subset whose text can be extracted."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from fontTools.ttLib import TTCollection, TTFont as ToolsFont
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from test_fonts import make_cff_font, make_variable_font
from pnpgen.faces.font import font_named, register_font, reportlab_name
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.press.impose import Page, Rect
from pnpgen.press.write_pdf import write_pdf
from pnpgen.project.model import Size
from pnpgen.units import mm

SAMPLE = "山札からカードを１枚引く。Hello, World! ｶｰﾄﾞ ＡＢＣ（）「」…・—‐~\u00a0 \t😀𠮷"


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook([BUNDLED_FONTS])


def labelled_pdf(path: Path, font: str, label: str) -> PdfReader:
    """A page whose only text is its label, which the writer shows in font."""
    size = Size(mm(100), mm(50))
    whole = Rect(0, 0, size.width, size.height)
    write_pdf([Page(size, "front", (), (), whole, whole, label)], {}, path, title="t", initial_font=font, bleed=0)
    return PdfReader(str(path))


def embedded(reader: PdfReader) -> dict[str, dict]:
    """The page's fonts by base font name, each the descendant CIDFont."""
    fonts = reader.pages[0]["/Resources"]["/Font"]
    found = (value.get_object() for value in fonts.values())
    return {str(font["/BaseFont"]): font["/DescendantFonts"][0].get_object() for font in found}


@pytest.mark.parametrize("weight", ["normal", "bold"])
def test_a_font_measures_every_character_as_reportlab_does(book, weight):
    font = font_named(book.resolve(None, weight))
    assert font is book.register(book.find_face(None, weight))
    face = pdfmetrics.getFont(reportlab_name(font.name)).face
    assert (font.ascent, font.descent) == (face.ascent, face.descent) == (880, -120)
    for char in [*font.file.cmap, "\U000f0000", "\u0378"]:  # and two characters the font lacks
        assert font.width(char, 1) == pdfmetrics.stringWidth(char, font.name, 1), char
    assert font.width(SAMPLE, 9.5) == pdfmetrics.stringWidth(SAMPLE, font.name, 9.5)


def test_a_fonts_file_is_read_once_per_version(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "OnceCFF.otf", family="Once CFF")

    def read():
        book = FontBook([fonts], cache_dir=tmp_path / "cache")
        return book.register(book.find_face("Once CFF"))

    first = read()
    assert read() is first  # another book, the same file version: not read again
    os.utime(fonts / "OnceCFF.otf", ns=(1, 1))
    assert read() is not first


def test_a_collection_member_is_its_own_font(tmp_path):
    collection = TTCollection()
    collection.fonts = [ToolsFont(str(BUNDLED_FONTS / f"NotoSansJP-{style}.ttf"), lazy=True)
                        for style in ("Regular", "Bold")]
    collection.save(str(tmp_path / "Both.ttc"))
    first, second = (register_font(f"FontTestMember{i}", tmp_path / "Both.ttc", i) for i in (0, 1))
    assert (first.file.postscript_name, second.file.postscript_name) == ("NotoSansJP-Regular", "NotoSansJP-Bold")
    assert first.digest != second.digest
    bold = register_font("FontTestBold", BUNDLED_FONTS / "NotoSansJP-Bold.ttf")
    assert second.width(SAMPLE, 10) == bold.width(SAMPLE, 10) != first.width(SAMPLE, 10)
    assert second.file.glyph_ids(SAMPLE) == bold.file.glyph_ids(SAMPLE)


def test_cff_and_variable_faces_are_read_from_their_converted_copies(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "ModelCFF.otf", family="Model CFF")  # families of their own: a name is one file
    make_variable_font(fonts / "ModelVar.ttf", family="Model Var")
    book = FontBook([fonts], cache_dir=tmp_path / "cache", default_family="Model CFF")
    cff, light, bold = (font_named(book.resolve(family, weight)) for family, weight in
                        (("Model CFF", 400), ("Model Var", 400), ("Model Var", 700)))
    assert cff.file.glyph_ids("A A") == [2, 1, 2] and cff.width("A A", 10) == 0.001 * 10 * (600 + 250 + 600)
    assert (cff.ascent, cff.descent) == (800, -200)
    assert {light.file.postscript_name, bold.file.postscript_name} == {"ModelVar-Regular", "ModelVar-Bold"}
    assert light.digest != bold.digest
    for font in (cff, light, bold):
        assert font.width("A", 10) == pdfmetrics.stringWidth("A", reportlab_name(font.name), 10) == 6


def test_text_in_a_font_is_embedded_as_a_subset_that_reads_back(book, tmp_path):
    reader = labelled_pdf(tmp_path / "label.pdf", book.resolve(None, "bold"), "札を引く Deck 1/9")
    (base_font, cid_font), = embedded(reader).items()
    assert base_font[1:7].isupper() and base_font[7:] == "+NotoSansJP-Bold"
    subset = ToolsFont(io.BytesIO(cid_font["/FontDescriptor"]["/FontFile2"].get_data()))
    assert subset["maxp"].numGlyphs == 17936  # glyph IDs kept: the content shows the font's own IDs
    assert "札を引く Deck 1/9" in reader.pages[0].extract_text()


def test_a_converted_font_is_embedded_and_reads_back(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "EmbedCFF.otf", family="Embed CFF")
    name = FontBook([fonts], cache_dir=tmp_path / "cache", default_family="Embed CFF").resolve(None)
    reader = labelled_pdf(tmp_path / "label.pdf", name, "A A")
    (base_font, cid_font), = embedded(reader).items()
    assert base_font.endswith("+EmbedCFF-Regular") and "/FontFile2" in cid_font["/FontDescriptor"]
    assert "A A" in reader.pages[0].extract_text()
