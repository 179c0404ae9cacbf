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
    numbers) that the loader made itself, never bytes the project wrote; the file is gone when the Spill is. Where no
    temporary file can be made or written (a full disk), the records stay in memory: the build goes on."""

    __slots__ = ("file", "ends", "pending", "written", "stuck")

    def __init__(self):
        try:
            self.file = tempfile.TemporaryFile(prefix="pnpgen-")
        except OSError:
            self.file = None
        self.ends = array("Q")  # where each record ends; the first starts at 0
        self.pending = bytearray()  # what follows the `written` bytes in the file: appended, not yet written
        self.written = 0
        self.stuck = self.file is None  # nothing more is written: the rest stays pending

    def __len__(self) -> int:
        return len(self.ends)

    def append(self, value) -> None:
        data = marshal.dumps(value)
        self.pending += data
        self.ends.append(self.written + len(self.pending))
        if len(self.pending) >= WINDOW:
            self.flush()

    def flush(self) -> None:
        """Write what was appended at its own place (not the file's end): a forked process that writes it too
        writes the same bytes at the same place."""
        if not self.pending or self.stuck:
            return
        try:
            if hasattr(os, "pwrite"):
                os.pwrite(self.file.fileno(), self.pending, self.written)
            else:
                self.file.seek(self.written)
                self.file.write(self.pending)
                self.file.flush()
        except OSError:
            self.stuck = True
            return
        self.written += len(self.pending)
        self.pending.clear()

    def __getitem__(self, index: int):
        start = self.ends[index - 1] if index else 0
        return marshal.loads(self.read(start, self.ends[index] - start))

    def __iter__(self) -> Iterator:
        return self.iterate(0, len(self.ends))

    def iterate(self, first: int, stop: int) -> Iterator:
        """Records first..stop-1 in order, a window of the file read at a time."""
        return self.pick(range(first, stop))

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
        """The bytes from `start`: those written from the file, those not yet from memory."""
        written, end = self.written, start + size
        if start >= written:
            return bytes(self.pending[start - written:end - written])
        if end > written:
            return self.read(start, written - start) + bytes(self.pending[:end - written])
        if hasattr(os, "pread"):  # a forked helper shares the file's position: pread leaves it alone
            return os.pread(self.file.fileno(), size, start)
        self.file.seek(start)
        return self.file.read(size)
