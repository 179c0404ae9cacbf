"""CID font objects: a hand-made PDF with them shows, extracts and renders its text like reportlab's."""
from __future__ import annotations

import re
import zlib
from io import BytesIO
from pathlib import Path

import pypdfium2
import pytest
from fontTools.ttLib import TTFont as ToolsFont
from PIL import ImageChops
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnpgen.faces.fonts import BUNDLED_FONTS
from pnpgen.faces.truetype import open_truetype
from pnpgen.press.cid_fonts import cid_font_objects, subset_tag, write_number, write_to_unicode, write_widths

REGULAR = BUNDLED_FONTS / "NotoSansJP-Regular.ttf"
TEXT = "カードを1枚引く。Draw a card! ｱｲｳ（𠮷）"  # kana, kanji, Latin, half- and full-width, outside the BMP


@pytest.fixture(scope="module")
def font():
    return open_truetype(REGULAR)


def write_pdf(path: Path, font, text: str) -> list[tuple[int, bytes]]:
    """A one-page PDF (Letter) that shows text at 24 pt from (72, 700) in the font, written by hand."""
    gids = font.glyph_ids(text)
    used = {gid: char if gid else "" for gid, char in zip(gids, text)}
    numbers = iter(range(6, 100))
    fonts = cid_font_objects(font, used, 5, lambda: next(numbers))
    content = f"BT /F0 24 Tf 72 700 Td <{''.join(f'{gid:04X}' for gid in gids)}> Tj ET".encode()
    objects = [(1, b"<< /Type /Catalog /Pages 2 0 R >>"), (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
               (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F0 5 0 R >> >> "
                   b"/Contents 4 0 R >>"),
               (4, b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")] + fonts
    out, offsets = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), {}
    for number, body in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offsets[n] for n in range(1, len(objects) + 1))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return fonts


def draw_reference(path: Path, text: str) -> None:
    if "RefCID" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("RefCID", str(REGULAR)))
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("RefCID", 24)
    canvas.drawString(72, 700, text)
    canvas.save()


def render(path: Path):
    document = pypdfium2.PdfDocument(str(path))
    return document[0].render(scale=2).to_pil().convert("L")


def test_the_text_extracts_exactly_and_the_font_is_an_embedded_subset(tmp_path, font):
    fonts = write_pdf(tmp_path / "cid.pdf", font, TEXT)
    document = pypdfium2.PdfDocument(str(tmp_path / "cid.pdf"))
    assert document[0].get_textpage().get_text_range() == TEXT
    type0 = PdfReader(str(tmp_path / "cid.pdf")).pages[0]["/Resources"]["/Font"]["/F0"].get_object()
    assert re.fullmatch(r"/[A-Z]{6}\+NotoSansJP-Regular", type0["/BaseFont"])
    assert type0["/Encoding"] == "/Identity-H"
    cid = type0["/DescendantFonts"][0].get_object()
    assert (cid["/Subtype"], cid["/CIDToGIDMap"], cid["/DW"]) == ("/CIDFontType2", "/Identity", 1000)
    assert cid["/BaseFont"] == type0["/BaseFont"] == cid["/FontDescriptor"]["/FontName"]
    embedded = cid["/FontDescriptor"]["/FontFile2"].get_object()
    subset = embedded.get_data()
    shown = font.glyph_ids(TEXT)
    assert embedded["/Length1"] == len(subset) and subset == font.subset(shown, dict(zip(map(ord, reversed(TEXT)),
                                                                                       reversed(shown))))
    assert len(subset) < REGULAR.stat().st_size // 10
    assert [n for n, _ in fonts] == [5, 6, 7, 8, 9]  # the Type0 font's number, then the reserved ones in order


def test_the_widths_array_gives_every_glyph_its_advance(tmp_path, font):
    write_pdf(tmp_path / "cid.pdf", font, TEXT)
    cid = PdfReader(str(tmp_path / "cid.pdf")).pages[0]["/Resources"]["/Font"]["/F0"]["/DescendantFonts"][0].get_object()
    widths, items, at = {}, list(cid["/W"]), 0
    while at < len(items):
        if isinstance(items[at + 1], list):
            widths.update((items[at] + i, float(w)) for i, w in enumerate(items[at + 1]))
            at += 2
        else:
            widths.update((gid, float(items[at + 2])) for gid in range(items[at], items[at + 1] + 1))
            at += 3
    for gid in set(font.glyph_ids(TEXT)):
        assert widths.get(gid, 1000) == font.advance(gid)
    assert 1000 not in widths.values()


def test_ranges_of_equal_widths_are_compact_and_numbers_have_no_exponent(font):
    class Widths:
        def advance(self, gid):
            return {1: 500, 2: 500, 3: 500, 4: 250.5, 5: 1000, 7: 1e-7, 8: 1 / 3}[gid]
    assert write_widths(Widths(), [1, 2, 3, 4, 5, 7, 8]) == "1 3 500 4 [250.5] 7 [0 0.333]"
    assert write_number(1000.0) == "1000" and write_number(-0.0001) == "0" and write_number(12345678.25) == "12345678.25"


def test_the_page_renders_like_reportlab_drawing_the_same_string(tmp_path, font):
    write_pdf(tmp_path / "cid.pdf", font, TEXT)
    draw_reference(tmp_path / "reference.pdf", TEXT)
    ours, theirs = render(tmp_path / "cid.pdf"), render(tmp_path / "reference.pdf")
    ink = ours.crop((144, 1584 - 1400 - 40, 1100, 1584 - 1400 + 60))  # around the baseline at y = 700 pt
    assert ink.getextrema()[0] < 64  # dark glyph pixels where the text goes
    assert ImageChops.invert(ours).getbbox() == ImageChops.invert(theirs).getbbox()
    difference = ImageChops.difference(ours, theirs)
    assert sum(difference.histogram()[32:]) < 0.001 * ours.width * ours.height


def test_to_unicode_sections_hold_at_most_100_entries_and_write_surrogate_pairs():
    used = {gid: chr(0x4E00 + 2 * gid) for gid in range(1, 251)}  # no two neighbours consecutive: bfchar
    used.update({300 + i: chr(0x3041 + i) for i in range(20)})  # consecutive: one bfrange
    used.update({0: "", 400: "😀", 401: "ffi"})
    cmap = write_to_unicode(used)
    assert re.findall(r"(\d+) beginbfchar", cmap) == ["100", "100", "52"]
    assert "1 beginbfrange\n<012C> <013F> <3041>\nendbfrange" in cmap
    assert "<0190> <D83DDE00>" in cmap and "<0191> <006600660069>" in cmap and "<0000>" not in cmap.split("endcodespacerange")[1]


def test_a_bfrange_never_crosses_a_change_of_high_byte():
    cmap = write_to_unicode({0xFE + i: chr(0x41 + i) for i in range(4)} | {0x500 + i: chr(0x30FE + i) for i in range(4)})
    assert "<00FE> <00FF> <0041>" in cmap and "<0100> <0101> <0043>" in cmap
    assert "<0500> <0501> <30FE>" in cmap and "<0502> <0503> <3100>" in cmap


def test_the_subset_tag_depends_on_the_glyphs_only_and_the_objects_are_deterministic(font):
    numbers = iter(range(2, 100))
    first = cid_font_objects(font, {36: "A", 37: "B"}, 1, lambda: next(numbers))
    numbers = iter(range(2, 100))
    assert cid_font_objects(font, {37: "B", 36: "A"}, 1, lambda: next(numbers)) == first
    assert subset_tag(font, [36, 37]) != subset_tag(font, [36, 38])
    assert re.fullmatch(r"[A-Z]{6}", subset_tag(font, []))


def test_streams_are_flate_compressed_with_their_lengths(font):
    numbers = iter(range(2, 100))
    objects = dict(cid_font_objects(font, {36: "A"}, 1, lambda: next(numbers)))
    for number in (4, 5):
        head, rest = objects[number].split(b"\nstream\n")
        data = rest.removesuffix(b"\nendstream")
        assert f"/Length {len(data)} /Filter /FlateDecode >>".encode() in head
        zlib.decompress(data)
    subset = zlib.decompress(objects[4].split(b"\nstream\n")[1].removesuffix(b"\nendstream"))
    assert f"/Length1 {len(subset)} ".encode() in objects[4]
    assert ToolsFont(BytesIO(subset))["maxp"].numGlyphs == font.num_glyphs
