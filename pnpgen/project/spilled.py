"""Turn a big YAML list's items (a deck's cards) into records of a spill file as they are built, and back when read."""
from __future__ import annotations

from array import array
from typing import Iterator

from .located import LList, LMap, Marks
from .spill import HELD, Spill

SCALARS = frozenset((str, int, float, bool, type(None)))  # what a YAML scalar reads as (a date as its ISO text)
KEPT = ()  # the record of an item that stays in memory at its index
BLOCK = 64  # records written (and read) together
FORGET = 1024  # texts the builder keeps for sharing, past which it starts again while items are spilled


class Unfit(Exception):
    """An item holds what records do not carry (a value of another type, places set by hand): it stays in memory."""


class SpilledList(LList):
    """A YAML list that holds its first HELD items as any LList does and the later ones as records of a Spill, made
    again each time they are read: a 10,000-card deck holds a few bytes a card while it is loaded, not its LMap.

    BLOCK items make one record, a tuple of theirs: a mapping of plain values is the dict of it, which marshal writes
    fast and in order, each key once a block (read back interned: the builder's own keys), its `at` in the file's
    Marks held in an array; one holding lists or mappings is spelled out (see encode). Decoded, an item has the
    file's Marks and its `at`, so `where()`, `where_key()`, `packed()` answer as for the item built. An item the builder
    just made has the file's places: a mapping is not asked whether they were set by hand (costly, and the builder
    never does), the values in it are (see encode). The list's C-level storage holds only the first HELD items:
    everything that reads it is overridden here."""

    __slots__ = ("spill", "size", "block", "ats", "kept", "seen", "firsts", "forget")

    def __init__(self, marks: Marks, forget: tuple = ()):
        super().__init__()
        self.marks = marks
        self.spill: Spill | None = None
        self.size = 0
        self.block: list = []  # items appended, not yet written
        self.ats = array("I")  # each spilled item's `at` (4 bytes an item), so that most records are a plain dict
        self.kept: dict[int, object] = {}  # index -> an item that is not spilled (see Unfit)
        self.seen: set[tuple] = set()  # the keys of the spilled mappings
        self.firsts: list[int] = []  # the mappings past the held ones that are the first to name their keys
        self.forget = forget  # the builder's texts kept for sharing, emptied as items are spilled: theirs are not held

    def append(self, item) -> None:
        """One more item at the end, while the list is being built."""
        index = self.size
        self.size = index + 1
        if index < HELD:
            list.append(self, item)
            return
        self.block.append(item)
        if len(self.block) == BLOCK:
            self.write()

    def write(self) -> None:
        """The items appended since the last write, as one record."""
        if self.spill is None:
            self.spill = Spill()
        first, marks, seen = self.size - len(self.block), self.marks, self.seen
        records = []
        for index, item in enumerate(self.block, first):
            if type(item) is LMap and getattr(item, "marks", None) is marks:
                records.append(dict(item))  # most: marshal writes it fast (unless a value is not plain)
                self.ats.append(item.at)
            else:
                records.append(self.spell(index, item))
                self.ats.append(0)
            if isinstance(item, LMap):
                keys = tuple(item)
                if keys not in seen:
                    seen.add(keys)
                    self.firsts.append(index)
        try:
            self.spill.append(tuple(records))
        except ValueError:  # marshal met a list or mapping among a mapping's values: those spelled out
            self.spill.append(tuple(self.spell(index, item) if type(record) is dict else record
                                    for index, (item, record) in enumerate(zip(self.block, records), first)))
        self.block.clear()
        for kept in self.forget:
            if len(kept) > FORGET:
                kept.clear()

    def spell(self, index: int, item):
        """An item's record, or KEPT when it stays in memory."""
        try:
            return self.encode(item)
        except Unfit:
            self.kept[index] = item
            return KEPT

    def close(self) -> None:
        """Built: what was appended is written out and the builder's texts are left alone."""
        self.forget = ()
        if self.block:
            self.write()
        if self.spill is not None:
            self.spill.flush()

    def encode(self, value):
        """A value as builtins: a mapping (at, {key: encoded}, 0), a list (at, (items encoded)), a scalar itself."""
        kind = type(value)
        if kind in SCALARS:
            return value
        if kind is SpilledList and value.spill is None:  # a card's own `cards:` field, short: as any list
            kind = LList
        if (kind is not LMap and kind is not LList) or getattr(value, "marks", None) is not self.marks:
            raise Unfit
        if hasattr(value, "_loc"):  # places set by hand: a record has only the file's
            raise Unfit
        if kind is LList:
            return value.at, tuple(map(self.encode, value))
        return value.at, {key: self.encode(item) for key, item in value.items()}, 0

    def decode(self, record, at: int = 0):
        """An item again: a plain dict record is a mapping standing at `at`; a tuple is spelled out (see encode)."""
        if type(record) is dict:
            out, out.at = LMap(record), at
        elif type(record) is not tuple:
            return record
        elif len(record) == 3:
            out, out.at = LMap({key: self.decode(item) for key, item in record[1].items()}), record[0]
        else:
            out, out.at = LList(map(self.decode, record[1])), record[0]
        out.marks = self.marks
        return out

    def samples(self) -> Iterator:
        """The items in order, but of the spilled mappings only the first of each set of keys: what names the fields."""
        yield from list.__iter__(self)
        for index in self.firsts:
            yield self[index]

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator:
        yield from list.__iter__(self)
        if self.spill is not None:
            index, kept, decode, marks, ats = list.__len__(self), self.kept, self.decode, self.marks, iter(self.ats)
            for records in self.spill:
                for record, at in zip(records, ats):
                    if type(record) is dict:  # most: decode()'s first case
                        item = LMap(record)
                        item.marks, item.at = marks, at
                        yield item
                    else:
                        yield decode(record) if record != KEPT else kept[index]
                    index += 1
        yield from self.block  # read while it is built

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[number] for number in range(*index.indices(self.size))]
        number = index + self.size if index < 0 else index
        if not 0 <= number < self.size:
            raise IndexError("list index out of range")
        held = list.__len__(self)
        if number < held:
            return list.__getitem__(self, number)
        if number in self.kept:
            return self.kept[number]
        block, at = divmod(number - held, BLOCK)
        if self.spill is None or block == len(self.spill):  # read while it is built
            return self.block[at]
        return self.decode(self.spill[block][at], self.ats[number - held])

    def __reversed__(self) -> Iterator:
        return (self[index] for index in range(len(self) - 1, -1, -1))

    def __contains__(self, value) -> bool:
        return any(item is value or item == value for item in self)

    def __eq__(self, other) -> bool:
        if not isinstance(other, list):
            return NotImplemented
        return len(self) == len(other) and all(mine == theirs for mine, theirs in zip(self, other))

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __add__(self, other) -> list:
        return [*self, *other]

    def __radd__(self, other) -> list:
        return [*other, *self]

    def __repr__(self) -> str:
        return repr(list(self))

    def index(self, value, *bounds) -> int:
        return list(self).index(value, *bounds)

    def count(self, value) -> int:
        return list(self).count(value)

    def copy(self) -> list:
        return list(self)
