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

from fontTools import subset
from fontTools.ttLib import TTFont as ToolsFont, newTable
from fontTools.ttLib.tables._c_m_a_p import cmap_format_4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont

from ..faces.font_convert import find_derived, process_cache_dir, store_derived
from ..faces.fonts import FontBook

CLOSING = "、。，．）」』】〕〉》］｝〙〗"
OPENING = "（「『【〔〈《［｛〘〖"
_VERSION = b"pnpgen-half-punctuation-3"
UNKEPT = ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "STAT", "MATH", "vhea", "vmtx", "VORG", "cmap")  # no features kept
_TOKEN = re.compile(r"<[^>]*>|&[^;\s]+;|.", re.S)
_registered: dict[str, str] = {}  # face font name -> half font name


def half_font(fontbook: FontBook, weight: str) -> str:
    """The reportlab name of the half-width punctuation font derived from the default face of `weight`."""
    face = fontbook.find_face(None, weight)
    base = fontbook.register(face)
    if base in _registered:
        return _registered[base]
    data = face.path.read_bytes()
    key = "half-" + hashlib.sha256(_VERSION + data).hexdigest()[:16]
    folder = fontbook.cache_dir or process_cache_dir()
    glyphs = pdfmetrics.getFont(base).face.charToGlyph  # read as the face was registered
    path = find_derived(folder, key) or store_derived(folder, key, make_half_font(data, glyphs))
    name = f"{base}-HalfPunct"
    pdfmetrics.registerFont(TTFont(name, str(path)))
    _registered[base] = name
    return name


def make_half_font(data: bytes, glyphs: dict[int, int]) -> bytes:
    """Keep only the brackets and stops, each with a half-em advance (opening ones moved left).

    glyphs: the face's character -> glyph id map. Reading a CJK face's own map, glyph names and layout tables
    is most of the work of subsetting it, and none of them is kept: the glyphs are named by number instead,
    under a map of the few characters kept."""
    font = ToolsFont(io.BytesIO(data), recalcTimestamp=False, lazy=True)  # the same bytes on every machine
    font.setGlyphOrder([".notdef"] + [f"glyph{n:05d}" for n in range(1, font["maxp"].numGlyphs)])
    for tag in UNKEPT:
        if tag in font:
            del font[tag]
    kept = {ord(c): font.getGlyphName(glyphs[ord(c)]) for c in CLOSING + OPENING if glyphs.get(ord(c))}
    font["cmap"] = small_cmap(kept)
    options = subset.Options()
    options.layout_features, options.name_IDs, options.notdef_outline = [], ["*"], True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=list(kept))
    subsetter.subset(font)
    half = font["head"].unitsPerEm // 2
    cmap, glyf, hmtx = font.getBestCmap(), font["glyf"], font["hmtx"]
    for char in CLOSING + OPENING:
        name = cmap.get(ord(char))
        if name is None:
            continue
        glyph = glyf[name]
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
