"""Turn one YAML file's packed (line, col) pairs into the Locations of its mappings, keys and items, when asked."""
from __future__ import annotations

from array import array

from ..errors import Location

UNSET = object()
SMALL = 8  # up to this many keys a lookup walks the mapping; a larger one builds its dict of locations once


class Marks:
    """Where every value of one file stands, two unsigned ints (line, col) a value, shared by all its containers:
    a card costs a few bytes of positions instead of a Location object (and dicts of them) for each value."""

    __slots__ = ("file", "spots", "shapes")

    def __init__(self, file: str):
        self.file = file
        self.spots = array("H")  # two bytes a number while they fit (a file of fewer than 65,536 lines), then four
        self.shapes: dict[tuple, Entries] = {}  # the keys of a mapping -> one Entries for all cards that share them

    def add(self, pairs) -> int:
        """Keep one container's positions (itself first; a list, or a big list's array); return where they start."""
        at = len(self.spots)
        try:
            try:
                self.spots.extend(pairs)
            except TypeError:  # an array of another kind: the numbers, as the file's kind
                self.spots.extend(array(self.spots.typecode, pairs))
        except OverflowError:  # a number past 65,535: every position takes four bytes from now on
            del self.spots[at:]
            self.spots = array("I", self.spots)
            self.spots.extend(pairs)
        return at

    def location(self, at: int) -> Location:
        return Location(self.file, self.spots[at], self.spots[at + 1])


class Places:
    """An attribute of a container: set by hand it holds what it was given; else it is made from the file's Marks
    when read, and kept (dicts of places, once asked for) or not (the container's own place, made each time, so a
    container holds its own `_loc` only when its places were set by hand)."""

    def __init__(self, make, keep: bool = True):
        self.make, self.keep = make, keep

    def __set_name__(self, owner, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, holder, owner=None):
        if holder is None:
            return self
        value = getattr(holder, self.slot, UNSET)
        if value is UNSET:
            value = self.make(holder)
            if self.keep:
                setattr(holder, self.slot, value)
        return value

    def __set__(self, holder, value) -> None:
        if self.keep and hasattr(holder, "marks") and not hasattr(holder, "_loc"):
            holder._loc = holder.loc  # a loaded container given places by hand holds its own: see LMap.packed
        setattr(holder, self.slot, value)


def own_place(holder) -> Location:
    return holder.marks.location(holder.at)


class LMap(dict):
    """A YAML mapping: a dict that also knows where it, each key and each value stand.

    A loaded one reads its places from the file's Marks (itself, then key and value of each entry in order);
    one made by hand, or whose places are changed, holds them in `loc`, `key_locs` and `value_locs`."""

    __slots__ = ("marks", "at", "_loc", "_key_locs", "_value_locs")
    loc = Places(own_place, keep=False)
    key_locs = Places(lambda m: {key: m.marks.location(m.at + 2 + 4 * i) for i, key in enumerate(m)})
    value_locs = Places(lambda m: {key: m.marks.location(m.at + 4 + 4 * i) for i, key in enumerate(m)})

    def where(self, key) -> Location:
        if not hasattr(self, "_value_locs") and len(self) <= SMALL:
            return self.find(key, 4)
        return self.value_locs.get(key, self.loc)

    def where_key(self, key) -> Location:
        if not hasattr(self, "_key_locs") and len(self) <= SMALL:
            return self.find(key, 2)
        return self.key_locs.get(key, self.loc)

    def find(self, key, offset: int) -> Location:
        """The place of a key (offset 2) or its value (offset 4), by the key's rank in the mapping."""
        if key in self:
            for index, known in enumerate(self):
                if known is key or known == key:
                    return self.marks.location(self.at + offset + 4 * index)
        return self.loc

    def fields_at(self, skip: str) -> tuple:
        """(name, Location) of each value but `skip`'s (a loaded card keeps its packed places instead: see packed)."""
        return tuple((str(key), self.where(key)) for key in self if key != skip)

    def packed(self) -> tuple["Entries", int] | None:
        """(the Entries shared by the file's mappings of the same keys, where this one's places start), for a loaded
        mapping whose places were not set by hand; a card keeps these two instead of any Location."""
        if not hasattr(self, "marks") or hasattr(self, "_loc"):  # made by hand, or given places by hand
            return None
        keys = tuple(self)
        entries = self.marks.shapes.get(keys)
        if entries is None:
            entries = self.marks.shapes[keys] = Entries(self.marks, keys)
        return entries, self.at

    def spots_of(self, index: int) -> tuple:
        """The packed places of entry `index` (key, then value), for a mapping that takes the entry over."""
        start = self.at + 2 + 4 * index
        return tuple(self.marks.spots[start:start + 4])


class Entries:
    """The places of a file's mappings that name the same keys in the same order: where one of them stands and where
    each of its values does, read from the file's Marks at the mapping's offset."""

    __slots__ = ("marks", "names")

    def __init__(self, marks: Marks, names: tuple):
        self.marks, self.names = marks, names

    def location(self, at: int) -> Location:
        return self.marks.location(at)

    def cells(self, at: int, skip: str) -> "Spots":
        return Spots(self.marks, at, self.names, skip)


class Spots:
    """Where each value of a loaded mapping stands, as (name, Location) pairs made when iterated."""

    __slots__ = ("marks", "at", "names", "skip")  # no `keys`: dict() would take it for a mapping

    def __init__(self, marks: Marks, at: int, names: tuple, skip: str):
        self.marks, self.at, self.names, self.skip = marks, at, names, skip

    def __iter__(self):
        for index, key in enumerate(self.names):
            if key != self.skip:
                yield str(key), self.marks.location(self.at + 4 + 4 * index)

    def __len__(self) -> int:
        return sum(1 for key in self.names if key != self.skip)

    def __eq__(self, other) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, Spots) else other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self):  # sent to another process as the plain pairs, not the file's whole Marks
        return tuple, (tuple(self),)


class LList(list):
    """A YAML sequence that knows where it and each item stand (from the file's Marks, or set by hand)."""

    __slots__ = ("marks", "at", "_loc", "_item_locs")
    loc = Places(own_place, keep=False)
    item_locs = Places(lambda s: [s.marks.location(s.at + 2 + 2 * i) for i in range(len(s))])

    def where(self, index: int) -> Location:
        if not hasattr(self, "_item_locs") and 0 <= index < len(self):
            return self.marks.location(self.at + 2 + 2 * index)
        return self.item_locs[index] if index < len(self.item_locs) else self.loc
