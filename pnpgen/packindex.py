"""Turn a pack's index into the trailer a sealed pack carries after its records, and the trailer back into
sorted arrays that a lookup bisects: a sealed pack opens by reading one block, never its records' headers.

The trailer: a mark and its length (a scan of the records steps over it: packfile.read_records), for each
kind in turn the records' 128-bit key prefixes sorted (the high 64-bit halves, then the low ones), where
each record lies and how long it is, the 32-byte face key each R record holds, and a footer: where the
trailer starts, how many records the file holds (dead ones too), how many of each kind the trailer lists,
and the SHA-256 of all that. It is read only from a sealed pack, and only if it describes that file whole.
"""
from __future__ import annotations

import hashlib
import struct
import sys
from array import array
from bisect import bisect_left

from .packfile import (CHECK, CHECKED, FLAGS, HEADER, KINDS, MAGIC, MARK, SPAN, TRAILER, USED, holds, read_at,
                       split_entry)

FOOTER = struct.Struct(">8sQI4I32s")  # mark, start, records in the file, listed per kind, check
PLACE = struct.Struct(">II")  # where a record lies, how long it is
GROUP = 2048  # rows a trailer sorts at a time, about
GONE, FACE = 4, 32  # a flag: the trailer's entry was dropped or replaced; an R record's payload
HALF = (1 << 64) - 1
NUMBERS = {kind[0]: number for number, kind in enumerate(KINDS)}
WIDE, NARROW = "Q", "I"  # 8- and 4-byte arrays: the trailer is not used where the platform's differ
USABLE = array(WIDE).itemsize == 8 and array(NARROW).itemsize == 4


def in_file_order(items: array) -> array:
    """The array as its big-endian bytes are laid out in a trailer, or back (in place)."""
    if sys.byteorder == "little":
        items.byteswap()
    return items


class Table:
    """The records a sealed pack's trailer lists: per kind (a range of the arrays) sorted by key prefix,
    where each lies, the R records' face keys, and a byte of flags each (USED, CHECKED, GONE)."""

    def __init__(self, highs: array, lows: array, positions: array, sizes: array, counts: list[int],
                 faces: bytes, start: int, physical: int):
        self.highs, self.lows, self.positions, self.sizes, self.faces = highs, lows, positions, sizes, faces
        self.bounds = [sum(counts[:kind]) for kind in range(len(KINDS) + 1)]
        self.flags = bytearray(len(highs))
        self.start, self.physical = start, physical  # where the trailer lies; how many records precede it
        self.last_slot, self.last_at = -1, -1  # the slot found last and where: a lookup is often followed by its update

    def find(self, slot: int) -> int:
        """Where the entry of slot (as packfile.slot_of) is, or -1."""
        if slot == self.last_slot:
            at = self.last_at
        else:
            high, end, highs = slot >> 66, self.bounds[(slot & 3) + 1], self.highs
            at = bisect_left(highs, high, self.bounds[slot & 3], end)
            if at < end and highs[at] == high:
                low, lows = slot >> 2 & HALF, self.lows
                while lows[at] != low:  # another key shares the high half: rare
                    at += 1
                    if at == end or highs[at] != high:
                        at = -1
                        break
            else:
                at = -1
            self.last_slot, self.last_at = slot, at
        return -1 if at < 0 or self.flags[at] & GONE else at

    def entry(self, at: int) -> int:
        return (self.positions[at] << 32 | self.sizes[at]) << FLAGS | self.flags[at] & 3

    def slot(self, at: int) -> int:
        return self.highs[at] << 66 | self.lows[at] << 2 | next(k for k in range(4) if at < self.bounds[k + 1])

    def face(self, at: int) -> bytes:
        return self.faces[at * FACE:at * FACE + FACE]

    def faces_at(self) -> list[tuple[int, int]]:
        """The ranges of the A and F records' entries."""
        return [(self.bounds[kind], self.bounds[kind + 1]) for kind in (KINDS.index(b"A"), KINDS.index(b"F"))]

    def vouch(self) -> None:
        """Flag every face record checked (a sealed pack's)."""
        for start, end in self.faces_at():
            self.flags[start:end] = bytes([CHECKED]) * (end - start)

    def vouched(self) -> bool:
        """Every face record listed counts as checked (an entry flagged 0 or USED alone is neither checked nor gone)."""
        return all(self.flags.find(bytes([flag]), *bounds) < 0 for flag in (0, USED) for bounds in self.faces_at())

    def used(self) -> int:
        return self.flags.count(USED) + self.flags.count(USED | CHECKED)

    def gone(self) -> list[int]:
        marks = self.flags.translate(bytes(GONE if value & GONE else 0 for value in range(256)))
        found, at = [], marks.find(GONE)
        while at >= 0:
            found.append(at)
            at = marks.find(GONE, at + 1)
        return found

    def place(self, slot: int) -> int:
        """Where an entry of slot goes among the others."""
        kind, high, low = slot & 3, slot >> 66, slot >> 2 & HALF
        end = self.bounds[kind + 1]
        at = bisect_left(self.highs, high, self.bounds[kind], end)
        while at < end and self.highs[at] == high and self.lows[at] < low:
            at += 1
        return at

    def merged(self, rows: list[tuple[int, int, int, bytes]], start: int, added: int) -> "Table":
        """This table without its gone entries and with rows (slot, position, size, payload) added, for a
        pack whose trailer now starts at start, holding added more records."""
        cuts = sorted([(at, 0, 0, None) for at in self.gone()] +
                      [(self.place(row[0]), 1, row[0] & 3, row[0] >> 2, row) for row in rows], key=lambda c: c[:4])
        highs, lows, positions, sizes = array(WIDE), array(WIDE), array(NARROW), array(NARROW)
        faces, counts, done = bytearray(), [0] * len(KINDS), 0

        def copy(end: int) -> None:
            highs.extend(self.highs[done:end])
            lows.extend(self.lows[done:end])
            positions.extend(self.positions[done:end])
            sizes.extend(self.sizes[done:end])
            faces.extend(self.faces[done * FACE:min(end, self.bounds[1]) * FACE])
            for kind in range(len(KINDS)):
                counts[kind] += max(0, min(end, self.bounds[kind + 1]) - max(done, self.bounds[kind]))
        for cut in cuts:
            copy(cut[0])
            done = cut[0]
            if cut[1] == 0:
                done += 1
                continue
            slot, position, size, payload = cut[-1]
            highs.append(slot >> 66)
            lows.append(slot >> 2 & HALF)
            positions.append(position)
            sizes.append(size)
            faces.extend(payload if slot & 3 == 0 else b"")
            counts[slot & 3] += 1
        copy(len(self.highs))
        return Table(highs, lows, positions, sizes, counts, bytes(faces), start, self.physical + added)

    def encode(self) -> list[bytes]:
        """The trailer, after the pack's records (at self.start), in a few blocks."""
        return framed([in_file_order(array(items.typecode, items)).tobytes()
                       for items in (self.highs, self.lows, self.positions, self.sizes)] + [self.faces],
                      self.start, self.physical, [end - start for start, end in zip(self.bounds, self.bounds[1:])])


def framed(blocks: list[bytes], start: int, physical: int, counts: list[int]) -> list[bytes]:
    """A trailer's blocks (key halves, places, sizes, face keys) with its mark, length, footer and check."""
    blocks = [TRAILER.pack(MARK, TRAILER.size + sum(map(len, blocks)) + FOOTER.size)] + blocks + [
        FOOTER.pack(MARK, start, physical, *counts, bytes(32))[:-32]]
    check = hashlib.sha256()
    for block in blocks:
        check.update(block)
    return blocks + [check.digest()]


class Rows:
    """The entries of a trailer being written, one fixed-size row of bytes a record (its kind's number, key
    prefix, place, size and, for an R record, face key): sorted as bytes, they are the trailer's order, and
    its blocks are their columns. Cheap to gather, compact, and no Python object a record."""

    def __init__(self):
        self.faces, self.rows = bytearray(), bytearray()  # R records' rows (with face keys), the others'
        self.records = 0  # in the file: an R record that holds no face key is not listed

    def add(self, record: bytes, position: int) -> None:
        self.records += 1
        kind = NUMBERS[record[0]]
        if kind:
            self.rows += bytes((kind,)) + record[1:17] + PLACE.pack(position, len(record))
        elif len(record) == HEADER.size + FACE + CHECK:  # an R record that holds no face key is not listed
            self.faces += b"\0" + record[1:17] + PLACE.pack(position, len(record)) + record[HEADER.size:-CHECK]

    def encode(self, start: int) -> list[bytes]:
        """The trailer of the pack these records make, starting at start."""
        width, blocks = 17 + PLACE.size, [bytearray() for _ in range(5)]
        counts = [len(self.faces) // (width + FACE)] + [self.rows[::width].count(kind) for kind in range(1, 4)]
        for rows, wide in ((self.faces, width + FACE), (self.rows, width)):
            for part in sorted_rows(rows, wide):
                for block, offset, size in zip(blocks, (1, 9, 17, 21, width), (8, 8, 4, 4, wide - width)):
                    column = bytearray(size * (len(part) // wide))
                    for byte in range(size):
                        column[byte::size] = part[offset + byte::wide]
                    block += column
        return framed(blocks, start, self.records, counts)


def sorted_rows(data: bytes | bytearray, wide: int):
    """The rows of data (wide bytes each) sorted, a few thousand at a time: rows are grouped by their kind and the
    first bits of their key (spread evenly: a digest's), so that no bytes object a row is made for all at once."""
    rows = len(data) // wide
    shift = 8 - min(8, max(0, (rows // GROUP).bit_length() - 1))  # one group of all when there are few
    groups: dict[int, array] = {}
    if shift < 8:
        for at in range(0, len(data), wide):
            groups.setdefault(data[at] << 8 | data[at + 1] >> shift, array(NARROW)).append(at)
    for group in sorted(groups) if groups else [None]:
        places = groups[group] if group is not None else range(0, len(data), wide)
        yield b"".join(sorted([data[at:at + wide] for at in places]))


def copy_records(segments: list, entries: list[int], trailer: bool):
    """A pack file: the records of entries (entry_of) copied from segments as written (if their checks still
    hold), read and written a chunk at a time (records are mostly kept in the order they lie in), then its
    trailer if asked."""
    out, windows, rows, done = bytearray(MAGIC), {}, Rows(), 0  # windows: segment number -> (where, chunk) read last
    for entry in entries:
        segment, position, size = split_entry(entry)
        start, window = windows.get(segment, (0, b""))
        if not start <= position <= position + size <= start + len(window):
            start, window = windows[segment] = position, segments[segment].read(position, max(size, SPAN))
        record = window[position - start:position - start + size]
        if len(record) == size if segments[segment].trusted else holds(record, size):
            if trailer:
                rows.add(record, done + len(out))
            out += record
        if len(out) >= SPAN:
            yield bytes(out)
            done += len(out)
            out.clear()
    yield bytes(out)
    yield from rows.encode(done + len(out)) if trailer else []


def appendix(table: Table, added: list[tuple[int, int]], segments: list) -> bytes | None:
    """The records of added (slot, entry_of) read from segments, then the trailer of the pack they make when
    written over the trailer of the one table lists; None when one cannot be read whole."""
    out, rows = bytearray(), []
    for slot, entry in added:
        segment, position, size = split_entry(entry)
        record = segments[segment].read(position, size)
        if len(record) != size:
            return None
        if slot & 3 or size == HEADER.size + FACE + CHECK:  # an R record that holds no face key is not listed
            rows.append((slot, table.start + len(out), size, record[HEADER.size:-CHECK] if not slot & 3 else b""))
        out += record
    return b"".join([out] + table.merged(rows, table.start + len(out), len(added)).encode())


def read_table(file, size: int) -> Table | None:
    """The table of the trailer at the end of a file of size bytes; None unless there is one, whole, that
    describes this file and whose check holds."""
    if not USABLE or size < FOOTER.size + TRAILER.size:
        return None
    mark, start, physical, *counts, check = FOOTER.unpack(read_at(file, FOOTER.size, size - FOOTER.size))
    listed = sum(counts)
    blocks = [8 * listed, 8 * listed, 4 * listed, 4 * listed, FACE * counts[0]]
    if mark != MARK or start + TRAILER.size + sum(blocks) + FOOTER.size != size or start < HEADER.size:
        return None
    data = read_at(file, size - start, start)
    if len(data) != size - start or hashlib.sha256(memoryview(data)[:-32]).digest() != check or \
            TRAILER.unpack_from(data) != (MARK, size - start):
        return None
    arrays, at = [], TRAILER.size
    for typecode, length in zip((WIDE, WIDE, NARROW, NARROW), blocks):
        items = array(typecode)
        items.frombytes(data[at:at + length])
        arrays.append(in_file_order(items))
        at += length
    if listed and (max(arrays[2]) >= start or max(arrays[3]) > start):
        return None
    return Table(*arrays, counts, data[at:at + blocks[4]], start, physical)

