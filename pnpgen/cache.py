"""Turn rendered faces into one plain file per project in the user's cache folder, read back as data only.

A pack holds records [kind, key, length, payload, SHA-256 of all that]: R maps a render key (the digest of
everything a face is rendered from) to the face's key (the SHA-256 of its SVG); A maps a face key to its
FaceArt (JSON operators, font selectors, project-relative image names); S to its SVG (faces only svglib
draws, checked against the key); F to its form (faces/form.py). Nothing in it can run when read; a record
that fails its check is a miss; the folder must be the user's own. A pack this machine wrote and vouched
for is sealed (seal.py) and trusted while it is that very file; any other is checked record by record.
A build indexes the pack (packindex.py, packslots.py) and reads a record when asked; what it adds goes to a
file of its own (packfile.py), so its memory does not grow with the deck.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ._version import __version__
from .files.atomic import write_atomically
from .digests import digest
from .errors import PnpError
from .packfile import (CHECK, CHECKED, HEADER, MAGIC, USED, Checked, Segment, check_record, encode_record,
                       entry_of, open_pack, read_records, slot_of, split_entry, temporary_file)
from .packindex import GONE, appendix, copy_records, read_table
from .packslots import Index
from .seal import append_pack, can_seal, is_sealed, write_pack


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
    """The records of one project, indexed and read when asked: the pack file as it was, and what this
    process adds appended to a file of its own; written back at once (only when something is new).

    The index holds a few dozen bytes a record (a 128-bit key prefix and where the record lies; a sealed
    pack's is its trailer, read in one block into arrays: packindex.py), never a payload but an R record's. Every record is checked again when read, so the files are trusted no more than the pack was,
    unless the pack is sealed (seal.py): this machine wrote it and vouched for every face record in it."""

    def __init__(self, path: Path | None):
        self.path = path
        self.segments: list[Segment] = []
        self.added = False
        found = open_pack(path) if path is not None else None
        # A sealed pack's index is the trailer after its records; a pack that is not, or whose trailer does
        # not hold, is scanned with every check.
        table = read_table(found.file, found.flushed) if found is not None and is_sealed(path, found.info) else None
        self.index = Index(table)  # slot_of(kind, key) -> where the record lies and its flags (entry_of)
        self.checked = Checked(self.index, b"A")  # face keys whose FaceArt record this process checked or wrote
        self.checked_forms = Checked(self.index, b"F")  # and whose form record
        self.sealed = table is not None
        if found is not None:
            self.segments.append(found)
        if table is not None:  # its face records count as checked
            found.trusted = True
            table.vouch()
        elif found is not None:
            for kind, key, position, record in read_records(found.file, len(MAGIC), found.flushed):
                self.index[slot_of(kind, key.hex())] = entry_of(0, position, len(record))

    def face_key(self, render_key: str) -> str | None:
        found = self.get(b"R", render_key)
        return found.hex() if found is not None and len(found) == 32 else None

    def art_bytes(self, face_key: str) -> bytes | None:
        return self.get(b"A", face_key)

    def face_svg(self, face_key: str) -> str | None:
        data = self.get(b"S", face_key)
        return data.decode("utf-8") if data is not None else None

    def form_record(self, face_key: str) -> tuple[bytes | None, int]:
        """The face's form record, and whether it is checked already (made or checked by this build, or sealed)."""
        found, flags = self.get_flagged(b"F", face_key)
        return found, flags & CHECKED

    def store_form(self, face_key: str, payload: bytes) -> None:
        self.put(b"F", face_key, payload)

    def has_face(self, face_key: str) -> bool:
        art = slot_of(b"A", face_key)
        return art in self.index or art + 1 in self.index  # the slot of its SVG record (kinds A and S are 1, 2)

    def get(self, kind: bytes, key: str) -> bytes | None:
        return self.get_flagged(kind, key)[0]

    def get_flagged(self, kind: bytes, key: str) -> tuple[bytes | None, int]:
        """get(), and the record's flags (CHECKED: trusted as it is) from the same lookup."""
        slot = slot_of(kind, key)
        table = self.index.table
        if table is not None and self.index.find_added(slot) is None:  # a sealed pack's record, as its trailer lists it
            at = table.find(slot)
            if at < 0:
                return None, 0
            if kind == b"R":  # its payload is in the trailer
                table.flags[at] |= USED
                return table.face(at), table.flags[at]
            found = check_record(self.segments[0].read(table.positions[at], table.sizes[at]), kind, bytes.fromhex(key),
                                 True)
            table.flags[at] |= USED if found is not None else GONE
            return found, table.flags[at] if found is not None else 0
        entry = self.index.get(slot)
        found = self.read(slot, entry, kind, key) if entry is not None else None
        if found is not None and not entry & USED:
            self.index[slot] = entry | USED
        return found, entry if found is not None else 0

    def read(self, slot: int, entry: int, kind: bytes, key: str) -> bytes | None:
        """The record's payload if its check holds and it is the one asked for; else it is dropped: a miss."""
        segment, position, size = split_entry(entry)
        found = check_record(self.segments[segment].read(position, size), kind, bytes.fromhex(key),
                             self.segments[segment].trusted)
        if found is None:
            del self.index[slot]
        return found

    def record_face(self, render_key: str, face_key: str) -> None:
        self.put(b"R", render_key, bytes.fromhex(face_key))

    def store_art(self, face_key: str, art) -> None:
        self.put(b"A", face_key, art.to_bytes(), CHECKED)

    def store_svg(self, face_key: str, svg: str) -> None:
        self.put(b"S", face_key, svg.encode("utf-8"))

    def put(self, kind: bytes, key: str, payload: bytes, flags: int = 0, lying: int | None = None) -> None:
        """Keep the record (flagged used, and with flags: CHECKED for a face record this process vouches for);
        lying: where it already lies whole in a segment (entry_of), else it is appended to this process's own."""
        slot, flags = slot_of(kind, key), flags | USED
        entry = self.index.get(slot)
        if entry is not None and self.read(slot, entry, kind, key) == payload:
            if entry & flags != flags:
                self.index[slot] = entry | flags
            return
        if lying is None:
            record = encode_record(kind, bytes.fromhex(key), payload)
            number = self.own_segment()
            lying = entry_of(number, self.segments[number].append(record), len(record))
        self.index[slot] = lying | flags
        self.added = True

    def own_segment(self) -> int:
        """The number of the segment this process appends to: a forked process starts one of its own, for
        its parent goes on appending to the one they shared."""
        for number in range(len(self.segments) - 1, -1, -1):
            if self.segments[number].writer == os.getpid():
                return number
        self.segments.append(Segment(temporary_file(self.path), writer=os.getpid(), trusted=True))
        return len(self.segments) - 1

    def forget(self, face_key: str) -> None:
        for kind in (b"A", b"S", b"F"):
            if self.index.pop(slot_of(kind, face_key), None) is not None:
                self.added = True

    def handoff(self):
        """A file for a helper process to hand its records back through (opened before it is forked)."""
        return temporary_file(self.path)

    def hand_to(self, file) -> None:
        """In a helper process: append the records it adds to file (see handoff), written out by finish()."""
        self.segments.append(Segment(file, writer=os.getpid(), trusted=True))

    def finish(self) -> None:
        self.segments[-1].flush()

    def take(self, file) -> int:
        """Take the records a helper process of this build handed back in file, which becomes a segment of the
        pack: they are indexed where they lie, not copied (its FaceArt counts as checked; the file is ours: its
        records' checks are not computed); return how many faces were new here."""
        size = os.fstat(file.fileno()).st_size
        number = len(self.segments)
        self.segments.append(Segment(file, size, trusted=True))
        new = 0
        for kind, key, position, record in read_records(file, 0, size, trusted=True):
            key = key.hex()
            if kind != b"R" and not self.has_face(key):
                new += 1
            self.put(kind, key, record[HEADER.size:-CHECK], CHECKED if kind in (b"A", b"F") else 0,
                     entry_of(number, position, len(record)))
        return new

    def save(self) -> None:
        """Write the pack if this build added to it: what it used first, then older records while the
        pack stays within twice what it used (so edits do not grow it for ever). Sealed when this build
        vouches for every face record kept: an unused face record it cannot vouch for is dropped (where
        packs can be sealed); a pack that was not sealed is written again to seal it, if nothing is lost.
        A few records added to the sealed pack this build opened are appended to it instead."""
        if self.path is None:
            return
        if self.added and self.append():
            self.added = False
            return
        used, dropped, vouched = 0, 0, True
        for slot, entry in self.index.items():
            if entry & USED:
                used += 1
                vouched = vouched and is_sure(slot, entry)
            elif not is_sure(slot, entry) and can_seal():
                dropped += 1
        if self.added or (vouched and not self.sealed and not dropped and used and can_seal()):
            write_pack(self.path, copy_records(self.segments, self.kept(used + 1000), vouched and can_seal()), vouched)
        self.added = False

    def kept(self, older: int):
        """The entries a pack written now keeps, as save() counts them: the used ones, then up to `older` of the
        others it may keep, each in the index's order (in no list: a deck's are many)."""
        yield from (entry for _, entry in self.index.items() if entry & USED)
        unsure = not can_seal()
        for slot, entry in self.index.items():
            if older and not entry & USED and (unsure or is_sure(slot, entry)):
                older -= 1
                yield entry

    def append(self) -> bool:
        """Append the records this build added, and the pack's new trailer, to the sealed pack it opened, if
        the build vouches for every face record the trailer lists and the pack stays within twice what it
        used; False (nothing written) when the pack is to be written anew."""
        table = self.index.table
        if table is None or not can_seal() or not table.vouched():
            return False
        added = sorted(self.index.added_items(), key=lambda item: split_entry(item[1]))  # as they lie
        if any(self.index.find_added(table.slot(at)) is None for at in table.gone()):  # a scan would find it again
            return False
        if any(not is_sure(slot, entry) or not split_entry(entry)[0] for slot, entry in added):
            return False
        used = table.used() + sum(entry & USED for _, entry in added)
        if table.physical + len(added) > 2 * used + 1000:
            return False
        data = appendix(table, added, self.segments)
        return data is not None and append_pack(self.path, self.segments[0].file, self.segments[0].info, table.start,
                                                data)


def is_sure(slot: int, entry: int) -> bool:
    """A record a pack can be sealed with: a face record checked (or made) here, or an R or S record (even
    slots), which is a claim checked on reading."""
    return bool(entry & CHECKED) or not slot & 1
