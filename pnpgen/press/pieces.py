"""Turn a component's cards (their two face keys and copies) into the items impose() reads, 64 bytes a card."""
from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from typing import Iterator

from ..project.model import Size
from .geometry import KEY, pack_keys
from .impose import Item

DIGEST = KEY // 2  # bytes of a face key's digest
BOTH, NO_BACK, ODD = 0, 1, 2


class Pieces(Sequence):
    """Every piece of a component in print order, as Items made when read: a card's copies are one run holding its
    face keys as their digests (or as they are, if not SHA-256 in hex), so a deck is never 10,000 objects and strings
    while imposed. A piece of a tiled kind (a map, a sheet) is labelled with the component and its number."""

    __slots__ = ("size", "label", "digests", "flags", "ends", "odd", "last")

    def __init__(self, size: Size, label: str | None = None):
        self.size, self.label = size, label  # label: what "#n" follows on each piece, or None for none
        self.digests = bytearray()  # per run: its front's digest and its back's (zeros for none)
        self.flags = bytearray()  # per run: BOTH, NO_BACK, or ODD (its keys are in `odd`)
        self.ends = array("Q")  # pieces up to the end of each run
        self.odd: dict[int, tuple[str, str | None]] = {}
        self.last = [(b"", ""), (b"", "")]  # the front and the back read last, by digest: a shared back is one string

    def add(self, front: str, back: str | None, copies: int) -> None:
        """A card's copies, after the pieces added before."""
        run = len(self.ends)
        self.ends.append((self.ends[-1] if run else 0) + copies)
        packed = pack_keys((front,) if back is None else (front, back))
        if type(packed) is not bytes:
            self.flags.append(ODD)
            self.odd[run] = (front, back)
            packed = b""
        else:
            self.flags.append(BOTH if back is not None else NO_BACK)
        self.digests += packed.ljust(2 * DIGEST, b"\0")

    def name(self, side: int, digest: memoryview) -> str:
        if self.last[side][0] != digest:
            self.last[side] = (bytes(digest), digest.hex())
        return self.last[side][1]

    def keys(self, run: int) -> tuple[str, str | None]:
        flag = self.flags[run]
        if flag == ODD:
            return self.odd[run]
        at, view = 2 * DIGEST * run, memoryview(self.digests)
        front = self.name(0, view[at:at + DIGEST])
        return front, self.name(1, view[at + DIGEST:at + 2 * DIGEST]) if flag == BOTH else None

    def item(self, run: int, number: int, keys: tuple | None = None) -> Item:
        """The piece `number` (from 1), of run `run`."""
        label = "" if self.label is None else f"{self.label} #{number}"
        return Item(*(keys or self.keys(run)), self.size, label)

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[number] for number in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("piece index out of range")
        return self.item(bisect_right(self.ends, index), index + 1)

    def __iter__(self) -> Iterator[Item]:
        start = 0
        for run, end in enumerate(self.ends):
            keys = self.keys(run)
            shared = self.item(run, 0, keys) if self.label is None else None  # unlabelled copies: one Item
            for number in range(start + 1, end + 1):
                yield shared or self.item(run, number, keys)
            start = end

