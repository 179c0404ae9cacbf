"""Turn CFF-outline and variable fonts into static TrueType files reportlab can embed, cached by content."""
from __future__ import annotations

import atexit
import functools
import hashlib
import io
import os
import shutil
import stat
import tempfile
from pathlib import Path

from fontTools.ttLib import newTable
from fontTools.ttLib import TTFont as ToolsFont

from ..files.atomic import write_atomically
from ..errors import Location, PnpError

from .font import WEIGHT_NAMES, Face
_CONVERTER_VERSION = b"pnpgen-fonts-1"  # bump when the conversion changes, to refresh caches


@functools.cache
def process_cache_dir() -> Path:
    """Where a build without a cache keeps converted fonts: a folder of this process, removed when it ends."""
    folder = Path(tempfile.mkdtemp(prefix="pnpgen-fonts-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def convert_face(face: Face, cache_dir: Path) -> Path:
    """A static TrueType-outline file for the face, made once and kept in the cache dir."""
    data = face.path.read_bytes()
    variant = f"|{face.index}|{face.weight if face.variable else ''}".encode()
    key = hashlib.sha256(_CONVERTER_VERSION + variant + data).hexdigest()
    found = find_derived(cache_dir, key)
    if found:
        return found
    try:
        font = ToolsFont(io.BytesIO(data), fontNumber=face.index if face.path.suffix.lower() in (".ttc", ".otc") else -1,
                          recalcTimestamp=False)  # a timestamp would make every conversion, and PDF, differ
        if face.variable:
            font = instance_font(font, face)
        if "glyf" not in font:
            convert_to_glyf(font)
        buffer = io.BytesIO()
        font.save(buffer)
    except Exception as exc:  # a font fontTools reads but cannot instance or convert
        raise PnpError(f"cannot convert this font for PDF embedding ({type(exc).__name__}: {exc})",
                       Location(str(face.path))) from None
    return store_derived(cache_dir, key, buffer.getvalue())


def store_derived(folder: Path, key: str, data: bytes) -> Path:
    """Keep a font made from another as <key>-<hash of its bytes>.ttf, which find_derived can verify."""
    target = Path(folder) / f"{key}-{hashlib.sha256(data).hexdigest()[:32]}.ttf"
    # Two builds may convert the same font at once: each writes its own temp file, the rename is atomic.
    write_atomically(target, data, "converted font")
    return target


def find_derived(folder: Path, key: str) -> Path | None:
    """A font store_derived kept for key, if it is a regular file of this user whose bytes match its name
    (a link, another user's file, a file changed since is ignored and made again)."""
    for path in sorted(Path(folder).glob(f"{key}-*.ttf")):
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
                continue
            if hashlib.sha256(path.read_bytes()).hexdigest()[:32] == path.stem.rsplit("-", 1)[-1]:
                return path
        except OSError:
            continue
    return None


def instance_font(font: ToolsFont, face: Face) -> ToolsFont:
    """Pin every axis (wght at the face's weight, others at default) and name the result."""
    limits = {a.axisTag: (face.weight if a.axisTag == "wght" else a.defaultValue) for a in font["fvar"].axes}
    from fontTools.varLib import instancer  # slow to import, and only variable fonts need it

    font = instancer.instantiateVariableFont(font, limits)
    style = WEIGHT_NAMES.get(face.weight, str(face.weight)) + (" Italic" if face.italic else "")
    names = font["name"]
    for name_id, value in ((1, face.family), (2, style), (4, f"{face.family} {style}"),
                           (6, face.base_name), (16, face.family), (17, style)):
        names.removeNames(nameID=name_id)
        names.setName(value, name_id, 3, 1, 0x409)
    if "OS/2" in font:
        font["OS/2"].usWeightClass = face.weight
    return font


def convert_to_glyf(font: ToolsFont) -> None:
    """Replace CFF/CFF2 outlines by quadratic glyf outlines, as reportlab can only embed TrueType."""
    from fontTools.pens.cu2quPen import Cu2QuPen  # only CFF fonts need these
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        tt_pen = TTGlyphPen(glyph_set)
        # PostScript contours run counter-clockwise, TrueType ones clockwise: reverse them.
        glyph_set[name].draw(Cu2QuPen(tt_pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = tt_pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in font:
            del font[tag]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyphs.items():
        if hasattr(glyph, "xMin"):  # left side bearings must match the new outlines
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion, maxp.maxZones, maxp.numGlyphs = 0x00010000, 1, len(order)
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 0)  # no hinting; the point and contour maxima are recalculated on save
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    try:
        post.compile(font)
    except OverflowError:  # too many glyph names for format 2
        post.formatType = 3.0
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
