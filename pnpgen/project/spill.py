"""Turn values a project holds by the thousand (a big deck's cards) into records of an unnamed temporary file and back."""
from __future__ import annotations

import marshal
import os
import tempfile
from array import array
from typing import Iterable, Iterator

WINDOW = 1 << 16  # bytes read at once when records are read in order
HELD = 2048  # items a list keeps in memory before it spills them: a small deck is read as fast as ever


class Spill:
    """Records appended to one unnamed temporary file and read back by number, so that memory does not grow with a
    deck: what stays in memory is 8 bytes a record. A record is a marshalled value of builtin types (tuples, text,
    numbers) that the loader made itself, never bytes the project wrote; the file is gone when the Spill is."""

    __slots__ = ("file", "ends", "pending")

    def __init__(self):
        self.file = tempfile.TemporaryFile(prefix="pnpgen-")
        self.ends = array("Q")  # where each record ends in the file; the first starts at 0
        self.pending = bytearray()  # appended, not yet written

    def __len__(self) -> int:
        return len(self.ends)

    def append(self, value) -> None:
        data = marshal.dumps(value)
        self.pending += data
        self.ends.append((self.ends[-1] if self.ends else 0) + len(data))
        if len(self.pending) >= WINDOW:
            self.flush()

    def flush(self) -> None:
        """Write what was appended at its own place (not the file's end): a forked process that writes it too
        writes the same bytes at the same place."""
        if self.pending:
            at = self.ends[-1] - len(self.pending)
            if hasattr(os, "pwrite"):
                os.pwrite(self.file.fileno(), self.pending, at)
            else:
                self.file.seek(at)
                self.file.write(self.pending)
                self.file.flush()
            self.pending.clear()

    def __getitem__(self, index: int):
        start = self.ends[index - 1] if index else 0
        return marshal.loads(self.read(start, self.ends[index] - start))

    def __iter__(self) -> Iterator:
        return self.iterate(0, len(self.ends))

    def iterate(self, first: int, stop: int) -> Iterator:
        """Records first..stop-1 in order, a window of the file read at a time."""
        ends, index = self.ends, first
        while index < stop:
            start = ends[index - 1] if index else 0
            last = index
            while last + 1 < stop and ends[last + 1] - start <= WINDOW:
                last += 1
            data = memoryview(self.read(start, ends[last] - start))
            for number in range(index, last + 1):
                begin = (ends[number - 1] if number else 0) - start
                yield marshal.loads(data[begin:ends[number] - start])
            index = last + 1

    def pick(self, numbers: Iterable[int]) -> Iterator:
        """The records of these numbers, in ascending order, a window of the file read at a time."""
        ends, stop = self.ends, len(self.ends)
        window, start, end = memoryview(b""), 0, 0
        for number in numbers:
            begin = ends[number - 1] if number else 0
            if begin < start or ends[number] > end:  # not in the window read last: read the one it starts
                last = number
                while last + 1 < stop and ends[last + 1] - begin <= WINDOW:
                    last += 1
                start, end = begin, ends[last]
                window = memoryview(self.read(start, end - start))
            yield marshal.loads(window[begin - start:ends[number] - start])

    def read(self, start: int, size: int) -> bytes:
        self.flush()
        if hasattr(os, "pread"):  # a forked helper shares the file's position: pread leaves it alone
            return os.pread(self.file.fileno(), size, start)
        self.file.seek(start)
        return self.file.read(size)
