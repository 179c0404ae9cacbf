"""TrueType reading: glyph IDs and advances as reportlab measures them, retained-GID subsets fontTools
reads back glyph for glyph, collections, converted CFF fonts, and damaged or hostile files."""
from __future__ import annotations

import random
import struct
from io import BytesIO
from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection
from fontTools.ttLib import TTFont as ToolsFont
from fontTools.ttLib import newTable
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from test_fonts import make_cff_font
from pnpgen.errors import PnpError
from pnpgen.faces.cmap import MAX_CODE_POINTS, map_glyphs, read_cmap
from pnpgen.faces.font_convert import convert_face
from pnpgen.faces.fonts import BUNDLED_FONTS
from pnpgen.faces.truetype import MAX_COMPONENT_DEPTH, TrueTypeFile, open_truetype
from pnpgen.faces.font import Face

SAMPLE = "山札からカードを１枚引く。Hello, World! ｶｰﾄﾞ ＡＢＣ（）「」…・—‐~\u00a0 \t😀𠮷"
BUNDLED = {style: BUNDLED_FONTS / f"NotoSansJP-{style}.ttf" for style in ("Regular", "Bold")}


@pytest.fixture(scope="module")
def regular() -> TrueTypeFile:
    return open_truetype(BUNDLED["Regular"])


def reportlab_face(path: Path) -> TTFont:
    name = f"RefTT-{path.stem}"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return pdfmetrics.getFont(name)


def glyph_bytes(font: ToolsFont, gid: int) -> bytes:
    return font["glyf"][font.getGlyphOrder()[gid]].compile(font["glyf"])


def draw_square():
    pen = TTGlyphPen(None)
    for point in ((100, 0), (100, 700), (500, 700), (500, 0)):
        (pen.lineTo if pen.points else pen.moveTo)(point)
    pen.closePath()
    return pen.glyph()


def make_composite_font(path: Path, depth: int = 2) -> Path:
    """glyph 1 'A' is simple; 2 'B' uses A; 3 'C' uses B ... down to `depth` levels; 'D' (last) is unused."""
    names = [".notdef", "A"] + [f"c{level}" for level in range(1, depth + 1)] + ["D"]
    glyphs = {".notdef": TTGlyphPen(None).glyph(), "A": draw_square(), "D": draw_square()}
    for level in range(1, depth + 1):
        pen = TTGlyphPen(glyphs)
        pen.addComponent(names[level], (1, 0, 0, 1, 10, 0))
        glyphs[f"c{level}"] = pen.glyph()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({0x41: "A", 0x42: "c1", 0x43: names[-2], 0x44: "D"})
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({name: (600 + 10 * i, 100) for i, name in enumerate(names)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Tiny Composite", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(str(path))
    return path


def test_metrics_and_names_are_the_ones_reportlab_reads(regular):
    assert (regular.num_glyphs, regular.units_per_em, regular.postscript_name) == (17936, 1000, "NotoSansJP-Regular")
    face = reportlab_face(BUNDLED["Regular"]).face
    assert (regular.ascent, regular.descent, regular.cap_height) == (face.ascent, face.descent, face.capHeight)
    assert (list(regular.bbox), regular.italic_angle, regular.stem_v, regular.flags) == (face.bbox, 0, face.stemV, 4)


@pytest.mark.parametrize("style", ["Regular", "Bold"])
def test_advances_equal_reportlab_string_widths(style):
    font, reference = open_truetype(BUNDLED[style]), reportlab_face(BUNDLED[style])
    widths, default = reference.face.charWidths, reference.face.defaultWidth
    for char in SAMPLE:
        assert font.advance(font.glyph_id(char)) == widths.get(ord(char), default), char
    assert 0.001 * 9.5 * sum(map(font.advance, font.glyph_ids(SAMPLE))) == reference.stringWidth(SAMPLE, 9.5)
    assert all(font.advance(font.glyph_id(chr(code))) == width for code, width in widths.items())


def test_glyph_ids_follow_the_fonts_best_cmap(regular):
    tools = ToolsFont(str(BUNDLED["Regular"]), lazy=True)
    best, order = tools.getBestCmap(), {name: gid for gid, name in enumerate(tools.getGlyphOrder())}
    expected = {c: order[n] for c, n in best.items() if c != 0xA0}
    assert {code: regular.glyph_id(chr(code)) for code in expected} == expected
    whole = read_cmap(regular.table("cmap"), regular.num_glyphs)
    assert {ord(c): gid for c, gid in whole.items() if c != "\u00a0"} == expected
    assert regular.glyph_ids("A😀𠮷") == [order[best[0x41]], 0, order[best[0x20BB7]]]
    assert regular.glyph_id("\u00a0") == regular.glyph_id(" ")  # reportlab measures a no-break space as a space
    assert regular.cmap is regular.cmap  # built once


def test_a_subset_keeps_used_glyphs_at_their_ids_and_empties_the_rest(regular):
    gids = regular.glyph_ids("山札からカードを１枚引く。Hello")
    subset = regular.subset(gids)
    assert subset == regular.subset(reversed(gids))  # deterministic, order does not matter
    font, original = ToolsFont(BytesIO(subset)), ToolsFont(str(BUNDLED["Regular"]))
    assert len(font.getGlyphOrder()) == font["maxp"].numGlyphs == regular.num_glyphs
    assert sorted(font.keys()) == sorted(["GlyphOrder", "head", "hhea", "maxp", "OS/2", "hmtx", "loca", "glyf",
                                          "post", "name", "prep", "cmap"])
    assert (font["post"].formatType, font["head"].indexToLocFormat, font["hhea"].numberOfHMetrics) == (3.0, 1, 17936)
    kept = {0, *gids}
    names, original_names = font.getGlyphOrder(), original.getGlyphOrder()
    for gid in range(regular.num_glyphs):
        if gid in kept:
            assert glyph_bytes(font, gid) == glyph_bytes(original, gid)
            assert font["hmtx"][names[gid]] == original["hmtx"][original_names[gid]]
        else:
            assert glyph_bytes(font, gid) == b"" and font["hmtx"][names[gid]] == (0, 0)


def test_a_subset_is_a_well_formed_sfnt(regular):
    subset = regular.subset(regular.glyph_ids("カード"))
    count, search, selector, shift = struct.unpack_from(">HHHH", subset, 4)
    assert (search, selector, shift) == (16 * 2 ** selector, selector, 16 * count - search) and 2 ** selector <= count < 2 ** (selector + 1)
    entries = [struct.unpack_from(">4sIII", subset, 12 + 16 * i) for i in range(count)]
    assert [tag for tag, *_ in entries] == sorted(tag for tag, *_ in entries)
    assert all(offset % 4 == 0 for _, _, offset, _ in entries)
    ToolsFont(BytesIO(subset), checkChecksums=2).ensureDecompiled()  # raises on a wrong table checksum
    padded = subset + bytes(-len(subset) % 4)
    assert sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF == 0xB1B0AFBA


def test_composite_glyphs_keep_their_components(tmp_path):
    font = open_truetype(make_composite_font(tmp_path / "Composite.ttf", depth=3))
    assert font.glyph_ids("ABCD") == [1, 2, 4, 5]
    assert font.closure([4]) == [0, 1, 2, 3, 4]
    subset = ToolsFont(BytesIO(font.subset([4])))
    original = ToolsFont(str(tmp_path / "Composite.ttf"))
    assert [glyph_bytes(subset, gid) == glyph_bytes(original, gid) for gid in range(6)] == [True] * 5 + [False]
    assert subset["glyf"][subset.getGlyphOrder()[4]].getComponentNames(subset["glyf"]) == [subset.getGlyphOrder()[3]]
    assert font.advance(4) == 640


def test_a_font_collection_member_is_chosen_by_index(tmp_path):
    collection = TTCollection()
    collection.fonts = [ToolsFont(str(make_composite_font(tmp_path / "A.ttf"))), ToolsFont(str(BUNDLED["Bold"]))]
    collection.save(str(tmp_path / "Both.ttc"))
    assert open_truetype(tmp_path / "Both.ttc", 1).postscript_name == "NotoSansJP-Bold"
    member = open_truetype(tmp_path / "Both.ttc", 0)
    assert member.postscript_name == "TinyComposite-Regular"
    assert ToolsFont(BytesIO(member.subset([2])))["maxp"].numGlyphs == 5
    with pytest.raises(PnpError, match="Both.ttc: the font collection has 2 fonts; there is no font number 2"):
        open_truetype(tmp_path / "Both.ttc", 2)


def test_a_converted_cff_font_subsets(tmp_path):
    otf = make_cff_font(tmp_path / "Tiny.otf")
    with pytest.raises(PnpError, match=r"Tiny.otf: the font has PostScript \(CFF\) outlines; expected TrueType \(glyf\) outlines"):
        open_truetype(otf)
    font = open_truetype(convert_face(Face("Tiny CFF", 400, False, otf, cff=True), tmp_path / "cache"))
    gid = font.glyph_id("A")
    assert gid and font.advance(gid) == 600 and font.postscript_name == "TinyCFF-Regular"
    subset = ToolsFont(BytesIO(font.subset([gid])))
    assert subset["glyf"][subset.getGlyphOrder()[gid]].numberOfContours == 1


def damage(tmp_path: Path, name: str, change) -> Path:
    data = bytearray(make_composite_font(tmp_path / "Good.ttf").read_bytes())
    tables = {tag: (offset, length) for tag, _, offset, length in
              (struct.unpack_from(">4sIII", data, 12 + 16 * i) for i in range(struct.unpack_from(">H", data, 4)[0]))}
    target = tmp_path / name
    target.write_bytes(change(data, tables))
    return target


def backwards_loca(data: bytearray, tables: dict) -> bytes:
    offset, _ = tables[b"loca"]
    long_loca = struct.unpack_from(">h", data, tables[b"head"][0] + 50)[0]
    struct.pack_into(">I" if long_loca else ">H", data, offset + (4 if long_loca else 2) * 2, 0)
    struct.pack_into(">I" if long_loca else ">H", data, offset + (4 if long_loca else 2), 400)
    return bytes(data)


@pytest.mark.parametrize("name, change, message", [
    ("Cut.ttf", lambda data, tables: bytes(data[:len(data) // 2]), "runs past the end of the file"),
    ("Tiny.ttf", lambda data, tables: bytes(data[:8]), "it ends early"),
    ("Text.ttf", lambda data, tables: b"this is not a font, it is a text file\n" * 3, "does not start like a TrueType font"),
    ("Loca.ttf", backwards_loca, "table 'loca' goes backwards"),
    ("Offset.ttf", lambda data, tables: bytes(data[:12 + 8]) + struct.pack(">I", 0xFFFFFF00) + bytes(data[24:]),
     "runs past the end of the file"),
])
def test_damaged_fonts_are_refused_naming_the_file(tmp_path, name, change, message):
    with pytest.raises(PnpError) as caught:
        open_truetype(damage(tmp_path, name, change))
    assert f"{name}: the font is damaged:" in str(caught.value) and message in str(caught.value)


def test_composites_nested_too_deep_are_refused_and_cycles_end(tmp_path):
    deep = open_truetype(make_composite_font(tmp_path / "Deep.ttf", depth=MAX_COMPONENT_DEPTH + 2))
    with pytest.raises(PnpError, match=f"Deep.ttf: the font is damaged: composite glyphs nest more than {MAX_COMPONENT_DEPTH} deep"):
        deep.subset([deep.num_glyphs - 2])
    data = bytearray(make_composite_font(tmp_path / "Loop.ttf", depth=2).read_bytes())
    tools = ToolsFont(str(tmp_path / "Loop.ttf"))
    at = data.index(glyph_bytes(tools, 2))  # glyph 2 uses glyph 1: make it use glyph 3, which uses glyph 2
    struct.pack_into(">H", data, at + 12, 3)
    loop = TrueTypeFile(bytes(data), 0, "Loop.ttf")
    assert loop.closure([3]) == [0, 2, 3]


def test_hostile_cmaps_are_read_with_bounded_work():
    groups = 2000
    table = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + struct.pack(">HHIII", 12, 0, 16 + 12 * groups, 0, groups)
    table += struct.pack(">III", 0, 0x10FFFF, 1) * groups  # every group maps all of Unicode
    mapping = read_cmap(table, 65535)
    assert len(mapping) == 65534 and max(map(ord, mapping)) < MAX_CODE_POINTS
    segments = 3000
    overlapping = struct.pack(">HHHHHHH", 4, 0, 0, 2 * segments, 0, 0, 0) + struct.pack(f">{segments}H", *[0xFFFE] * segments)
    overlapping += b"\0\0" + struct.pack(f">{3 * segments}H", *[0] * segments, *[1] * segments, *[0] * segments)
    mapping = read_cmap(struct.pack(">HHHHI", 0, 1, 3, 1, 12) + overlapping, 65535)
    assert len(mapping) == 0xFFFE and mapping["A"] == 0x42


def test_garbled_fonts_give_a_located_error_or_a_font_never_a_crash(tmp_path):
    good = make_composite_font(tmp_path / "Good.ttf").read_bytes()
    chances = random.Random(13)
    for attempt in range(300):
        data = bytearray(good)
        for _ in range(chances.randint(1, 8)):
            data[chances.randrange(len(data))] = chances.randrange(256)
        data = data[:chances.randrange(len(data))] if attempt % 3 == 0 else data
        try:
            font = TrueTypeFile(bytes(data), 0, "Garbled.ttf")
            gids = [gid for gid in font.glyph_ids("ABCD\u00a0") if gid < font.num_glyphs]
            font.subset(gids)
            assert font.postscript_name and font.advance(gids[0]) >= 0
        except PnpError as error:
            assert str(error).startswith("Garbled.ttf: the font is damaged: ")


@pytest.mark.parametrize("style", sorted(BUNDLED))
def test_a_format_12_cmap_looked_up_a_character_at_a_time_maps_as_read_whole(style):
    font = open_truetype(BUNDLED[style])
    table = font.table("cmap")
    glyphs, whole = map_glyphs(table, font.num_glyphs), read_cmap(table, font.num_glyphs)
    assert glyphs.groups is not None and len(glyphs) == 0  # nothing read until asked
    around = {code + step for code in map(ord, whole) for step in (-1, 0, 1)} | set(range(0, 0x110000, 97))
    codes = sorted(code for code in around if 0 <= code < 0x110000 and not 0xD800 <= code < 0xE000)
    assert [glyphs[chr(code)] for code in codes] == [whole.get(chr(code), 0) for code in codes]
    assert glyphs[" "] == glyphs["\u00a0"] == whole[" "] and glyphs["\U0010FFFF"] == 0
    assert len(glyphs) <= len(whole)  # a character the font lacks, asked or not, is kept nowhere


def test_a_format_12_cmap_out_of_order_or_beyond_the_glyphs_is_read_whole():
    def cmap_of(*groups):
        body = b"".join(struct.pack(">III", *group) for group in groups)
        return struct.pack(">HHHHI", 0, 1, 3, 10, 12) + struct.pack(">HHIII", 12, 0, 16 + len(body), 0, len(groups)) + body
    for groups in ([(0x42, 0x42, 5), (0x41, 0x41, 6)], [(0x41, 0x45, 1), (0x43, 0x43, 9)], [(0x41, 0x4A, 95)]):
        glyphs, whole = map_glyphs(cmap_of(*groups), 100), read_cmap(cmap_of(*groups), 100)
        assert glyphs.groups is None and dict(glyphs) == whole and glyphs["Z"] == 0
    assert map_glyphs(cmap_of((0x41, 0x4A, 90)), 100).groups is not None


@pytest.mark.parametrize("form, codes", [(0, range(0x21, 0x100, 3)), (4, [*range(0x41, 0x5B), *range(0x3041, 0x3097, 2), 0xFF01]),
                                         (6, range(0x30A0, 0x3100)), (12, [0x41, 0x42, 0x3042, 0x20BB7, 0x29E3D])])
def test_each_cmap_format_reads_like_fonttools(form, codes):
    chances = random.Random(form)
    subtable = CmapSubtable.newSubtable(form)
    subtable.platformID, subtable.platEncID, subtable.language = (3, 10 if form == 12 else 1, 0)
    subtable.cmap = {code: f"g{chances.randrange(1, 250 if form == 0 else 900)}" for code in codes}
    table = newTable("cmap")
    table.tableVersion, table.tables = 0, [subtable]
    order = [".notdef"] + [f"g{gid}" for gid in range(1, 1000)]
    font = ToolsFont()
    font.setGlyphOrder(order)
    mapping = read_cmap(table.compile(font), len(order))
    assert mapping == {chr(code): int(name[1:]) for code, name in subtable.cmap.items()}


def test_a_subset_maps_the_characters_it_shows_to_their_glyphs_in_a_cmap():
    """TrueType requires a cmap, and strict font parsers refuse a font without one: the subset maps the
    characters the PDF shows (a PDF itself addresses the glyphs by ID) — the BMP in format 4, the rest in 12."""
    font = open_truetype(BUNDLED["Regular"])
    text = "カードを1枚引く。ABC ｱ𠮷"
    chars = {ord(c): font.glyph_id(c) for c in text}
    read = ToolsFont(BytesIO(font.subset(chars.values(), chars)))
    assert {code: read.getGlyphID(name) for code, name in read.getBestCmap().items()} == chars
    formats = {(t.platformID, t.platEncID): t.format for t in read["cmap"].tables}
    assert formats == {(3, 1): 4, (3, 10): 12}
    bmp = {code: gid for code, gid in chars.items() if code <= 0xFFFF}
    assert {code: read.getGlyphID(name) for code, name in read["cmap"].getcmap(3, 1).cmap.items()} == bmp
    assert open_truetype(BUNDLED["Regular"]).subset([5]) and "cmap" in ToolsFont(BytesIO(font.subset([5])))
