"""Turn runs of full-width punctuation into tightened pairs (約物の詰め): a half-width bracket font and markup using it.

Japanese brackets and stops are drawn in one half of a full-width square; two in a row (」（ 。」
）、 （「) leave a whole blank em between them. Following JIS X 4051, one of the two is set
half-width: a closing mark followed by any bracket or stop loses its right half, an opening
bracket after another opening bracket loses its left half. reportlab applies no OpenType
features (halt), so the half-width forms come from a small derived font holding only these
glyphs, made once from the text face with fontTools and cached.
"""
from __future__ import annotations

import hashlib
import io
import re
import struct
from pathlib import Path

from fontTools.ttLib import TTFont as ToolsFont, newTable
from fontTools.ttLib.tables._c_m_a_p import cmap_format_4
from fontTools.ttLib.tables._g_l_y_f import Glyph
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont

from ..faces.font_convert import find_derived, process_cache_dir, store_derived
from ..faces.fonts import FontBook

CLOSING = "、。，．）」』】〕〉》］｝〙〗"
OPENING = "（「『【〔〈《［｛〘〖"
_VERSION = b"pnpgen-half-punctuation-4"
KEPT = ("head", "hhea", "maxp", "OS/2", "name", "post", "gasp")  # and the glyphs, metrics and map made anew
_TOKEN = re.compile(r"<[^>]*>|&[^;\s]+;|.", re.S)
_registered: dict[str, str] = {}  # face font name -> half font name


def half_font(fontbook: FontBook, weight: str) -> str:
    """The reportlab name of the half-width punctuation font derived from the default face of `weight`."""
    face = fontbook.find_face(None, weight)
    base = fontbook.register(face)
    if base in _registered:
        return _registered[base]
    read = pdfmetrics.getFont(base).face  # what reportlab read: a converted copy of a CFF or variable face
    data = Path(read.filename).read_bytes()
    index = face.index if Path(read.filename) == face.path else 0
    key = "half-" + hashlib.sha256(_VERSION + bytes([index % 256]) + data).hexdigest()[:16]
    folder = fontbook.cache_dir or process_cache_dir()
    path = find_derived(folder, key) or store_derived(folder, key, make_half_font(data, read.charToGlyph, index))
    name = f"{base}-HalfPunct"
    pdfmetrics.registerFont(TTFont(name, str(path)))
    _registered[base] = name
    return name


def make_half_font(data: bytes, glyphs: dict[int, int], index: int = 0) -> bytes:
    """Keep only the brackets and stops, each with a half-em advance (opening ones moved left).

    glyphs: the face's character -> glyph id map, as reportlab read it. A CJK face holds some 17,000 glyphs;
    reading all of them, or its map, names and layout tables, is most of the work of subsetting it: the few
    kept are read straight from its glyf table instead (composite ones, which name others, by the subsetter)."""
    font = ToolsFont(io.BytesIO(data), recalcTimestamp=False, lazy=True, fontNumber=index)  # same bytes everywhere
    ids = {ord(c): glyphs[ord(c)] for c in CLOSING + OPENING if glyphs.get(ord(c))}
    names = {gid: f"glyph{gid:05d}" for gid in [0, *sorted(set(ids.values()))]}
    outlines = {names[gid]: read_glyph(font, gid) for gid in names}
    if None in outlines.values():
        subset_glyphs(font, ids)
    else:
        for tag in [tag for tag in font.reader.keys() if tag not in KEPT]:
            del font[tag]
        outlines = {".notdef" if name == names[0] else name: outline for name, outline in outlines.items()}
        font.setGlyphOrder(list(outlines))  # .notdef first
        font["glyf"], font["hmtx"], font["loca"] = glyf, hmtx, _ = newTable("glyf"), newTable("hmtx"), newTable("loca")
        glyf.glyphOrder, glyf.glyphs = font.getGlyphOrder(), {name: Glyph(raw) for name, (raw, _) in outlines.items()}
        hmtx.metrics = {name: metrics for name, (_, metrics) in outlines.items()}
        font["cmap"], font["post"].formatType = small_cmap({code: names[gid] for code, gid in ids.items()}), 3.0
        font["OS/2"].recalcUnicodeRanges(font)
    half = font["head"].unitsPerEm // 2
    cmap, glyf, hmtx = font.getBestCmap(), font["glyf"], font["hmtx"]
    for char in CLOSING + OPENING:
        name = cmap.get(ord(char))
        if name is None:
            continue
        glyph = glyf[name]
        glyph.removeHinting()
        advance, lsb = hmtx[name]
        if char in OPENING and glyph.numberOfContours > 0:
            glyph.coordinates.translate((-(advance - half), 0))
            glyph.recalcBounds(glyf)
            lsb = glyph.xMin
        hmtx[name] = (half, lsb)
    for record in font["name"].names:
        if record.nameID in (1, 4, 6, 16):
            record.string = (str(record.toUnicode()) + " HalfPunct").replace(" ", "" if record.nameID == 6 else " ")
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def read_glyph(font: ToolsFont, gid: int) -> tuple[bytes, tuple[int, int]] | None:
    """A glyph's outline as stored and its metrics; None for a composite glyph (it names other glyphs)."""
    loca, wide = font.reader["loca"], font["head"].indexToLocFormat
    start, end = struct.unpack_from(">II" if wide else ">HH", loca, gid * (4 if wide else 2))
    start, end = (start, end) if wide else (2 * start, 2 * end)
    raw = font.reader["glyf"][start:end]
    if len(raw) >= 2 and struct.unpack_from(">h", raw)[0] < 0:
        return None
    metrics, count = font.reader["hmtx"], font["hhea"].numberOfHMetrics
    advance = struct.unpack_from(">H", metrics, 4 * min(gid, count - 1))[0]
    lsb = struct.unpack_from(">h", metrics, 4 * gid + 2 if gid < count else 4 * count + 2 * (gid - count))[0]
    return raw, (advance, lsb)


def subset_glyphs(font: ToolsFont, ids: dict[int, int]) -> None:
    """Subset the font to these characters' glyphs (and the glyphs theirs are made of), without reading its map,
    names or layout tables."""
    from fontTools import subset  # only for the faces whose marks are composite glyphs

    font.setGlyphOrder([".notdef"] + [f"glyph{n:05d}" for n in range(1, font["maxp"].numGlyphs)])
    for tag in ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "STAT", "MATH", "vhea", "vmtx", "VORG"):
        if tag in font:
            del font[tag]
    font["cmap"] = small_cmap({code: font.getGlyphName(gid) for code, gid in ids.items()})
    options = subset.Options()
    options.layout_features, options.name_IDs, options.notdef_outline, options.hinting = [], ["*"], True, False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=list(ids))
    subsetter.subset(font)


def small_cmap(kept: dict[int, str]):
    """A Unicode BMP character map of just these characters."""
    table = newTable("cmap")
    table.tableVersion = 0
    mapping = cmap_format_4(4)
    mapping.platformID, mapping.platEncID, mapping.language, mapping.cmap = 3, 1, 0, dict(kept)
    table.tables = [mapping]
    return table


def register_half_family(regular: str, bold: str) -> None:
    """<b> around a tightened mark picks the bold half font."""
    registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    registerFontFamily(bold, normal=bold, bold=bold, italic=bold, boldItalic=bold)


def squeeze(markup: str, half: str) -> str:
    """Paragraph markup with the marks JIS X 4051 sets half-width wrapped in <font name=half>."""
    tokens = _TOKEN.findall(markup)
    chars = [i for i, t in enumerate(tokens) if not t.startswith("<")]
    halve = set()
    for position, index in enumerate(chars):
        char = tokens[index]
        following = tokens[chars[position + 1]] if position + 1 < len(chars) else ""
        preceding = tokens[chars[position - 1]] if position else ""
        if char in CLOSING and following and following in CLOSING + OPENING:
            halve.add(index)
        elif char in OPENING and preceding and preceding in OPENING:
            halve.add(index)
    if not halve:
        return markup
    return "".join(f'<font name="{half}">{t}</font>' if i in halve else t for i, t in enumerate(tokens))
