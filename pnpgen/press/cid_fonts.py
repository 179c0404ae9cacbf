"""Turn a font and the glyphs a PDF uses into its Type0/CIDFontType2 objects."""
from __future__ import annotations

import hashlib
import zlib
from itertools import groupby
from typing import Callable, Mapping

from ..faces.truetype import TrueTypeFile

DEFAULT_WIDTH = 1000  # /DW: most CJK glyphs are a full em, so /W lists only the others
SECTION = 100  # a CMap's bfchar/bfrange section may hold at most 100 entries
CMAP_HEAD = """/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
"""
CMAP_TAIL = """endcmap
CMapName currentdict /CMap defineresource pop
end
end
"""


def cid_font_objects(font: TrueTypeFile, used: Mapping[int, str], type0_number: int,
                     reserve: Callable[[], int]) -> list[tuple[int, bytes]]:
    """The Type0 font (as object type0_number), its CIDFontType2, font descriptor, embedded subset and
    ToUnicode CMap, as (object number, object body) pairs; `used` maps each glyph ID shown to its text."""
    gids = sorted(used)
    name = f"{subset_tag(font, gids)}+{font.postscript_name}"
    cid_number, descriptor_number, file_number, unicode_number = reserve(), reserve(), reserve(), reserve()
    widths = write_widths(font, gids)
    type0 = (f"<< /Type /Font /Subtype /Type0 /BaseFont /{name} /Encoding /Identity-H "
             f"/DescendantFonts [{cid_number} 0 R] /ToUnicode {unicode_number} 0 R >>")
    cid = (f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{name} "
           "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
           f"/FontDescriptor {descriptor_number} 0 R /CIDToGIDMap /Identity /DW {DEFAULT_WIDTH}"
           + (f" /W [{widths}]" if widths else "") + " >>")
    descriptor = (f"<< /Type /FontDescriptor /FontName /{name} /Flags {font.flags} "
                  f"/FontBBox [{' '.join(map(write_number, font.bbox))}] /ItalicAngle {write_number(font.italic_angle)} "
                  f"/Ascent {write_number(font.ascent)} /Descent {write_number(font.descent)} "
                  f"/CapHeight {write_number(font.cap_height)} /StemV {font.stem_v} /FontFile2 {file_number} 0 R >>")
    chars = {ord(text): gid for gid, text in sorted(used.items(), reverse=True) if len(text) == 1 and gid}
    subset = font.subset(gids, chars)
    return [(type0_number, type0.encode("ascii")), (cid_number, cid.encode("ascii")),
            (descriptor_number, descriptor.encode("ascii")),
            (file_number, write_stream(subset, f"/Length1 {len(subset)} ")),
            (unicode_number, write_stream(write_to_unicode(used).encode("ascii")))]


def subset_tag(font: TrueTypeFile, gids: list[int]) -> str:
    """Six capital letters naming this subset: the same font and glyphs always give the same tag."""
    digest = hashlib.sha256(f"{font.postscript_name}:{','.join(map(str, gids))}".encode()).digest()
    return "".join(chr(65 + byte % 26) for byte in digest[:6])


def write_number(value: float) -> str:
    """A PDF number: an integer when whole, else at most 3 decimals, never an exponent."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def write_stream(data: bytes, extra: str = "") -> bytes:
    packed = zlib.compress(data, 6)
    return f"<< {extra}/Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode("ascii") + packed + b"\nendstream"


def write_widths(font: TrueTypeFile, gids: list[int]) -> str:
    """The /W array's contents for the glyphs whose width is not /DW: `first [w w ...]` for runs of
    glyph IDs, `first last w` where three or more neighbours share a width."""
    default = write_number(DEFAULT_WIDTH)
    listed = [(gid, width) for gid in gids if (width := write_number(font.advance(gid))) != default]
    parts = []
    for _, run in groupby(enumerate(listed), key=lambda item: item[1][0] - item[0]):  # consecutive glyph IDs
        widths = [list(same) for _, same in groupby((entry for _, entry in run), key=lambda entry: entry[1])]
        for short, groups in groupby(widths, key=lambda same: len(same) < 3):
            if short:  # neighbours of fewer than three alike: one array
                entries = [entry for same in groups for entry in same]
                parts.append(f"{entries[0][0]} [{' '.join(w for _, w in entries)}]")
            else:
                parts += [f"{same[0][0]} {same[-1][0]} {same[0][1]}" for same in groups]
    return " ".join(parts)


def write_to_unicode(used: Mapping[int, str]) -> str:
    """A ToUnicode CMap from glyph IDs to their text: a run of glyphs that stand for consecutive BMP
    characters becomes one bfrange, the rest bfchar entries; .notdef (text "") is left out."""
    runs: list[list[tuple[int, str]]] = []
    for gid, text in sorted(used.items()):
        if text and runs and extends(runs[-1], gid, text):
            runs[-1].append((gid, text))
        elif text:
            runs.append([(gid, text)])
    chars = [f"<{gid:04X}> <{write_utf16(text)}>" for run in runs if len(run) == 1 for gid, text in run]
    ranges = [f"<{run[0][0]:04X}> <{run[-1][0]:04X}> <{write_utf16(run[0][1])}>" for run in runs if len(run) > 1]
    return CMAP_HEAD + write_sections("bfchar", chars) + write_sections("bfrange", ranges) + CMAP_TAIL


def extends(run: list[tuple[int, str]], gid: int, text: str) -> bool:
    """Whether glyph gid showing text continues a bfrange: the next glyph ID and the next BMP character,
    and neither crosses a change of its high byte (viewers increment only the last byte)."""
    (first, first_text), (last, last_text) = run[0], run[-1]
    if len(text) != 1 or len(first_text) != 1 or not 0 < ord(text) < 0xD800 and not 0xE000 <= ord(text) < 0x10000:
        return False
    return (gid == last + 1 and ord(text) == ord(last_text) + 1
            and gid >> 8 == first >> 8 and ord(text) >> 8 == ord(first_text) >> 8)


def write_utf16(text: str) -> str:
    return text.encode("utf-16-be", "surrogatepass").hex().upper()


def write_sections(kind: str, lines: list[str]) -> str:
    return "".join(f"{len(chunk)} begin{kind}\n" + "\n".join(chunk) + f"\nend{kind}\n"
                   for chunk in (lines[start:start + SECTION] for start in range(0, len(lines), SECTION)))
