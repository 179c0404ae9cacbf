"""Turn Python values into SHA-256 digests that no other list of values shares (length-prefixed parts)."""
from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

PIECE = 1 << 16  # bytes read at a time: a data file is never held whole to be hashed


def digest(*parts: object) -> str:
    """SHA-256 of the parts, each length-prefixed: no two different lists of parts share a digest."""
    return feed_digest(hashlib.sha256(), *parts).hexdigest()


def file_sha256(path: Path) -> bytes:
    """SHA-256 of a file's bytes, read a piece at a time."""
    hasher = hashlib.sha256()
    for piece in file_pieces(path):
        hasher.update(piece)
    return hasher.digest()


def file_pieces(path: Path):
    """A file's bytes a piece at a time (to copy it without holding it whole)."""
    with open(path, "rb") as stream:
        yield from iter(lambda: stream.read(PIECE), b"")


def shared_repr(items: list) -> str:
    """repr(items), a list of dataclass objects, written faster when they share tuple fields: a tuple that
    recurs (the crop marks every full page of a component shares) is written once."""
    seen: dict[int, tuple[tuple, str]] = {}

    def field_repr(value) -> str:
        if not isinstance(value, tuple):
            return repr(value)
        if id(value) not in seen:
            seen[id(value)] = (value, repr(value))  # the tuple is kept: its id stays its own meanwhile
        return seen[id(value)][1]

    return "[" + ", ".join(type(item).__qualname__ + "(" + ", ".join(
        f"{f.name}={field_repr(getattr(item, f.name))}" for f in dataclasses.fields(item) if f.repr) + ")"
        for item in items) + "]"


def feed_digest(hasher, *parts: object):
    """Feed parts to a hasher as digest() does (a copy of a hasher fed the common parts saves repeating them)."""
    for part in parts:
        data = part if isinstance(part, bytes) else repr(part).encode("utf-8")
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher
