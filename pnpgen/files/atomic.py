"""Turn bytes into files that readers see whole or not at all, one file or a set of them together."""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Sequence

from ..errors import PnpError


def write_atomically(path: Path, data: bytes | Iterable[bytes] | Callable[[BinaryIO], None], what: str = "file",
                     durable: bool = True) -> None:
    """Replace path with data (bytes, chunks of it, or a function writing to the open file: a PDF streamed as it is
    made) once all of it is on disk; a failure leaves the old file and no temp file. durable=False skips the fsync,
    for caches whose readers treat a damaged entry as a miss."""
    path = Path(path)
    temp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Named before it exists, so that even a Ctrl-C while it is being created cannot leave it behind.
        temp = path.parent / f".{path.name}.{os.urandom(8).hex()}.tmp"
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "wb") as out:
            if callable(data):
                data(out)
            else:
                for chunk in [data] if isinstance(data, (bytes, bytearray, memoryview)) else data:
                    out.write(chunk)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.chmod(temp, 0o666 & ~current_umask())  # mkstemp creates the file private
        os.replace(temp, path)
        temp = None
    except OSError as err:
        raise unwritable(path, what, err) from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                Path(temp).unlink(missing_ok=True)


def staging_path(target: Path) -> Path:
    """Where a build makes a file before it replaces target; unique, since two builds may run at once."""
    return Path(target).parent / f".{Path(target).name}.{os.urandom(8).hex()}.staged"


def replace_all(pairs: Sequence[tuple[Path, Path]], what: str = "file") -> None:
    """Move each staged file onto its target, all or none: on any failure (or Ctrl-C) every target is
    restored to what it was, so a set of outputs never mixes new files with old ones. Readers never
    find a target missing: the previous file is kept by a hard link, and os.replace swaps atomically."""
    moved: list[tuple[Path, Path | None]] = []
    try:
        for staged, target in pairs:
            moved.append((Path(target), keep_previous(Path(target))))
            os.replace(staged, target)
    except BaseException as err:
        for target, backup in reversed(moved):
            if backup is not None:
                os.replace(backup, target)
            else:
                target.unlink(missing_ok=True)
        for staged, _ in pairs:
            with contextlib.suppress(OSError):
                Path(staged).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise unwritable(Path(pairs[len(moved) - 1][1] if moved else pairs[0][1]), what, err) from None
        raise
    for _, backup in moved:
        if backup is not None:
            backup.unlink(missing_ok=True)


def keep_previous(target: Path) -> Path | None:
    """A second name for the current target (None when there is none), to put back if the set fails."""
    backup = target.parent / f".{target.name}.{os.urandom(8).hex()}.previous"
    try:
        os.link(target, backup)
    except FileNotFoundError:
        return None
    except OSError:  # a file system without hard links
        try:
            shutil.copy2(target, backup)
        except FileNotFoundError:
            return None
    return backup


def unwritable(path: Path, what: str, err: OSError) -> PnpError:
    return PnpError(f"{path.parent}: cannot write the {what} here ({err.strerror or err}); expected a writable folder")


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def refuse_links_out(root: Path, *folders: Path) -> None:
    """Folders the project itself holds (output/ and those below it) must really lie inside it: a shared project's
    output/ linked to a folder of the user's would have a build overwrite the files there and an export delete them.
    A folder the user names outside the project with -o is the user's choice and is not checked."""
    root = Path(root).resolve()
    for folder in folders:
        lexical = Path(os.path.normpath(Path.cwd() / folder))
        if lexical.is_relative_to(root) and not Path(folder).resolve().is_relative_to(root):
            shown = lexical.relative_to(root).as_posix()
            raise PnpError(f"{shown}: is a link to {Path(folder).resolve()}, outside the project folder; expected a "
                           "real folder inside the project (or choose where the files go with -o)")
