"""Turn face records into the pack's file format and back, and into the index entries that find them again."""
from __future__ import annotations

import hashlib
import os
import stat
import struct
import tempfile
from pathlib import Path

MAGIC = b"pnpgen faces 1\n"
HEADER = struct.Struct(">c32sI")  # kind, key, payload length
CHECK = 32  # the SHA-256 of header and payload
KINDS = (b"R", b"A", b"S", b"F")
MARK = b"\0pnpidx1"  # starts a sealed pack's index (packindex.py): no record kind, so older readers stop there
TRAILER = struct.Struct(">8sQ")  # the mark, and how long the index is
MAX_PACK = 256 << 20  # far above a 10,000-card deck (~15 MB): a bigger file is not ours, and is not read
CHUNK = 1 << 20  # records are written out this much at a time
WINDOW, WINDOWS = 1 << 16, 4  # records are read this much at a time, from up to 4 places: the PDF writer asks
# for them nearly in file order


def encode_record(kind: bytes, key: bytes, payload: bytes) -> bytes:
    head = HEADER.pack(kind, key, len(payload))
    return head + payload + hashlib.sha256(head + payload).digest()


def holds(record: bytes, size: int) -> bool:
    """The record is whole (size bytes) and its check holds."""
    return len(record) == size and hashlib.sha256(memoryview(record)[:-CHECK]).digest() == record[-CHECK:]


class Segment:
    """A file of records: the pack as it was read, or the file one process appends its records to (they
    are buffered, and read back from the buffer until it is written out)."""

    def __init__(self, file, flushed: int = 0, writer: int = 0, trusted: bool = False):
        self.file, self.flushed, self.writer = file, flushed, writer
        self.trusted = trusted  # ours (this process's records, or a sealed pack): a record's check is not redone
        self.pending = bytearray()
        self.refused = False  # the disk refused a write: what follows stays in memory
        self.windows: list[tuple[int, bytes]] = []  # (where, bytes) read last: requests in order share a read
        self.info = None  # the file's status when it was opened (a pack)

    def read(self, position: int, size: int) -> bytes:
        if position >= self.flushed:
            start = position - self.flushed
            return bytes(self.pending[start:start + size])
        for at, window in self.windows:
            if at <= position and position + size <= at + len(window):
                return window[position - at:position - at + size]
        if size >= WINDOW:
            return read_at(self.file, size, position)
        window = read_at(self.file, min(WINDOW, self.flushed - position), position)
        # A request just past a window goes on reading in order there (a PDF's fronts and its backs are two
        # such streams); any other replaces the window read longest ago.
        follows = [n for n, (at, old) in enumerate(self.windows) if at <= position < at + len(old) + WINDOW]
        if follows:
            self.windows[follows[0]] = (position, window)
        else:
            self.windows = [(position, window)] + self.windows[:WINDOWS - 1]
        return window[:size]

    def append(self, record: bytes) -> int:
        position = self.flushed + len(self.pending)
        self.pending += record
        if len(self.pending) >= CHUNK:
            self.flush()
        return position

    def flush(self) -> None:
        """Write the buffer out (only the process that appends; without a file, or when the disk refuses,
        the records stay in memory: the build goes on)."""
        if self.file is None or self.refused or self.writer != os.getpid() or not self.pending:
            return
        try:
            write_at(self.file, self.pending, self.flushed)
        except OSError:
            self.refused = True
            return
        self.flushed += len(self.pending)
        self.pending = bytearray()


def temporary_file(pack: Path | None):
    """An unnamed file beside the pack (else in the system's temporary folder); None when none can be made."""
    for folder in ([pack.parent] if pack is not None else []) + [None]:
        try:
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            return tempfile.TemporaryFile(dir=folder)
        except OSError:
            continue
    return None


def open_pack(path: Path) -> Segment | None:
    """The pack file to read records from; None when it is missing, a link, too large, another user's or
    not a pack."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    file = os.fdopen(handle, "rb", buffering=0)
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PACK or (
            hasattr(os, "getuid") and info.st_uid != os.getuid()) or read_at(file, len(MAGIC), 0) != MAGIC:
        file.close()
        return None
    found = Segment(file, info.st_size)
    found.info = info
    return found


def read_records(file, start: int, end: int, trusted: bool = False):
    """(kind, key, position, record) for every record of the file from start whose check holds, up to the
    first that does not, read a window at a time (a few of them in memory, whatever the file's size); trusted:
    a file of ours, whose checks are not computed."""
    window, base, position = b"", start, start
    while position + HEADER.size + CHECK <= end:
        window, base = fill(file, window, base, position, HEADER.size)
        if len(window) < position - base + HEADER.size:
            return
        kind, key, length = HEADER.unpack_from(window, position - base)
        size = HEADER.size + length + CHECK
        if window.startswith(MARK, position - base):  # an index (packindex.py): records appended after it are read
            skip = TRAILER.unpack_from(window, position - base)[1]
            if skip < TRAILER.size:
                return
            position += skip
            continue
        if kind not in KINDS or position + size > end:
            return
        window, base = fill(file, window, base, position, size)
        record = window[position - base:position - base + size]
        if not trusted and not holds(record, size):
            return
        if trusted or kind != b"S" or hashlib.sha256(memoryview(record)[HEADER.size:-CHECK]).digest() == key:
            yield kind, key, position, record
        position += size


def fill(file, window: bytes, base: int, position: int, need: int) -> tuple[bytes, int]:
    """The window (a chunk of the file starting at base) moved on so that it holds need bytes from position,
    as far as the file has them."""
    if position + need <= base + len(window):
        return window, base
    kept = window[position - base:]
    return kept + read_at(file, max(need - len(kept), WINDOW), position + len(kept)), position


def read_at(file, size: int, position: int) -> bytes:
    """Up to size bytes from position, leaving the file's offset alone where the system can (a forked
    process shares it with its parent)."""
    if hasattr(os, "pread"):
        return os.pread(file.fileno(), size, position)
    file.seek(position)
    return file.read(size)


def write_at(file, data: bytes, position: int) -> None:
    if not hasattr(os, "pwrite"):
        file.seek(position)
        file.write(data)
        file.flush()
        return
    view, done = memoryview(data), 0
    while done < len(view):
        done += os.pwrite(file.fileno(), view[done:], position + done)


def check_record(record: bytes, kind: bytes, key: bytes, trusted: bool = False) -> bytes | None:
    """The payload of a record that is whole, of this kind and key, and whose check holds (not computed for a
    record of a trusted segment: a face's SVG is still compared with its key)."""
    if len(record) < HEADER.size + CHECK:
        return None
    found, found_key, length = HEADER.unpack_from(record)
    size = HEADER.size + length + CHECK
    if found != kind or found_key != key or not (len(record) == size if trusted else holds(record, size)):
        return None
    payload = record[HEADER.size:-CHECK]
    return payload if kind != b"S" or hashlib.sha256(payload).digest() == key else None


class Checked:
    """A set of face keys kept as a flag on the entries of their records of one kind in an index
    (packslots.Index; a record forgotten is unchecked)."""

    def __init__(self, index, kind: bytes):
        self.index, self.kind, self.number = index, kind, KINDS.index(kind)

    def __contains__(self, face_key: str) -> bool:
        return bool(self.index.get(slot_of(self.kind, face_key), 0) & CHECKED)

    def add(self, face_key: str) -> None:
        slot = slot_of(self.kind, face_key)
        entry = self.index.get(slot)
        if entry is not None and not entry & CHECKED:
            self.index[slot] = entry | CHECKED

    def clear(self) -> None:
        self.index.unflag(self.number, CHECKED)

    def discard(self, face_key: str) -> None:
        slot = slot_of(self.kind, face_key)
        entry = self.index.get(slot)
        if entry is not None:
            self.index[slot] = entry & ~CHECKED


SPAN = 1 << 16  # saving reads and writes records this much at a time: few system calls, little memory
USED, CHECKED, FLAGS = 1, 2, 10  # entry flags; FLAGS bits hold the flags and the segment number


def slot_of(kind: bytes, key: str) -> int:
    """The index key of a record: 128 bits of its key (hex) and its kind; the full key is checked when read."""
    return int(key[:32], 16) << 2 | KINDS.index(kind)


def entry_of(segment: int, position: int, size: int) -> int:
    return ((position << 32 | size) << FLAGS) | segment << 2


def split_entry(entry: int) -> tuple[int, int, int]:
    """(segment number, position, size in bytes) of an index entry."""
    return (entry >> 2) & 0xFF, entry >> (FLAGS + 32), (entry >> FLAGS) & 0xFFFFFFFF
