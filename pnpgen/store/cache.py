"""Turn the user's cache folder into the face packs of the projects it builds, and files of plain data."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

from .._version import __version__
from ..digests import digest
from ..files.atomic import write_atomically
from .pack import FacePack
from .records import who_else_writes


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
    """The user's cache folder: one face pack per project folder, opened on first use. Without a folder of
    the user's own (a build with the cache off, or one refused: notes say why) the packs hold this build's
    faces only, in temporary files."""

    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder is not None else None
        self.notes: list[str] = []
        problem = claim_folder(self.folder) if self.folder is not None else None
        if problem:
            self.note(problem)
        self.usable = problem == ""
        self.packs: dict[Path, FacePack] = {}

    def pack(self, root: Path) -> FacePack:
        root = Path(root).resolve()
        if root not in self.packs:
            name = digest("faces", str(root), library_versions())
            self.packs[root] = FacePack(self.folder / "faces" / f"{name}.sqlite" if self.usable else None, self.note)
        return self.packs[root]

    def save(self) -> None:
        for pack in self.packs.values():
            pack.save()

    def close(self) -> None:
        for pack in self.packs.values():
            pack.close()

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    def path(self, kind: str, key: str, suffix: str) -> Path | None:
        """Where a file of plain data that is checked when read (a diff's PNG pictures) is kept; None without
        a folder of the user's own."""
        return self.folder / kind / key[:2] / f"{key}{suffix}" if self.usable else None


def claim_folder(folder: Path) -> str | None:
    """Make the folder (only its owner may enter it): "" when it is the user's alone, else why it is refused;
    None when it cannot be made (read-only home, full disk), which only makes the build slower."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = folder.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None
    problem = who_else_writes(info)
    return problem and (f"cache folder {folder} {problem}; expected a folder only you can write to: run `chmod "
                        f"go-w {folder}`, set PNPGEN_CACHE to a folder of your own, or build with --no-cache (this "
                        "build goes on without the cache)")


def write_quietly(path: Path | None, data: bytes | Iterable[bytes]) -> None:
    """A cache that cannot be written (read-only home, full disk) only makes the build slower."""
    if path is None:
        return
    try:
        write_atomically(path, data, "cache entry", durable=False)
    except Exception:
        pass
