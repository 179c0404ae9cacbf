"""Turn a path a project names into a verdict: a regular file of a sensible size, or what it is instead.

A named pipe, a device or a socket would block a build for ever or read without end; a file far larger
than any real one of its kind would take minutes to parse: both are refused unread."""
from __future__ import annotations

import stat
from pathlib import Path

from ..errors import Location, PnpError

MAX_FILE_BYTES = 20_000_000  # a YAML file, a template, a rulebook or an icon: far above what a real project writes
SPECIAL_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
                 (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def refuse_large(path: Path, limit: int, location: Location, what: str) -> None:
    """A file far larger than any real one of its kind would take long to read and parse: refused unread."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # reading it says what is wrong
    if size > limit:
        raise PnpError(f"is {size / 1e6:,.0f} MB; expected a {what} of at most {limit / 1e6:,.0f} MB", location)


def special_kind(path: Path) -> str | None:
    """What a path is when it is neither a regular file, a folder nor missing: reading it could block for ever."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return next((name for test, name in SPECIAL_KINDS if test(mode)), None)


def read_quietly(path: Path, inside: Path) -> str:
    """The text of a file under `inside` that is regular and of a sensible size, else "": for readers that
    only look (the checker scanning templates), never for the ones that report what is wrong."""
    try:
        resolved = path.resolve()
        if not resolved.is_relative_to(inside.resolve()) or not stat.S_ISREG(resolved.stat().st_mode):
            return ""
        if resolved.stat().st_size > MAX_FILE_BYTES:
            return ""
        return resolved.read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return ""
