"""Turn one project's face records into rows of its SQLite file in the user's cache folder, and back.

A record is (kind, key, payload, checksum): R maps a render key to the face's key (its SVG's SHA-256) and the keys of
the T records it was fitted from, F a face key to its form (faces/form.py), M to its size marks (size_marks.py), T a
text() call's digest to its fitted SVG (faces/fitted.py), D a rulebook's files' digest to what typesetting it reads
(rules/reads.py). One whose checksum fails is a miss, made again. A build's records go to a file of its own (which its
forks read too) and into the cache's file once, when it saves: a damaged, locked or read-only cache costs hits, never
a face (recall.py: what watch read)."""
from __future__ import annotations

import os
import sqlite3
import tempfile
from array import array
from pathlib import Path
from typing import Callable

from .recall import READS
from .records import (COPY, LOOKUP, READING, Filter, Handoff, checksum, connect, holds, in_memory, is_damage,
                      merge_into, open_cache_file, register_own, remove_files, remove_own, transaction, write_rows)

BATCH, BATCH_BYTES = 256, 1 << 20  # records held before they are written out, in one transaction
FACE = b"F"  # the kind of a face's drawing: its form
MARKS = b"M"  # the kind of what a build's print notes read from a form


class FacePack:
    """The records of one project: the cache's file (path; None without a cache), read when asked, and what
    this process adds, held a batch at a time and then written to a file of its own."""

    def __init__(self, path: Path | None, note: Callable[[str], None] = lambda message: None):
        self.path, self.note = path, note
        self.named = None if path is None else os.fspath(path)  # the file as READS knows it: a str compares fast
        self.pid = self.creator = os.getpid()
        self.batch: dict[tuple[bytes, bytes], tuple[bytes, bytes]] = {}  # (kind, key) -> (payload, checksum)
        self.batch_bytes = 0
        self.own: list[tuple[str | None, sqlite3.Connection]] = []  # (path, connection): files of records written here
        self.target: sqlite3.Connection | None = None  # where a full batch goes
        self.handed: str | None = None  # in a helper: the handoff file its records go to
        self.folders: list[str] = []  # the private folder of this process's own file
        self.inherited: list[sqlite3.Connection] = []  # in a forked process, its parent's: never used nor closed
        self.main: sqlite3.Connection | None = None
        self.readable = self.writable = path is not None  # whether the cache's file may be read, written
        self.used = array("q")  # the rows of the cache's file this build read: a save keeps them
        self.texts = bytearray()  # the keys of the text() records of the faces it found: kept too
        self.gone: set[tuple[bytes, bytes]] = set()  # records forgotten, or found damaged: misses
        self.checked: set[str] = set()  # face keys whose form this process made, or checked and found drawable
        self.form_checks: dict[bytes, bytes] = {}  # face key -> its form record's checksum, as read or kept here
        self.added = False
        self.written = Filter()  # the records kept here (and a few others): a miss asks no file of this build's
        self.number = register_own(self.own, self.folders, self.creator)

    def face_key(self, render_key: str) -> str | None:
        return self.face_of(self.get(b"R", render_key))

    def face_of(self, found: bytes | None) -> str | None:
        """The face key an R record names; the text() records after it are this build's too (save keeps them)."""
        if found is None or len(found) < 32 or len(found) % 32:
            return None
        self.texts += found[32:]
        return found[:32].hex()

    def form_record(self, face_key: str) -> tuple[bytes | None, bool]:
        """The face's form record, and whether this process checked or made it already."""
        found = self.get(FACE, face_key)
        return found, found is not None and face_key in self.checked

    def has_face(self, face_key: str) -> bool:
        """Whether a form record of the face is here (whether it draws, faces/stored.py decides)."""
        return self.get(FACE, face_key) is not None

    def record_face(self, render_key: str, face_key: str, texts: bytes = b"") -> None:
        """texts: the keys of the text() records the face was rendered from, kept as long as it is."""
        self.put(b"R", render_key, bytes.fromhex(face_key) + texts)

    def store_form(self, face_key: str, payload: bytes) -> None:
        """Keep a form this process made (and so trusts)."""
        self.put(FACE, face_key, payload)
        self.checked.add(face_key)

    def form_checksum(self, face_key: str) -> bytes | None:
        """The checksum of the face's form record (a function of its bytes), which an M record names; once a build."""
        key = bytes.fromhex(face_key)
        if key not in self.form_checks:
            self.get(FACE, face_key)
        return self.form_checks.get(key)

    def forget(self, face_key: str) -> None:
        key = bytes.fromhex(face_key)
        READS.drop(self.named, FACE, key)
        self.batch.pop((FACE, key), None)
        self.form_checks.pop(key, None)
        self.gone.add((FACE, key))
        self.checked.discard(face_key)
        self.added = True

    def get(self, kind: bytes, key: str) -> bytes | None:
        """The payload of the record, if there is one whose check holds; a damaged one is a miss from then on."""
        key = bytes.fromhex(key)
        if self.gone and (kind, key) in self.gone:
            return None
        held = self.batch.get((kind, key))
        if held is not None:
            return held[0]
        self.follow_fork()
        for _, db in self.own if (kind, key) in self.written else ():
            try:
                row = db.execute(LOOKUP, (kind, key)).fetchone()
            except sqlite3.Error:
                continue
            if row is not None:
                return self.checked_row(kind, key, row)
        recalled = READS.get(self.named, kind, key)  # read from the cache's file by an earlier build of this process
        if recalled is not None:
            self.used.append(recalled[0])
            return self.checked_row(kind, key, recalled, checked=True)
        main = self.open_main()
        if main is None:
            return None
        try:
            row = main.execute(LOOKUP, (kind, key)).fetchone()
        except sqlite3.Error as err:
            self.drop_main(err)
            return None
        found = self.checked_row(kind, key, row) if row is not None else None
        if found is not None:
            self.used.append(row[0])
            READS.keep(self.named, kind, key, row)
        return found

    def checked_row(self, kind: bytes, key: bytes, row: tuple, checked: bool = False) -> bytes | None:
        """row: (rowid, payload, checksum) of the cache's file; checked: its checksum held when it was read."""
        if checked or holds(kind, key, row[1], row[2]):
            if kind == FACE:
                self.form_checks[key] = row[2]
            return row[1]
        self.gone.add((kind, key))
        return None

    def put(self, kind: bytes, key: str, payload: bytes) -> None:
        key = bytes.fromhex(key)
        READS.drop(self.named, kind, key)  # what this process writes replaces what it read
        self.gone.discard((kind, key))
        self.written.add(kind, key)
        self.batch[(kind, key)] = (payload, checksum(kind, key, payload))
        if kind == FACE:
            self.form_checks[key] = self.batch[(kind, key)][1]
        self.batch_bytes += len(payload)
        self.added = True
        if len(self.batch) >= BATCH or self.batch_bytes >= BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write the batch to this process's own file in one transaction; where none can be (a full disk), to memory."""
        if not self.batch:
            return
        self.follow_fork()
        rows = [(kind, key, payload, check) for (kind, key), (payload, check) in self.batch.items()]
        try:
            write_rows(self.target or self.open_target(), rows)
        except sqlite3.Error:
            self.target = in_memory()
            self.own.insert(0, (None, self.target))
            write_rows(self.target, rows)
        self.batch, self.batch_bytes = {}, 0

    def open_target(self) -> sqlite3.Connection:
        """This process's own file: the helper's handoff, else a new one in a private temporary folder (a
        forked process's is its own, for its parent goes on writing to theirs)."""
        try:
            if self.handed is None and not self.folders and self.pid == self.creator:
                self.folders.append(tempfile.mkdtemp(prefix="pnpgen-faces-"))
                register_own(self.own, self.folders, self.creator, self.number)
            path = self.handed or (str(Path(self.folders[0]) / "records.sqlite") if self.folders else "")
            db = connect(path, durable=False)  # "": a file SQLite removes itself (a forked process's, unread by others)
            path = path or None
        except (OSError, sqlite3.Error):
            path, db = None, in_memory()
        self.own.insert(0, (path, db))
        self.target = db
        return db

    def follow_fork(self) -> None:
        """In a process forked from the one that opened the files: open them anew (a connection is never used
        in two processes), keep the parent's records in memory as they are, and write to a file of its own."""
        if os.getpid() == self.pid:
            return
        self.pid = os.getpid()
        self.inherited.extend([db for path, db in self.own if path is not None] + [self.main] * (self.main is not None))
        reopened = []
        for path, db in self.own:
            try:
                reopened.append((path, connect(path, durable=False) if path is not None else db))
            except sqlite3.Error:
                continue
        self.own[:] = reopened
        self.target, self.main, self.folders[:] = None, None, []

    def open_main(self) -> sqlite3.Connection | None:
        """The cache's file, read in one transaction until the build saves or forks: the file as it was then, each
        lookup without a lock of its own (a writer does not wait for it)."""
        if self.main is not None or not self.readable:
            return self.main
        self.main = self.connect_main()
        self.readable = self.main is not None
        try:
            if self.main is not None:
                READING.add(self)
                self.main.execute("BEGIN")
                if self.main.execute("SELECT NOT EXISTS (SELECT 1 FROM records)").fetchone()[0]:
                    self.main.close()  # a project's first build: nothing to look up (the snapshot stays empty)
                    self.main, self.readable = None, False
        except sqlite3.Error as err:
            self.drop_main(err)
        return self.main

    def connect_main(self) -> sqlite3.Connection | None:
        db, problem = open_cache_file(self.path)
        if problem:
            self.note(problem)
        self.writable = self.writable and db is not None
        return db

    def drop_main(self, err: sqlite3.Error) -> None:
        """Read nothing more from the cache's file this build; the pack's maker removes a damaged one (made anew)."""
        if self.main is not None:
            self.main.close()
        self.main, self.readable = None, False
        if is_damage(err) and os.getpid() == self.creator:
            remove_files(self.path)
        else:
            self.writable = False

    def save(self) -> None:
        """Write what this build added into the cache's file in one transaction, and drop what it forgot;
        the file then keeps what the build used and at most as much again, and OLDER records more. A file
        that cannot be written (locked beyond WAIT, read-only, a full disk) only makes the next build slower."""
        self.flush()
        if not self.added or not self.writable or os.getpid() != self.creator:
            return
        main = self.main if self.main is not None else self.connect_main()
        if main is None:
            return
        try:
            merge_into(main, list(reversed(self.own)), self.gone, self.used, self.texts)
            self.added = False
        except sqlite3.Error as err:
            self.writable = self.writable and is_damage(err)
            if is_damage(err):
                remove_files(self.path)
        finally:
            main.close()
            self.main = None

    def hand_to(self, handoff: Handoff) -> None:
        """In a helper process: write the records it adds to the handoff file, written out by finish()."""
        self.follow_fork()
        self.handed, self.target = handoff.path, None

    def let_go(self) -> None:
        """Close the connection to the cache's file, in the process that opened it; it is opened again when read."""
        if self.main is not None and os.getpid() == self.pid:
            self.main.close()
            self.main = None

    def close(self) -> None:
        """Let this build's own file go (once the processes it forked are done reading it)."""
        self.let_go()
        remove_own(self.number)
        self.own[:], self.folders[:], self.target = [], [], None

    def finish(self) -> None:
        self.flush()  # the helper leaves without cleaning up: its records are on disk first

    def take(self, handoff: Handoff) -> int:
        """Take the records a helper of this build handed back (its forms count as checked: it made them);
        return how many faces were new here. The handoff file is removed."""
        try:
            target = self.target or self.open_target()
            target.execute("ATTACH DATABASE ? AS handed", (handoff.path,))
            try:
                keys = target.execute("SELECT kind, key FROM handed.records").fetchall()
                new = sum(kind == FACE and not self.has_face(key.hex()) for kind, key in keys)
                with transaction(target):  # checked when read, as any record
                    target.execute(COPY.format("handed"))
            finally:
                target.execute("DETACH DATABASE handed")
        except sqlite3.Error:
            keys, new = [], 0  # the helper's faces are not in the pack: laying out renders them again
        for kind, key in keys:
            READS.drop(self.named, kind, key)  # a helper's record replaces what this process read
            self.written.add(kind, key)
            if kind == FACE:
                self.checked.add(key.hex())
        handoff.close()
        return new
