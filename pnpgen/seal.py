"""Turn a face pack this process wrote into a seal beside it, and a seal into whether the pack is still that file.

Every record of a pack is checked when read, for the cache folder may hold files nobody of ours wrote (a
relative PNPGEN_CACHE inside a downloaded project that ships one). A pack whose every face record this
machine made or checked is sealed as it is written: the seal names the file's device, inode, size and
modification and change times. No user process can set a change time, and no archive chooses an inode, so
a pack unpacked, copied, edited in place or touched back to an old time never matches a seal, and is
read with every check, as before. A sealed pack is written durably: its bytes are on disk before its seal.
A build that adds a few records appends them to the sealed pack it opened, if it is still that very file:
under a lock, the seal broken before the first byte is written and made again once all are on disk.
Only on POSIX systems, whose inode numbers and change times mean this.
"""
from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from .files.atomic import write_atomically

MAGIC = b"pnpgen seal 1\n"
MAX_SEAL = 256  # a seal is one short line: anything longer is not ours, and is not read


def can_seal() -> bool:
    return os.name == "posix"


def seal_path(pack: Path) -> Path:
    return pack.with_name(pack.name + ".seal")


def seal_text(info: os.stat_result) -> bytes:
    return MAGIC + b"%d %d %d %d %d\n" % (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def write_pack(pack: Path, chunks, sealed: bool) -> None:
    """Replace the pack with chunks, sealed if asked (and the system can); the old seal goes first, so a pack
    this build cannot vouch for is never left under one. A pack that cannot be written only makes the next
    build slower."""
    sealed = sealed and can_seal()
    kept: list[int] = []  # a descriptor of the file written: the seal names it, not whatever the path holds

    def write(out) -> None:
        for chunk in chunks:
            out.write(chunk)
        if sealed:
            kept.append(os.dup(out.fileno()))
    try:
        break_seal(pack)
        write_atomically(pack, write, "face cache", durable=sealed)
        if kept:
            seal(pack, os.fstat(kept[0]))  # after the rename: it changes the change time
    except Exception:
        pass
    finally:
        for handle in kept:
            os.close(handle)


def seal(pack: Path, info: os.stat_result) -> None:
    """Seal the file written (info), unless the pack is already another (a build running at once replaced it)."""
    now = os.stat(pack, follow_symlinks=False)
    if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
        write_atomically(seal_path(pack), seal_text(info), "face cache seal", durable=False)


def break_seal(pack: Path) -> None:
    with contextlib.suppress(OSError):
        seal_path(pack).unlink()


def is_sealed(pack: Path, info: os.stat_result) -> bool:
    """The pack opened (info: its fstat) is the very file a seal beside it names. A seal that is a link, not a
    plain file of the user's, too long or anything else is no seal."""
    if not can_seal():
        return False
    try:
        handle = os.open(seal_path(pack), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        found = os.fstat(handle)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_SEAL or found.st_uid != os.getuid():
            return False
        return os.read(handle, MAX_SEAL + 1) == seal_text(info)
    except OSError:
        return False
    finally:
        os.close(handle)


def append_pack(pack: Path, file, opened: os.stat_result, start: int, data: bytes) -> bool:
    """Write data into the sealed pack this build opened (file; opened: its status then) from start on, and
    seal it again, under an exclusive lock; False, having written nothing, when the pack is no longer that
    very file, still sealed, or another build holds the lock. The seal is broken before the first byte is
    written: an append cut short leaves a pack that is scanned with every check."""
    if not can_seal():
        return False
    import fcntl

    try:
        handle = os.open(pack, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        now = os.fstat(handle)
        if seal_text(now) != seal_text(opened) or seal_text(os.fstat(file.fileno())) != seal_text(opened) or \
                not is_sealed(pack, now):
            return False
        break_seal(pack)
        view, done = memoryview(data), 0
        while done < len(view):
            done += os.pwrite(handle, view[done:], start + done)
        os.ftruncate(handle, start + len(data))
        os.fsync(handle)
        seal(pack, os.fstat(handle))
        return True
    except OSError:
        return False
    finally:
        os.close(handle)  # and with it the lock
