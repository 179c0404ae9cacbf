"""Turn rendered faces into one plain file per project in the user's cache folder, read back without trusting it.

A pack file holds records, each [kind, key, length, payload, sha256 of all that]: R maps a render key
(the digest of everything a face is rendered from) to the face's key (the SHA-256 of its SVG); A maps a
face key to its FaceArt (JSON: PDF operators, font selectors, project-relative image names); S maps a
face key to its SVG (faces only svglib draws; their key is checked against the text); F maps a face key to
its form (the face's PDF content, independent of the document it is placed in: see press/face_forms.py). Nothing in it can
run when read, a record that fails its check is a miss, and the folder must be the user's own: a cache
another user can write to could make every build print what that user wants.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
import struct
from pathlib import Path

from . import __version__
from .atomic import write_atomically
from .errors import PnpError

MAGIC = b"pnpgen faces 1\n"
HEADER = struct.Struct(">c32sI")  # kind, key, payload length
CHECK = 32
KINDS = (b"R", b"A", b"S", b"F")
MAX_PACK = 256 << 20  # far above a 10,000-card deck (~15 MB): a bigger file is not ours, and is not read


def default_cache_dir() -> Path:
    explicit = os.environ.get("PNPGEN_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnpgen"


def library_versions() -> str:
    """Fitted text and converted faces depend on reportlab's metrics: a new version starts a fresh pack."""
    import reportlab

    return f"pnpgen {__version__} reportlab {reportlab.Version}"


class Cache:
    """The user's cache folder: one face pack per project folder, opened on first use. Without a folder
    (a build with the cache off) the packs live in memory only, for this build's faces."""

    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder is not None else None
        self.usable = self.folder is not None and claim_folder(self.folder)
        self.packs: dict[Path, FacePack] = {}

    def pack(self, root: Path) -> "FacePack":
        root = Path(root).resolve()
        if root not in self.packs:
            name = digest("faces", str(root), library_versions())
            self.packs[root] = FacePack(self.folder / "faces" / f"{name}.pack" if self.usable else None)
        return self.packs[root]

    def save(self) -> None:
        for pack in self.packs.values():
            pack.save()

    def path(self, kind: str, key: str, suffix: str) -> Path | None:
        """Where a file of plain data that is checked when read (a diff's PNG pictures) is kept; None without
        a folder of the user's own."""
        return self.folder / kind / key[:2] / f"{key}{suffix}" if self.usable else None


def write_quietly(path: Path | None, data: bytes) -> None:
    """A cache that cannot be written (read-only home, full disk) only makes the build slower."""
    if path is None:
        return
    try:
        write_atomically(path, data, "cache entry", durable=False)
    except Exception:
        pass


def claim_folder(folder: Path) -> bool:
    """Make the folder (only its owner may enter it); refuse one that is not the user's alone.

    A folder that cannot be made (read-only home, full disk) only makes the build slower: False."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = folder.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    problem = ""
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        problem = f"belongs to another user (uid {info.st_uid})"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        problem = f"can be written by other users (mode {stat.S_IMODE(info.st_mode):o})"
    if problem:
        raise PnpError(f"cache folder {folder} {problem}; expected a folder only you can write to: "
                       f"run `chmod go-w {folder}`, set PNPGEN_CACHE to a folder of your own, or build with --no-cache")
    return True


class FacePack:
    """The records of one project, loaded at once and written back at once (only when something is new)."""

    def __init__(self, path: Path | None):
        self.path = path
        self.records: dict[tuple[bytes, bytes], bytes] = {}
        self.used: set[tuple[bytes, bytes]] = set()
        self.added = False
        self.fresh: list[tuple[bytes, bytes]] = []  # records this process added, in order (for export_fresh)
        self.checked: set[str] = set()  # face keys whose FaceArt record this process checked or wrote
        if path is not None:
            self.records = read_pack(path)

    def face_key(self, render_key: str) -> str | None:
        found = self.get(b"R", render_key)
        return found.hex() if found is not None and len(found) == 32 else None

    def art_bytes(self, face_key: str) -> bytes | None:
        return self.get(b"A", face_key)

    def face_svg(self, face_key: str) -> str | None:
        data = self.get(b"S", face_key)
        return data.decode("utf-8") if data is not None else None

    def form_bytes(self, face_key: str) -> bytes | None:
        return self.get(b"F", face_key)

    def store_form(self, face_key: str, payload: bytes) -> None:
        self.put(b"F", face_key, payload)

    def has_face(self, face_key: str) -> bool:
        return (b"A", bytes.fromhex(face_key)) in self.records or (b"S", bytes.fromhex(face_key)) in self.records

    def get(self, kind: bytes, key: str) -> bytes | None:
        entry = (kind, bytes.fromhex(key))
        found = self.records.get(entry)
        if found is not None:
            self.used.add(entry)
        return found

    def record_face(self, render_key: str, face_key: str) -> None:
        self.put(b"R", render_key, bytes.fromhex(face_key))

    def store_art(self, face_key: str, art) -> None:
        self.put(b"A", face_key, art.to_bytes())
        self.checked.add(face_key)

    def store_svg(self, face_key: str, svg: str) -> None:
        self.put(b"S", face_key, svg.encode("utf-8"))

    def put(self, kind: bytes, key: str, payload: bytes) -> None:
        entry = (kind, bytes.fromhex(key))
        self.used.add(entry)
        if self.records.get(entry) != payload:
            self.records[entry] = payload
            self.fresh.append(entry)
            self.added = True

    def forget(self, face_key: str) -> None:
        self.checked.discard(face_key)
        for kind in (b"A", b"S", b"F"):
            if self.records.pop((kind, bytes.fromhex(face_key)), None) is not None:
                self.added = True

    def export_fresh(self) -> bytes:
        """The records this process added, in the pack format (a helper process hands them back so)."""
        return encode_pack((entry, self.records[entry]) for entry in dict.fromkeys(self.fresh) if entry in self.records)

    def merge(self, data: bytes) -> int:
        """Take the records export_fresh gave (from a helper process of this build: trusted as checked);
        return how many faces were new here."""
        new = 0
        for (kind, key), payload in parse_pack(data).items():
            if kind != b"R" and not self.has_face(key.hex()):
                new += 1
            self.put(kind, key.hex(), payload)
            if kind == b"A":
                self.checked.add(key.hex())
        return new

    def save(self) -> None:
        """Write the pack if this build added to it: what it used first, then older records while the
        pack stays within twice what it used (so edits do not grow it for ever)."""
        if self.path is None or not self.added:
            return
        kept = [e for e in self.records if e in self.used]
        room = 2 * len(kept) + 1000 - len(kept)
        kept += [e for e in self.records if e not in self.used][:max(room, 0)]
        data = encode_pack(((kind, key), self.records[(kind, key)]) for kind, key in kept)
        try:
            write_atomically(self.path, data, "face cache", durable=False)
        except Exception:  # a cache that cannot be written only makes the next build slower
            pass
        self.added = False


def encode_pack(records) -> bytes:
    chunks = [MAGIC]
    for (kind, key), payload in records:
        head = HEADER.pack(kind, key, len(payload))
        chunks += [head, payload, hashlib.sha256(head + payload).digest()]
    return b"".join(chunks)


def read_pack(path: Path) -> dict[tuple[bytes, bytes], bytes]:
    """Every record whose check holds, up to the first that does not; a missing or foreign file is empty."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    with os.fdopen(handle, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PACK or (
                hasattr(os, "getuid") and info.st_uid != os.getuid()):
            return {}
        return parse_pack(file.read())


def parse_pack(data: bytes) -> dict[tuple[bytes, bytes], bytes]:
    if not data.startswith(MAGIC):
        return {}
    records = {}
    view = memoryview(data)
    position = len(MAGIC)
    while position + HEADER.size <= len(data):
        kind, key, length = HEADER.unpack_from(data, position)
        end = position + HEADER.size + length
        if kind not in KINDS or end + CHECK > len(data):
            break
        if hashlib.sha256(view[position:end]).digest() != data[end:end + CHECK]:
            break
        payload = data[position + HEADER.size:end]
        if kind != b"S" or hashlib.sha256(payload).digest() == key:
            records[(kind, key)] = payload
        position = end + CHECK
    return records


def digest(*parts: object) -> str:
    """SHA-256 of the parts, each length-prefixed: no two different lists of parts share a digest."""
    return feed_digest(hashlib.sha256(), *parts).hexdigest()


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
