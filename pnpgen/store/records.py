"""Turn paths into connections to files of face records (SQLite), rows into payloads whose checks hold."""
from __future__ import annotations

import atexit
import contextlib
import hashlib
import itertools
import os
import shutil
import sqlite3
import stat
import tempfile
import weakref
from array import array
from pathlib import Path

FORMAT = 1  # the file's user_version: a file with another is not ours, and is made anew
SCHEMA = ("CREATE TABLE IF NOT EXISTS records (kind BLOB NOT NULL, key BLOB NOT NULL, payload BLOB NOT NULL, "
          "checksum BLOB NOT NULL, PRIMARY KEY (kind, key))")
LOOKUP = "SELECT rowid, payload, checksum FROM records WHERE kind = ? AND key = ?"
WRITE = "INSERT OR REPLACE INTO records (kind, key, payload, checksum) VALUES (?, ?, ?, ?)"
ROWS = "SELECT kind, key, payload, checksum FROM records ORDER BY rowid"
DELETE = "DELETE FROM records WHERE kind = ? AND key = ?"
COPY = "INSERT OR REPLACE INTO main.records SELECT kind, key, payload, checksum FROM {}.records ORDER BY rowid"
FILTER = 1 << 20  # bits of a Filter: a few records in a thousand pass it at 30,000 records
OLDER = 1000  # records a save keeps beyond twice what the build used
WAIT = 5.0  # seconds a build waits for another build's write to end before it goes on without that file


def checksum(kind: bytes, key: bytes, payload: bytes) -> bytes:
    """The SHA-256 of a record: its kind and key too, so that a payload moved under another key fails it."""
    check = hashlib.sha256(kind)
    check.update(key)
    check.update(payload)
    return check.digest()


def holds(kind: bytes, key: bytes, payload, check) -> bool:
    """The row is a record of this kind and key, whole."""
    return isinstance(payload, bytes) and check == checksum(kind, key, payload)


def connect(path: str, durable: bool = True) -> sqlite3.Connection:
    """A connection to the records file at path (made if missing or empty); raises sqlite3.Error for one that
    is not a records file or cannot be opened."""
    db = sqlite3.connect(path, timeout=WAIT, isolation_level=None, check_same_thread=False)
    try:
        db.execute(f"PRAGMA synchronous = {'NORMAL' if durable else 'OFF'}")
        if not durable:  # a file of this build's own: nothing to recover after a crash
            db.execute("PRAGMA journal_mode = MEMORY")
        elif db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":  # readers and a writer never wait on each other
            db.execute("PRAGMA journal_mode = WAL")
        if db.execute("PRAGMA user_version").fetchone()[0] != FORMAT:
            with transaction(db):
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version != FORMAT and (version or db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]):
                    raise sqlite3.DatabaseError("not a file of face records")
                db.execute(SCHEMA)
                db.execute(f"PRAGMA user_version = {FORMAT}")
    except BaseException:
        db.close()
        raise
    return db


def in_memory() -> sqlite3.Connection:
    """A records database of this process alone, for when no file can be written."""
    return connect(":memory:", durable=False)


@contextlib.contextmanager
def transaction(db: sqlite3.Connection):
    """One write transaction, taken at once (a second writer waits, up to WAIT); undone on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def is_damage(err: sqlite3.Error) -> bool:
    """The file is damaged or not a database (made anew), not merely locked, read-only or on a full disk."""
    return isinstance(err, sqlite3.DatabaseError) and not isinstance(err, sqlite3.OperationalError)


def remove_files(path: Path) -> None:
    for name in (path, Path(f"{path}-journal"), Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(OSError):
            name.unlink()


def who_else_writes(info: os.stat_result) -> str:
    """What makes a file or folder not the user's alone; "" when it is."""
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return f"belongs to another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"can be written by other users (mode {stat.S_IMODE(info.st_mode):o})"
    return ""


def refusal(path: Path) -> str:
    """Why the records file at path is not to be used ("" when it is a plain file of the user's alone, or is
    made here as one)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        except FileExistsError:  # another build made it meanwhile
            return refusal(path)
        return ""
    problem = "is not a plain file" if not stat.S_ISREG(info.st_mode) else who_else_writes(info)
    if not problem:
        return ""
    return (f"face cache {path} {problem}; expected a file only you can write to: remove it, set PNPGEN_CACHE to "
            f"a folder of your own, or build with --no-cache (this build goes on without the cache)")


def open_cache_file(path: Path) -> tuple[sqlite3.Connection | None, str]:
    """The cache's file of records, made if missing, a damaged one (or one not ours) made anew; None where it
    is refused (and why: a link, another user's, writable by others), locked, or cannot be read."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        problem = refusal(path)
    except OSError:
        return None, ""
    if problem:
        return None, problem
    for attempt in range(2):
        try:
            return connect(str(path)), ""
        except sqlite3.Error as err:
            if not is_damage(err) or attempt:
                break
            remove_files(path)
            refusal(path)
    return None, ""


class Filter:
    """A set of (kind, key) pairs that may also hold a few others: a bit a record, of FILTER."""

    def __init__(self):
        self.bits = bytearray(FILTER // 8)

    def add(self, kind: bytes, key: bytes) -> None:
        bit = bit_of(kind, key)
        self.bits[bit >> 3] |= 1 << (bit & 7)

    def __contains__(self, record: tuple[bytes, bytes]) -> bool:
        bit = bit_of(*record)
        return bool(self.bits[bit >> 3] & 1 << (bit & 7))


def bit_of(kind: bytes, key: bytes) -> int:
    return (int.from_bytes(key[:4], "little") ^ kind[0]) & (FILTER - 1)  # a key is a digest: its bits are evenly spread


class Handoff:
    """A file a forked helper writes its records into, for the build to take (FacePack.take)."""

    def __init__(self, folder: str):
        self.folder = folder
        self.path = str(Path(folder) / "records.sqlite")

    @classmethod
    def make(cls) -> "Handoff | None":
        """One in a private temporary folder; None where none can be made."""
        try:
            return cls(tempfile.mkdtemp(prefix="pnpgen-handoff-"))
        except OSError:
            return None

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def write_rows(db: sqlite3.Connection, rows: list[tuple]) -> None:
    with transaction(db):
        db.executemany(WRITE, rows)


def merge_into(main: sqlite3.Connection, own: list, gone, used: array, texts: bytes) -> None:
    """Copy a build's own files of records (path, connection; the oldest first, for a later record of a key is the
    one kept) into the cache's file in one transaction, delete the records it forgot (gone) and prune."""
    if main.in_transaction:
        main.execute("COMMIT")  # the reading one
    for number, (path, _) in enumerate(own):
        if path is not None:  # copied in one statement
            main.execute(f"ATTACH DATABASE ? AS own{number}", (path,))
    with transaction(main):
        before = main.execute("SELECT coalesce(max(rowid), 0) FROM records").fetchone()[0]
        changes = main.total_changes
        for number, (path, db) in enumerate(own):
            main.execute(COPY.format(f"own{number}")) if path else main.executemany(WRITE, db.execute(ROWS))
        written = main.total_changes - changes
        main.executemany(DELETE, gone)
        prune(main, before, len(set(used)) + written, used, texts)


def prune(main: sqlite3.Connection, before: int, keep: int, used: array, texts: bytes = b"") -> None:
    """Delete the rows older than before that the build did not use, but for the newest keep + OLDER of them,
    once the file holds more than twice keep and OLDER; texts: the keys (32 bytes each) of text() records its
    faces were rendered from, which it used without reading them."""
    texts = bytes(texts)
    keys = {texts[at:at + 32] for at in range(0, len(texts), 32)}
    keep += len(keys)
    if main.execute("SELECT count(*) FROM records").fetchone()[0] <= 2 * keep + OLDER:
        return
    main.execute("CREATE TEMP TABLE IF NOT EXISTS used (id INTEGER PRIMARY KEY)")
    main.execute("DELETE FROM temp.used")
    main.executemany("INSERT OR IGNORE INTO temp.used VALUES (?)", ((row,) for row in used))
    main.executemany("INSERT OR IGNORE INTO temp.used SELECT rowid FROM records WHERE kind = ? AND key = ?",
                     ((b"T", key) for key in sorted(keys)))
    main.execute("DELETE FROM records WHERE rowid <= ?1 AND rowid NOT IN temp.used AND rowid NOT IN (SELECT rowid "
                 "FROM records WHERE rowid <= ?1 AND rowid NOT IN temp.used ORDER BY rowid DESC LIMIT ?2)",
                 (before, keep + OLDER))


OWN: dict[int, tuple[list, list[str], int]] = {}  # pack number -> its own files: removed when it closes, else at exit
NUMBERS = itertools.count()


def register_own(own: list, folders: list[str], pid: int, number: int | None = None) -> int:
    """Note a pack's own files (connections, folders) for remove_own; its number."""
    number = next(NUMBERS) if number is None else number
    OWN[number] = (own, folders, pid)
    return number


def remove_own(number: int) -> None:
    """A pack's own files go: in the process that made them only (never in one forked from it). Done when
    it is closed or the process ends, never when it is collected (no code runs then, deep in a template)."""
    own, folders, pid = OWN.pop(number, ([], [], 0))
    if os.getpid() == pid:
        for _, db in own:
            db.close()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


atexit.register(lambda: [remove_own(number) for number in list(OWN)])


READING: weakref.WeakSet = weakref.WeakSet()  # the packs holding a connection to the cache's file


def let_go_before_fork() -> None:
    """No connection to a cache's file is carried across a fork: SQLite keeps one set of lock books a file in each
    process, so a child opening the file again would go by its parent's, read pages the parent's save is writing, and
    take them for damage. The parent opens the file again when it next reads."""
    for pack in list(READING):
        pack.let_go()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=let_go_before_fork)
