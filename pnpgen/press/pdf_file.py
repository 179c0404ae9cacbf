"""Turn PDF objects into a PDF file as they come: each is written at once, only its offset is kept."""
from __future__ import annotations

import hashlib
import zlib
from array import array
from typing import BinaryIO, Sequence

HEADER = b"%PDF-1.4\n%\x93\x8c\x8b\x9e pnpgen\n"
FLUSH_SIZE = 1 << 16  # bytes gathered before a write: fewer calls than one per object, little held
XREF_BATCH = 1024  # cross-reference entries made and written at a time: the table is never held whole
EPOCH = "D:20000101000000+00'00'"  # a fixed date: the same inputs make the same bytes


class PdfFile:
    """Objects are numbered by reserve() (so that others can refer to them before they exist) and written
    by put(); finish() writes the cross-reference table and trailer. Memory holds one offset per object.
    Every file of outs gets the same objects; each its own Info, the last object (the same PDF under two titles)."""

    def __init__(self, outs: Sequence[BinaryIO], header: bytes = HEADER):
        self.outs = outs
        self.offsets = array("Q", [0])  # by object number; 0 until written (8 bytes each, not an int object)
        self.position = 0
        self.hasher = hashlib.md5()  # noqa: S324 - the document ID, not security
        self.pending: list[bytes] = []  # objects not yet written: hashed and written some at a time
        self.pending_size = 0
        self.emit(header)

    def emit(self, data: bytes) -> None:
        self.pending.append(data)
        self.pending_size += len(data)
        self.position += len(data)
        if self.pending_size >= FLUSH_SIZE:
            self.flush()

    def flush(self) -> None:
        data = b"".join(self.pending)
        for out in self.outs:
            out.write(data)
        self.hasher.update(data)
        self.pending, self.pending_size = [], 0

    def reserve(self) -> int:
        self.offsets.append(0)
        return len(self.offsets) - 1

    def put(self, number: int, body: bytes) -> int:
        """Write object number with body (its text between `obj` and `endobj`)."""
        if self.offsets[number]:
            raise ValueError(f"object {number} written twice")
        self.offsets[number] = self.position
        self.emit(b"%d 0 obj\n" % number + body + b"\nendobj\n")
        return number

    def add(self, body: bytes) -> int:
        return self.put(self.reserve(), body)

    def add_stream(self, template: bytes, data: bytes) -> int:
        """add() an object whose whole text (from "N 0 obj") is template % (its number, len(data), data): a
        form's, copied once."""
        number = len(self.offsets)
        self.offsets.append(self.position)
        self.emit(template % (number, len(data), data))
        return number

    def finish(self, root: int, infos: Sequence[bytes]) -> None:
        """Write the Info object (infos: its body in each file of outs), the cross-reference table and trailer."""
        info = self.reserve()
        self.offsets[info] = self.position
        if 0 in self.offsets[1:]:
            missing = [n for n, offset in enumerate(self.offsets) if n and not offset]
            raise ValueError(f"objects {missing[:5]} reserved but never written")
        self.flush()
        size = len(self.offsets)
        tails = []
        for body in infos:
            tail = [b"%d 0 obj\n" % info + body + b"\nendobj\n"]
            identity = self.hasher.copy()
            identity.update(tail[0])
            tail.append(b"xref\n0 %d\n0000000000 65535 f \n" % size)
            tails.append((tail, identity.hexdigest().encode("ascii"), self.position + len(tail[0])))
        for at in range(1, size, XREF_BATCH):  # the same entries in every file: made once
            entries = b"".join([b"%010d 00000 n \n" % offset for offset in self.offsets[at:at + XREF_BATCH]])
            for out, (tail, _, _) in zip(self.outs, tails):
                out.write(b"".join(tail))
                tail.clear()
                out.write(entries)
        for out, (tail, identity, start) in zip(self.outs, tails):
            out.write(b"".join(tail) + b"trailer\n<<\n/ID [<%s><%s>]\n/Info %d 0 R\n/Root %d 0 R\n/Size %d\n>>\n"
                      b"startxref\n%d\n%%%%EOF\n" % (identity, identity, info, root, size, start))


def stream(entries: bytes, data: bytes, compress: bool = True) -> bytes:
    """A stream object's body: its dictionary entries (without << >>), then the data, deflated if asked."""
    if compress:
        data = zlib.compress(data)
        entries += b" /Filter /FlateDecode"
    return b"<< %s /Length %d >>\nstream\n" % (entries.strip(), len(data)) + data + b"\nendstream"


def text_string(text: str) -> bytes:
    """A PDF text string: UTF-16BE with its byte order mark, in hex (any text, nothing to escape)."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def form_name(face: str) -> str:
    """The PDF name of a face's Form XObject, stable across runs."""
    return "F" + hashlib.sha1(face.encode("utf-8")).hexdigest()[:16]  # noqa: S324 - a name, not security
