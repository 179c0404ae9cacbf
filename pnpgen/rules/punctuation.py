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

from fontTools.ttLib import TTFont as ToolsFont, newTable
from fontTools.ttLib.tables._c_m_a_p import cmap_format_4
from fontTools.ttLib.tables._g_l_y_f import Glyph

from ..faces.font import Font, register_font
from ..faces.font_convert import find_derived, process_cache_dir, store_derived
from ..faces.fonts import FontBook
from ..faces.truetype import TrueTypeFile

CLOSING = "、。，．）」』】〕〉》］｝〙〗"
OPENING = "（「『【〔〈《［｛〘〖"
_VERSION = b"pnpgen-half-punctuation-4"
KEPT = ("head", "hhea", "maxp", "OS/2", "name", "post", "gasp")  # and the glyphs, metrics and map made anew
_TOKEN = re.compile(r"<[^>]*>|&[^;\s]+;|.", re.S)
_registered: dict[str, str] = {}  # face font name -> half font name


def half_font(fontbook: FontBook, weight: str) -> str:
    """The registered name of the half-width punctuation font derived from the default face of `weight`."""
    base = fontbook.register(fontbook.find_face(None, weight))  # a converted copy of a CFF or variable face
    if base.name in _registered:
        return _registered[base.name]
    key = "half-" + hashlib.sha256(_VERSION + bytes([base.index % 256]) + base.file.data).hexdigest()[:16]
    folder = fontbook.cache_dir or process_cache_dir()
    made = find_derived(folder, key) or store_derived(folder, key, make_half_font(base))
    _registered[base.name] = register_font(f"{base.name}-HalfPunct", made).name
    return _registered[base.name]


def make_half_font(base: Font) -> bytes:
    """Keep only the brackets and stops of the font, each with a half-em advance (opening ones moved left).

    A CJK face holds some 17,000 glyphs; reading all of them, or its map, names and layout tables, is most of
    the work of subsetting it: the few kept are taken from our reader instead (composite ones, which name
    others, by the subsetter)."""
    font = ToolsFont(io.BytesIO(base.file.data), recalcTimestamp=False, lazy=True,
                     fontNumber=base.index)  # no timestamp: the same bytes everywhere
    glyphs = base.file.cmap
    ids = {ord(c): glyphs[c] for c in CLOSING + OPENING if glyphs[c]}
    names = {gid: f"glyph{gid:05d}" for gid in [0, *sorted(set(ids.values()))]}
    outlines = {names[gid]: read_glyph(base.file, gid) for gid in names}
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


def read_glyph(file: TrueTypeFile, gid: int) -> tuple[bytes, tuple[int, int]] | None:
    """A glyph's outline as stored and its metrics; None for a composite glyph (it names other glyphs)."""
    if file.components(gid):
        return None
    lsb = file.lsb_units[gid]
    return bytes(file.glyph(gid)), (file.advance_units[gid], lsb - 0x10000 if lsb >= 0x8000 else lsb)


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


def squeeze(markup: str, half: str) -> str:
    """Paragraph markup with the marks JIS X 4051 sets half-width wrapped in <font name=half>."""
    tokens = _TOKEN.findall(markup)
    chars = [(i, t) for i, t in enumerate(tokens) if not t.startswith("<")]
    halve = set()
    for (_, preceding), (index, char), (_, following) in zip([(-1, "")] + chars, chars, chars[1:] + [(-1, "")]):
        if (char in CLOSING and following and following in CLOSING + OPENING
                or char in OPENING and preceding and preceding in OPENING):
            halve.add(index)
    if not halve:
        return markup
    return "".join(f'<font name="{half}">{t}</font>' if i in halve else t for i, t in enumerate(tokens))
