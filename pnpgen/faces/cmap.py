"""Turn font table bytes into numbers and back: cmaps (formats 12, 4, 6 and 0) into character -> glyph ID
dictionaries and those into cmaps, tables into a whole sfnt (TrueType) file."""
from __future__ import annotations

import operator
import struct
import sys
from array import array
from bisect import bisect_right

U32 = next(code for code in "ILQ" if array(code).itemsize == 4)
SWAP = sys.byteorder == "little"  # font data is big-endian
MAX_CODE_POINTS = 0x110000  # cmap entries read at most: all of Unicode, so a hostile cmap cannot blow memory
UNICODE_CMAPS = {(0, 0): 2, (0, 1): 2, (0, 2): 2, (0, 3): 1, (0, 4): 0, (0, 6): 0, (3, 1): 1, (3, 10): 0, (3, 0): 3}
CMAP_FORMATS = {12: 0, 4: 1, 6: 2, 0: 2}  # preferred first: format 12 covers all planes


class GlyphMap(dict):
    """Character -> glyph ID, asked by [] (0 for a character the font lacks). A format-12 subtable as the format
    requires it (groups in order, none overlapping, on glyphs the font has) is looked up a character at a time, when
    first asked: reading a CJK font's thousands of groups into a dictionary cost each process that set text several
    milliseconds a font. Any other subtable is read whole (read_cmap)."""

    def __init__(self, known: dict[str, int], groups: tuple[array, array, array] | None = None):
        super().__init__(known)
        self.groups = groups  # (first codes, last codes, first glyphs) of an ordered format-12 subtable

    def __missing__(self, char: str) -> int:
        gid = 0
        if self.groups is not None:
            space = char == " " or char == "\xa0"  # read_cmap gives both the space's glyph, else the other's
            gid = self.find(0x20 if self.holds(0x20) else 0xA0) if space else self.find(ord(char))
        if gid:  # what is kept is at most the font's characters, whatever text asks
            self[char] = gid
        return gid

    def holds(self, code: int) -> bool:
        starts, ends, _ = self.groups
        at = bisect_right(starts, code) - 1
        return at >= 0 and code <= ends[at]

    def find(self, code: int) -> int:
        starts, ends, firsts = self.groups
        at = bisect_right(starts, code) - 1
        return firsts[at] + code - starts[at] if at >= 0 and code <= ends[at] else 0


def map_glyphs(cmap, glyphs: int) -> GlyphMap:
    """The GlyphMap of a cmap table's best Unicode subtable; struct.error if it is cut short."""
    form, offset = best_subtable(cmap)
    if form == 12:
        table = cmap[offset:]
        count = min(struct.unpack_from(">I", table, 12)[0], (len(table) - 16) // 12)
        numbers = read_be(U32, table, 16, 3 * count)
        starts, ends, firsts = numbers[0::3], numbers[1::3], numbers[2::3]
        if (count and ends[-1] < MAX_CODE_POINTS and min(firsts) > 0 and all(map(operator.lt, ends[:-1], starts[1:]))
                and all(map(operator.le, starts, ends))
                and max(map(operator.sub, map(operator.add, firsts, ends), starts)) < glyphs):
            return GlyphMap({}, (starts, ends, firsts))
    return GlyphMap(read_cmap(cmap, glyphs))


def best_subtable(cmap) -> tuple[int | None, int]:
    """(format, offset) of the Unicode subtable read_cmap reads; (None, 0) when there is none."""
    count = struct.unpack_from(">H", cmap, 2)[0] if len(cmap) >= 4 else 0
    choices = []
    for record in range(min(count, (len(cmap) - 4) // 8)):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * record)
        if (platform, encoding) in UNICODE_CMAPS and offset + 2 <= len(cmap):
            form = struct.unpack_from(">H", cmap, offset)[0]
            if form in CMAP_FORMATS:
                choices.append((CMAP_FORMATS[form], UNICODE_CMAPS[platform, encoding], offset, form))
    _, _, offset, form = min(choices, default=(0, 0, 0, None))
    return form, offset


def read_cmap(cmap, glyphs: int) -> dict[str, int]:
    """Character -> glyph ID from the best Unicode subtable of a cmap table; struct.error if it is cut short."""
    mapping: dict[int, int] = {}
    form, offset = best_subtable(cmap)
    if form is not None:
        {12: read_format12, 4: read_format4, 6: read_array_format, 0: read_array_format}[form](cmap[offset:], mapping, glyphs)
    # reportlab measures a no-break space as a space (and the other way round): do the same, so that the
    # widths lines were broken with are the widths the PDF shows
    if 0x20 in mapping or 0xA0 in mapping:
        mapping[0xA0] = mapping[0x20] = mapping.get(0x20, mapping.get(0xA0))
    return {chr(code): gid for code, gid in mapping.items() if 0 < gid < glyphs and code < MAX_CODE_POINTS}


def read_format12(table, mapping: dict, glyphs: int) -> None:
    budget = MAX_CODE_POINTS
    numbers = iter(read_be(U32, table, 16, 3 * min(struct.unpack_from(">I", table, 12)[0], (len(table) - 16) // 12)))
    for start, end, gid in zip(numbers, numbers, numbers):  # (first code, last code, first glyph) groups
        if start == end and gid < glyphs and budget > 0:  # most groups of a CJK font are single characters
            mapping[start] = gid
            budget -= 1
            continue
        size = min(end + 1 - start, glyphs - gid, budget)
        if size > 0:
            mapping.update(zip(range(start, start + size), range(gid, gid + size)))
        budget -= max(size, 0)


def read_format4(table, mapping: dict, glyphs: int) -> None:
    segments = struct.unpack_from(">H", table, 6)[0] // 2
    ends, starts = read_be("H", table, 14, segments), read_be("H", table, 16 + 2 * segments, segments)
    deltas, ranges = read_be("H", table, 16 + 4 * segments, segments), read_be("H", table, 16 + 6 * segments, segments)
    budget = MAX_CODE_POINTS  # segments may overlap: bound the work, not just the table
    for segment, (start, end, delta, ranged) in enumerate(zip(starts, ends, deltas, ranges)):
        codes = range(start, min(end + 1, 0xFFFF, start + budget))
        budget -= len(codes)
        if not ranged:
            mapping.update(zip(codes, [(code + delta) & 0xFFFF for code in codes]))
        elif codes:
            ids = read_be("H", table, 16 + 6 * segments + 2 * segment + ranged, len(codes))
            mapping.update(zip(codes, [(gid + delta) & 0xFFFF if gid else 0 for gid in ids]))


def read_array_format(table, mapping: dict, glyphs: int) -> None:
    """Format 6 (a trimmed array) and format 0 (a byte array of the first 256 codes)."""
    if struct.unpack_from(">H", table)[0] == 0:
        mapping.update(zip(range(256), bytes(table[6:262])))
        return
    first, count = struct.unpack_from(">HH", table, 6)
    mapping.update(zip(range(first, first + count), read_be("H", table, 10, count)))


def write_cmap(glyphs: dict[int, int]) -> bytes:
    """A cmap table mapping code points to glyph IDs: format 4 (Windows Unicode BMP) for the BMP and, when
    any lies beyond it, format 12 (Windows Unicode full) for all; a subset font then holds every table
    TrueType requires, which strict font parsers insist on even where a PDF addresses glyphs by ID."""
    codes = sorted(glyphs)
    runs: list[list[int]] = []  # [first code, last code, first glyph]: consecutive codes on consecutive glyphs
    for code in codes:
        if runs and code == runs[-1][1] + 1 and glyphs[code] == runs[-1][2] + code - runs[-1][0]:
            runs[-1][1] = code
        else:
            runs.append([code, code, glyphs[code]])
    subtables = [(1, format_4([r for r in runs if r[1] < 0xFFFF]))]
    if codes and codes[-1] > 0xFFFF:
        subtables.append((10, format_12(runs)))
    offset = 4 + 8 * len(subtables)
    head, body = struct.pack(">HH", 0, len(subtables)), b""
    for encoding, table in subtables:
        head += struct.pack(">HHI", 3, encoding, offset + len(body))
        body += table
    return head + body


def format_4(runs: list[list[int]]) -> bytes:
    segments = [(first, last, (glyph - first) % 0x10000) for first, last, glyph in runs] + [(0xFFFF, 0xFFFF, 1)]
    count = len(segments)
    power = 1 << (count.bit_length() - 1)
    ends = struct.pack(f">{count}H", *(last for _, last, _ in segments))
    starts = struct.pack(f">{count}H", *(first for first, _, _ in segments))
    deltas = struct.pack(f">{count}H", *(delta for _, _, delta in segments))
    length = 16 + 8 * count
    return (struct.pack(">7H", 4, length, 0, 2 * count, 2 * power, power.bit_length() - 1, 2 * (count - power))
            + ends + b"\0\0" + starts + deltas + bytes(2 * count))


def format_12(runs: list[list[int]]) -> bytes:
    groups = b"".join(struct.pack(">3I", first, last, glyph) for first, last, glyph in runs)
    return struct.pack(">HHIII", 12, 0, 16 + len(groups), 0, len(runs)) + groups


def read_be(code: str, data, offset: int, count: int) -> array:
    """count big-endian numbers of an array type code from data at offset."""
    numbers = array(code)
    numbers.frombytes(data[offset:offset + count * numbers.itemsize])
    if SWAP:
        numbers.byteswap()
    return numbers


def checksum(data) -> int:
    """The sfnt checksum: the sum of the big-endian 32-bit words of the data padded with zeros."""
    padded = data if len(data) % 4 == 0 else bytes(data) + bytes(-len(data) % 4)
    return sum(read_be(U32, padded, 0, len(padded) // 4)) & 0xFFFFFFFF


def swapped(numbers: array) -> bytes:
    if SWAP:
        numbers.byteswap()
    return numbers.tobytes()


def assemble_font(tables: dict) -> bytes:
    """An sfnt file of the tables: directory sorted by tag, tables 4-byte aligned, checksums set."""
    tags, offset = sorted(tables), 12 + 16 * len(tables)
    selector = len(tags).bit_length() - 1
    parts = [struct.pack(">IHHHH", 0x00010000, len(tags), 16 << selector, selector, 16 * len(tags) - (16 << selector))]
    body, head_at, total = [], 0, 0
    for tag in tags:
        data, sum_of_table = tables[tag], checksum(tables[tag])
        parts.append(struct.pack(">4sIII", tag.encode("latin-1"), sum_of_table, offset, len(data)))
        body += (data, bytes(-len(data) % 4))
        head_at = offset if tag == "head" else head_at
        offset, total = offset + len(data) + -len(data) % 4, total + sum_of_table
    font = bytearray(b"".join(parts + body))
    # every table starts on a word, so the file's checksum is the directory's plus the tables'
    total += checksum(font[:12 + 16 * len(tags)])
    struct.pack_into(">I", font, head_at + 8, (0xB1B0AFBA - total) & 0xFFFFFFFF)
    return bytes(font)
