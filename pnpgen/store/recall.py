"""Turn the records a process read from a cache file into what its next builds read without asking the file again.

Only a process that builds again (pnpgen watch, serve) keeps them. A record read there held its checksum when it
was read; what a build does with it is checked every build all the same (a form's fonts and images, the form a
marks record was read from), and whatever this process writes or forgets under a key replaces what it read. A
record another process rewrote meanwhile is the one it read before: checking it finds it out of date, as it finds
an old record in the file out of date.
"""
from __future__ import annotations

from collections import OrderedDict

KEPT_BYTES = 32 << 20  # the payloads kept at most: the most recently read go on, the oldest go


class Recall:
    """(cache file's name, kind, key) -> (rowid, payload, checksum) of the records read, once keep_reads() asks for
    it."""

    def __init__(self):
        self.on = False
        self.rows: OrderedDict[tuple, tuple[int, bytes, bytes]] = OrderedDict()
        self.size = 0

    def get(self, path, kind: bytes, key: bytes) -> tuple[int, bytes, bytes] | None:
        found = self.rows.get((path, kind, key)) if self.on else None
        if found is not None:
            self.rows.move_to_end((path, kind, key))
        return found

    def keep(self, path, kind: bytes, key: bytes, row: tuple) -> None:
        """row: (rowid, payload, checksum) as the file gave it, its checksum held."""
        if not self.on:
            return
        self.drop(path, kind, key)
        self.rows[(path, kind, key)] = tuple(row)
        self.size += len(row[1])
        while self.size > KEPT_BYTES:
            _, (_, payload, _) = self.rows.popitem(last=False)
            self.size -= len(payload)

    def drop(self, path, kind: bytes, key: bytes) -> None:
        found = self.rows.pop((path, kind, key), None) if self.rows else None
        if found is not None:
            self.size -= len(found[1])


READS = Recall()


def keep_reads() -> None:
    """From now on this process keeps what its builds read (a process that builds again calls it once)."""
    READS.on = True
