"""Turn a project's YAML file into what its parsers read: UTF-8 checked a piece at a time, then read by libyaml in
pieces (a large deck's file is never held whole while it is parsed), or whole for the pure-Python parser."""
from __future__ import annotations

import codecs
import io
from pathlib import Path

from ..errors import Location, PnpError
from ..files.reading import MAX_FILE_BYTES, refuse_large

BINARY_SIGNATURES = (b"\x89PNG", b"\xff\xd8\xff", b"%PDF", b"GIF8", b"PK\x03\x04")
PIECE = 1 << 16  # bytes checked at a time


class Opened:
    """A checked YAML file, open past its BOM: libyaml reads it in pieces; `whole` reads all of it again."""

    __slots__ = ("file", "start", "read")

    def __init__(self, file, start: int):
        self.file, self.start, self.read = file, start, file.read

    def size(self) -> int:
        """The bytes past the BOM."""
        self.file.seek(0, io.SEEK_END)
        size = self.file.tell() - self.start
        self.file.seek(self.start)
        return size

    def whole(self) -> bytes:
        self.file.seek(self.start)
        return self.file.read()

    def __enter__(self) -> "Opened":
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()


def open_utf8(path: Path, shown: str) -> Opened:
    """A UTF-8 file (a BOM is fine) opened for parsing once checked; the messages are read_utf8's."""
    refuse_unreadable(path, shown)
    try:
        file = path.open("rb")
    except OSError as err:
        raise unreadable(err, shown) from None
    try:
        first = file.read(PIECE)
        if not is_text(file, first):  # read_utf8 says what is wrong (or reads the file as it is now)
            file.close()
            return Opened(io.BytesIO(read_utf8(path, shown)), 0)
        start = len(codecs.BOM_UTF8) if first.startswith(codecs.BOM_UTF8) else 0
        file.seek(start)
    except OSError as err:
        file.close()
        raise unreadable(err, shown) from None
    return Opened(file, start)


def is_text(file, first: bytes) -> bool:
    """Whether the file is UTF-8 text, read a piece at a time: no text of the whole file is ever made."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    size = zeros = 0
    piece = first
    try:
        while piece:
            size, zeros = size + len(piece), zeros + piece.count(b"\x00")
            decoder.decode(piece)
            piece = file.read(PIECE)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return not (first.startswith(BINARY_SIGNATURES) or zeros > size // 100 + 1)


def read_utf8(path: Path, shown: str) -> bytes:
    """The bytes of a UTF-8 file, without a BOM: libyaml reads them as they are, where text it would copy back
    into UTF-8 first (a large file is then held three times over while it is parsed)."""
    refuse_unreadable(path, shown)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise unreadable(err, shown) from None
    if data.startswith(BINARY_SIGNATURES) or data.count(b"\x00") > len(data) // 100 + 1:
        raise PnpError("is a binary file, not text; expected a YAML file", Location(shown))
    try:
        data.decode("utf-8-sig")  # only to check (as before: an error counts from after a BOM); values are made by libyaml
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise PnpError(
            f"byte 0x{data[err.start]:02x} is not UTF-8; save the file as UTF-8",
            Location(shown, line, col),
        ) from None
    return data[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) else data


def refuse_unreadable(path: Path, shown: str) -> None:
    if path.is_dir():
        raise PnpError("is a folder; expected a YAML file", Location(shown))
    refuse_large(path, MAX_FILE_BYTES, Location(shown), "YAML file")


def unreadable(err: OSError, shown: str) -> PnpError:
    if isinstance(err, FileNotFoundError):
        return PnpError("file not found; expected a YAML file at this path", Location(shown))
    return PnpError(f"cannot read the file ({err.strerror})", Location(shown))


def size_of(source: str | bytes | Opened) -> int:
    """The bytes a parser is given, as UTF-8: of text, or of a file opened for it (either parser counts the same)."""
    if isinstance(source, str):
        return len(source.encode("utf-8", "surrogatepass"))
    return len(source) if isinstance(source, bytes) else source.size()


def whole_text(source: str | bytes | Opened) -> str:
    """All the text a parser was given (an opened file read again from past its BOM)."""
    if isinstance(source, Opened):
        source = source.whole()
    return source.decode("utf-8") if isinstance(source, bytes) else source


def find_source(path: Path) -> Path:
    """The project's top YAML file: cards.yaml in a folder, or the file named."""
    return path / "cards.yaml" if path.is_dir() else path
