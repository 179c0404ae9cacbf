"""Turn a TrueType font file into glyph IDs, advances, metrics and retained-GID subsets.

The subsetter is our own because every PDF embeds subsets, and fontTools' takes far longer (bench/font_subset.py).
"""
from __future__ import annotations

import functools
import operator
import re
import struct
from array import array
from itertools import repeat
from pathlib import Path
from typing import Iterable

from ..errors import Location, PnpError
from .cmap import U32, GlyphMap, assemble_font, map_glyphs, read_be, swapped, write_cmap
from .sfnt import name_records

COPIED_TABLES = ("OS/2", "cvt ", "fpgm", "maxp", "name", "prep")  # kept byte for byte in a subset
MAX_COMPONENT_DEPTH = 32  # real fonts nest composites 1-3 deep; a malicious one must not run away


def open_truetype(path: str | Path, index: int = 0, where: str | None = None) -> "TrueTypeFile":
    """The font in a file (member `index` of a collection); where names the file in messages (default: the path)."""
    where = where or str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PnpError(f"cannot read the font ({exc.strerror})", Location(where)) from None
    return TrueTypeFile(data, index, where)


class TrueTypeFile:
    """One glyf-outline font held in memory: its tables as views of the file's bytes."""

    def __init__(self, data: bytes, index: int = 0, where: str = "font"):
        self.where = where
        self.data = memoryview(data)
        self.tables = self.read_directory(self.find_font(index))
        for tag in ("head", "hhea", "maxp", "hmtx", "loca", "glyf"):
            if tag not in self.tables:
                self.fail(f"it has no '{tag}' table")
        head, hhea, maxp = self.table("head", 54), self.table("hhea", 36), self.table("maxp", 6)
        self.units_per_em = struct.unpack_from(">H", head, 18)[0]
        if not 16 <= self.units_per_em <= 16384:
            self.fail(f"unitsPerEm is {self.units_per_em}; expected 16 to 16384")
        self.num_glyphs = struct.unpack_from(">H", maxp, 4)[0]
        if not self.num_glyphs:
            self.fail("maxp says it has no glyphs")
        self.loca = self.read_loca(struct.unpack_from(">h", head, 50)[0])
        metrics = min(struct.unpack_from(">H", hhea, 34)[0], self.num_glyphs)
        if not metrics:
            self.fail("hhea numberOfHMetrics is 0")
        pairs = read_be("H", self.table("hmtx", 4 * metrics), 0, 2 * metrics)
        lsbs = read_be("H", self.table("hmtx"), 4 * metrics, self.num_glyphs - metrics)
        self.advance_units = pairs[0::2] + array("H", repeat(pairs[-2], self.num_glyphs - metrics))
        self.lsb_units = pairs[1::2] + lsbs + array("H", bytes(2 * (self.num_glyphs - metrics - len(lsbs))))
        self.read_metrics(head)

    def fail(self, what: str):
        raise PnpError(f"the font is damaged: {what}; expected a valid TrueType font file", Location(self.where))

    def find_font(self, index: int) -> int:
        """Where the table directory of font `index` starts: 0, or its offset inside a collection."""
        if bytes(self.data[:4]) != b"ttcf":
            return 0
        count = struct.unpack_from(">I", self.need(0, 12), 8)[0]
        if not 0 <= index < count:
            raise PnpError(f"the font collection has {count} fonts; there is no font number {index}", Location(self.where))
        return struct.unpack_from(">I", self.need(12 + 4 * index, 4))[0]

    def need(self, offset: int, length: int) -> memoryview:
        if offset + length > len(self.data):
            self.fail("it ends early (truncated)")
        return self.data[offset:offset + length]

    def read_directory(self, start: int) -> dict[str, tuple[int, int]]:
        version, count = struct.unpack_from(">4sH", self.need(start, 12))
        if version == b"OTTO":  # a font the FontBook converts to glyf before anything embeds it
            raise PnpError("the font has PostScript (CFF) outlines; expected TrueType (glyf) outlines, "
                           "as pnpgen's converted copy of it has", Location(self.where))
        if version not in (b"\0\1\0\0", b"true"):
            self.fail("it does not start like a TrueType font")
        directory, tables = self.need(start + 12, 16 * count), {}
        for entry in range(count):
            tag, _, offset, length = struct.unpack_from(">4sIII", directory, 16 * entry)
            tables[tag.decode("latin-1")] = (offset, length)
            if offset + length > len(self.data):
                self.fail(f"table '{tag.decode('latin-1')}' runs past the end of the file")
        return tables

    def table(self, tag: str, at_least: int = 0) -> memoryview:
        offset, length = self.tables[tag]
        if length < at_least:
            self.fail(f"table '{tag}' is {length} bytes long; expected at least {at_least}")
        return self.data[offset:offset + length]

    def read_loca(self, long_format: int) -> array:
        count, glyf_length = self.num_glyphs + 1, self.tables["glyf"][1]
        if long_format not in (0, 1):
            self.fail(f"head indexToLocFormat is {long_format}; expected 0 or 1")
        loca = read_be(U32 if long_format else "H", self.table("loca", count * (2 + 2 * long_format)), 0, count)
        loca = loca if long_format else array(U32, [offset * 2 for offset in loca])
        if any(map(operator.gt, loca, loca[1:])):
            self.fail("table 'loca' goes backwards")
        if loca[-1] > glyf_length:
            self.fail("table 'loca' points past the end of table 'glyf'")
        return loca

    def read_metrics(self, head: memoryview) -> None:
        """The numbers a PDF font descriptor wants, in 1/1000 em, read as reportlab reads them."""
        x_min, y_min, x_max, y_max = struct.unpack_from(">hhhh", head, 36)
        self.bbox = tuple(self.scale(v) for v in (x_min, y_min, x_max, y_max))
        self.ascent, self.descent, self.cap_height, weight = self.bbox[3], self.bbox[1], self.bbox[3], 500
        os2 = self.table("OS/2") if "OS/2" in self.tables else b""
        if len(os2) >= 72:
            weight = struct.unpack_from(">H", os2, 4)[0]
            self.ascent, self.descent = (self.scale(v) for v in struct.unpack_from(">hh", os2, 68))
            has_cap = struct.unpack_from(">H", os2, 0)[0] > 1 and len(os2) >= 90
            self.cap_height = self.scale(struct.unpack_from(">h", os2, 88)[0]) if has_cap else self.ascent
        self.stem_v = 50 + int((weight / 65.0) ** 2)  # pdflib's estimate, as reportlab uses: no outline analysis
        post = self.table("post") if "post" in self.tables else b""
        whole, fraction, fixed = struct.unpack_from(">hHxxxxI", post, 4) if len(post) >= 16 else (0, 0, 0)
        self.italic_angle = whole + fraction / 65536.0
        self.flags = 4 | (64 if self.italic_angle else 0) | (1 if fixed else 0)  # symbolic, italic, fixed pitch

    def scale(self, units: int) -> float:
        """Font units in 1/1000 em, computed as reportlab computes them so that widths agree to the bit."""
        return units if self.units_per_em == 1000 else units * (1000 / self.units_per_em)

    @functools.cached_property
    def postscript_name(self) -> str:
        """The PostScript name (name ID 6, else the full name, else family-style) as a PDF name: only
        letters, digits, '-', '_' and '.'; 'Font' when the font names nothing."""
        found: dict[int, str] = {}
        records = name_records(self.table("name")) if "name" in self.tables else []
        for platform, _, _, name_id, raw in sorted(records, key=lambda r: (r[0] != 3, r[0] == 1)):
            if name_id in (1, 2, 4, 6) and platform in (0, 1, 3) and name_id not in found:
                found[name_id] = raw.decode("latin-1" if platform == 1 else "utf-16-be", "replace")
        family = "-".join(found[i] for i in (1, 2) if i in found)
        cleaned = (re.sub(r"[^A-Za-z0-9._-]", "", text)[:63] for text in (found.get(6, ""), found.get(4, ""), family))
        return next((text for text in cleaned if text), "Font")

    @functools.cached_property
    def advances(self) -> list[float]:
        """Every glyph's advance in 1/1000 em, each as scale() gives it."""
        if self.units_per_em == 1000:
            return list(self.advance_units)
        factor = 1000 / self.units_per_em
        return [units * factor for units in self.advance_units]

    def advance(self, gid: int) -> float:
        return self.advances[gid]

    @functools.cached_property
    def cmap(self) -> GlyphMap:
        """Character -> glyph ID from the best Unicode cmap subtable ([]: 0 for a character the font lacks)."""
        try:
            return map_glyphs(self.table("cmap") if "cmap" in self.tables else b"", self.num_glyphs)
        except struct.error:
            self.fail("table 'cmap' ends early")

    def glyph_ids(self, text: str) -> list[int]:
        """The glyph ID of each character of text; 0 (.notdef) for a character the font lacks."""
        return list(map(self.cmap.__getitem__, text))

    def glyph_id(self, char: str) -> int:
        return self.cmap[char]

    def glyph(self, gid: int) -> memoryview:
        """The glyf bytes of one glyph (empty for a glyph without outline)."""
        start = self.tables["glyf"][0]
        return self.data[start + self.loca[gid]:start + self.loca[gid + 1]]

    def components(self, gid: int) -> list[int]:
        """The glyph IDs a composite glyph is made of (none for a simple glyph)."""
        glyph = self.glyph(gid)
        if not glyph:
            return []
        if len(glyph) < 10:
            self.fail(f"glyph {gid} is {len(glyph)} bytes long; expected at least 10")
        if struct.unpack_from(">h", glyph)[0] >= 0:
            return []
        found, pos, more = [], 10, True
        while more:
            if pos + 4 > len(glyph):
                self.fail(f"composite glyph {gid} ends early")
            flags, component = struct.unpack_from(">HH", glyph, pos)
            if component >= self.num_glyphs:
                self.fail(f"composite glyph {gid} uses glyph {component}, past the last glyph")
            found.append(component)
            pos += 4 + (4 if flags & 1 else 2) + (8 if flags & 0x80 else 4 if flags & 0x40 else 2 if flags & 8 else 0)
            more = bool(flags & 0x20)
        return found

    def closure(self, gids: Iterable[int]) -> list[int]:
        """The glyphs a subset must keep: .notdef, the given ones and every component of theirs, sorted."""
        kept = {0, *gids}
        if min(kept) < 0 or max(kept) >= self.num_glyphs:
            raise ValueError(f"glyph IDs must be 0 to {self.num_glyphs - 1}")
        frontier = list(kept)
        for _ in range(MAX_COMPONENT_DEPTH + 1):
            found = {c for gid in frontier for c in self.components(gid)} - kept
            if not found:
                return sorted(kept)
            kept |= found
            frontier = list(found)
        self.fail(f"composite glyphs nest more than {MAX_COMPONENT_DEPTH} deep")

    def subset(self, gids: Iterable[int], chars: dict[int, int] | None = None) -> bytes:
        """A TrueType file in which the given glyphs (and their components) keep their glyph IDs and
        outlines and every other glyph is empty; no layout tables (a PDF addresses glyphs by ID), and a
        cmap of chars (code point -> glyph ID) only."""
        count, kept = self.num_glyphs, self.closure(gids)
        outlines, metrics, loca, offset, start = [], array("H", bytes(4 * count)), array(U32), 0, 0
        for gid in kept:
            glyph = self.glyph(gid)
            outlines += (glyph, bytes(-len(glyph) % 4))  # each glyph 4-byte aligned
            loca += array(U32, [offset]) * (gid + 1 - start)  # the glyphs up to this one start where it does
            offset, start = offset + len(glyph) + -len(glyph) % 4, gid + 1
            metrics[2 * gid], metrics[2 * gid + 1] = self.advance_units[gid], self.lsb_units[gid]
        loca += array(U32, [offset]) * (count + 1 - start)
        head, hhea = bytearray(self.table("head")), bytearray(self.table("hhea"))
        struct.pack_into(">I", head, 8, 0)  # checkSumAdjustment, set once the file is whole
        struct.pack_into(">h", head, 50, 1)  # long loca offsets
        struct.pack_into(">H", hhea, 34, count)  # every glyph has a full metric
        post = bytearray((bytes(self.table("post")[:32]) if "post" in self.tables else b"").ljust(32, b"\0"))
        struct.pack_into(">I", post, 0, 0x00030000)  # version 3: no glyph names
        tables = {tag: self.table(tag) for tag in COPIED_TABLES if tag in self.tables}
        tables.update(head=head, hhea=hhea, post=post, glyf=b"".join(outlines),
                      loca=swapped(loca), hmtx=swapped(metrics), cmap=write_cmap(chars or {}))
        return assemble_font(tables)
