"""Turn a face pack's records into the index a build asks, slot -> entry: a sealed pack's table, under the
entries the build adds kept in arrays, a few dozen bytes an entry (a dict of them held ~120: 3.7 MB at
10,000 cards), with no Python object for any but the newest."""
from __future__ import annotations

from array import array

from .packfile import FLAGS
from .packindex import GONE, HALF, Table

FLAG_BITS, DEAD, KIND = 3, 4, 3  # a row's mark: its flags (USED, CHECKED), popped or replaced, its kind << 3
BUCKET, SHORT = "i", (1 << 32) - 1  # a row's number, or -1 (empty): 4 bytes; a row's hash, cut to 4 bytes
FRESH = 1024  # entries kept in a dict before they go into rows: the newest are the ones asked for again at once


class Index:
    """slot (packfile.slot_of) -> entry (packfile.entry_of, with its flags), answering as a dict does: a
    sealed pack's table, under the entries this build added or changed (and, for a pack that is not sealed,
    every record scanned), in the order they were added. The newest are in a small dict, the others in rows
    of arrays (a key prefix's halves, where the record lies, its segment's number, and a mark: kind, flags,
    popped) found through buckets, an open-addressing table of row numbers at most half full, probed from
    the slot's hash. A popped row keeps its bucket, so that probes pass it, until the buckets are remade."""

    def __init__(self, table: Table | None = None):
        self.table = table
        self.fresh: dict[int, int] = {}
        self.highs, self.lows, self.places, self.codes = array("Q"), array("Q"), array("Q"), array("I")
        self.segments, self.marks = bytearray(), bytearray()
        self.dead = 0  # rows popped or replaced
        self.make_buckets(0)

    def make_buckets(self, rows: int) -> None:
        size = 64
        while size < 4 * rows:
            size *= 2
        self.buckets, self.mask = array(BUCKET, [-1]) * size, size - 1
        self.last_slot, self.last_row = -1, -1  # the slot looked up last among the rows: it is often updated next

    def row(self, slot: int) -> int:
        """The number of slot's row, or -1 (popped rows are passed: a key popped and added again has two)."""
        if slot == self.last_slot:
            return self.last_row
        code = hash(slot) & SHORT
        at, buckets = code & self.mask, self.buckets
        number = buckets[at]
        if number >= 0:
            codes, step = self.codes, code >> 17 | 1  # odd: the probes visit every bucket
            while number >= 0 and not (codes[number] == code and self.highs[number] == slot >> 66 and  # a live row
                                       self.marks[number] >> 2 == (slot & 3) << 1 and  # of the kind
                                       self.lows[number] == slot >> 2 & HALF):
                at = at + step & self.mask
                number = buckets[at]
        self.last_slot, self.last_row = slot, number
        return number

    def entry_at(self, number: int) -> int:
        return self.places[number] << FLAGS | self.segments[number] << 2 | self.marks[number] & FLAG_BITS

    def find_added(self, slot: int) -> int | None:
        """The entry this build added or changed for slot, or None."""
        entry = self.fresh.get(slot)
        return self.entry_at(self.last_row) if entry is None and self.marks and self.row(slot) >= 0 else entry

    def get(self, slot: int, default: int | None = None) -> int | None:
        entry = self.fresh.get(slot)  # the lookups most asked are as cheap as a dict's
        if entry is not None:
            return entry
        number = self.row(slot) if self.marks else -1
        if number >= 0:
            return self.entry_at(number)
        at = self.table.find(slot) if self.table is not None else -1
        return default if at < 0 else self.table.entry(at)

    def __contains__(self, slot: int) -> bool:
        return slot in self.fresh or bool(self.marks) and self.row(slot) >= 0 or \
            self.table is not None and self.table.find(slot) >= 0

    def __setitem__(self, slot: int, entry: int) -> None:
        fresh = self.fresh
        if slot in fresh:
            fresh[slot] = entry
            return
        number = self.row(slot) if self.marks else -1
        if number >= 0:  # in place, as a dict keeps a key's order
            self.places[number], self.segments[number] = entry >> FLAGS, entry >> 2 & 0xFF
            self.marks[number] = (slot & 3) << KIND | entry & FLAG_BITS
            return
        at = self.table.find(slot) if self.table is not None else -1
        if at >= 0 and entry >> 2 == self.table.entry(at) >> 2:  # the table's record: its flags change
            self.table.flags[at] = entry & 3
            return
        if at >= 0:
            self.table.flags[at] |= GONE
        fresh[slot] = entry
        if len(fresh) >= FRESH:
            self.settle()

    def pop(self, slot: int, default: int | None = None) -> int | None:
        entry = self.fresh.pop(slot, None)
        if entry is None:
            entry = self.find_added(slot)
            if entry is not None:
                self.marks[self.last_row] |= DEAD
                self.dead, self.last_slot = self.dead + 1, -1
        at = self.table.find(slot) if entry is None and self.table is not None else -1
        if at >= 0:
            entry = self.table.entry(at)
            self.table.flags[at] |= GONE
        return default if entry is None else entry

    def __delitem__(self, slot: int) -> None:
        self.pop(slot)

    def __len__(self) -> int:
        gone = sum(self.table.flags.count(value) for value in range(256) if value & GONE) if self.table else 0
        return len(self.marks) - self.dead + len(self.fresh) + (len(self.table.flags) - gone if self.table else 0)

    def added_items(self):
        """(slot, entry) for each entry this build added or changed, in the order they were added."""
        for high, low, place, segment, mark in zip(self.highs, self.lows, self.places, self.segments, self.marks):
            if not mark & DEAD:
                yield high << 66 | low << 2 | mark >> KIND, place << FLAGS | segment << 2 | mark & FLAG_BITS
        yield from self.fresh.items()

    def items(self):
        yield from self.added_items()
        if self.table is not None:
            for at in range(len(self.table.flags)):
                if not self.table.flags[at] & GONE:
                    yield self.table.slot(at), self.table.entry(at)

    def unflag(self, kind: int, flag: int) -> None:
        """Take the flag off every entry of the kind (a number)."""
        self.marks = self.marks.translate(bytes(mark & ~flag if mark >> KIND == kind else mark for mark in range(256)))
        for slot, entry in self.fresh.items():
            if slot & 3 == kind:
                self.fresh[slot] = entry & ~flag
        if self.table is not None:
            start, end = self.table.bounds[kind], self.table.bounds[kind + 1]
            self.table.flags[start:end] = self.table.flags[start:end].translate(bytes(v & ~flag for v in range(256)))

    def settle(self) -> None:
        """Move the fresh entries into rows, after the others; the buckets are remade (without popped rows)
        when they would be more than half full."""
        first, fresh = len(self.marks), self.fresh
        self.highs.extend([slot >> 66 for slot in fresh])
        self.lows.extend([slot >> 2 & HALF for slot in fresh])
        self.codes.extend([hash(slot) & SHORT for slot in fresh])
        self.places.extend([entry >> FLAGS for entry in fresh.values()])
        self.segments.extend([entry >> 2 & 0xFF for entry in fresh.values()])
        self.marks.extend([(slot & 3) << KIND | entry & FLAG_BITS for slot, entry in fresh.items()])
        self.fresh = {}
        if 2 * len(self.marks) > self.mask:
            self.drop_dead()
            self.make_buckets(len(self.marks))
            first = 0
        self.last_slot = -1
        buckets, mask = self.buckets, self.mask
        for number, code in enumerate(self.codes[first:], first):
            at = code & mask
            while buckets[at] >= 0:
                at = at + (code >> 17 | 1) & mask
            buckets[at] = number

    def drop_dead(self) -> None:
        """The rows without the popped ones (numbered anew: the buckets are remade after)."""
        if self.dead:
            live = [number for number, mark in enumerate(self.marks) if not mark & DEAD]
            for name in ("highs", "lows", "places", "codes", "segments", "marks"):
                column = getattr(self, name)
                kept = map(column.__getitem__, live)
                setattr(self, name, array(column.typecode, kept) if isinstance(column, array) else bytearray(kept))
            self.dead = 0
