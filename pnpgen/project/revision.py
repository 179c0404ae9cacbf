"""Turn a project folder's git revision (or the day it last changed) into the stamp templates print as build.revision."""
from __future__ import annotations

import datetime
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterable

from ..errors import PnpError
from ..files.reading import read_quietly

IGNORED = frozenset({"output", ".pnpgen-cache", ".git", "__pycache__", ".pnpgen-build"})
BUILD_FOLDERS = frozenset({"templates", "images", "fonts", "rules", "documents"})  # read in full
SOURCE_SUFFIXES = frozenset(".yaml .yml .j2 .svg .md .txt .csv .tsv .xlsx .xls .ods .json .png .jpg .jpeg "
                            ".ttf .otf .ttc .otc".split())
MAX_FILE = 64 << 20
STAMP = "the revision stamp"


@dataclass(frozen=True)
class Stamp:
    """What `{{ build.* }}` holds: the revision printed, and whether the card changed since `since`."""

    revision: str = ""
    changed: bool = False
    since: str = ""
    note: str = field(default="", compare=False, repr=False)  # why the stamp is not the commit: said by the build
    final: bool = False  # a final build: what the data only assumes is printed without its mark

    def context(self) -> dict:
        return {"revision": self.revision + ("*" if self.changed else ""), "changed": self.changed,
                "since": self.since, "final": self.final}


def is_wanted(relative: Path, size: int = 0) -> bool:
    """Whether a file of the project is one a build may read: data, templates, rules, documents, pictures
    and fonts of ordinary size — not its outputs, caches or hidden files, nor a designer's art sources."""
    parts = relative.parts
    if not parts or parts[0] in IGNORED or any(part.startswith(".") for part in parts) or size > MAX_FILE:
        return False
    return parts[0] in BUILD_FOLDERS or relative.suffix.lower() in SOURCE_SUFFIXES


def source_files(root: Path, extra: Iterable[Path] = ()) -> list[Path]:
    """The files a build of the project reads, in a stable order: the YAML at the top and extra (every data
    file the project loaded), and everything in its templates, images, fonts, rules and documents folders.
    Links are not followed."""
    found = {path for path in [*root.glob("*.y*ml"), *extra] if is_source(root, path)}
    for name in BUILD_FOLDERS:
        for folder, dirs, files in os.walk(root / name):
            here = Path(folder)
            dirs[:] = [d for d in dirs if not d.startswith(".") and not (here / d).is_symlink()]
            found.update(here / f for f in files if is_source(root, here / f))
    return sorted(found)


def is_source(root: Path, path: Path) -> bool:
    try:
        relative = path.relative_to(root)
        return not path.is_symlink() and path.is_file() and is_wanted(relative, path.stat().st_size)
    except (ValueError, OSError):
        return False


def project_revision(root: Path, files: Iterable[Path] = ()) -> str:
    """The short commit of the project ('3f2a1c9', '3f2a1c9+' when its files differ from it), else the day its
    newest file was saved ('2026-11-30'): both the same for the same files, so builds stay reproducible.
    files: the data files the project loaded besides the YAML at its top."""
    return read_revision(root, files)[0]


def read_revision(root: Path, files: Iterable[Path] = ()) -> tuple[str, str]:
    """The project's revision (see project_revision), and why it is not the commit when the repository could
    not be read: one a project may not lead to, or one missing objects. A stamp is no reason to fail a build."""
    from .commits import list_files, peel, resolve_base  # imported here: only a template printing the stamp reads git
    from .repository import find_repository, read_index

    sources = source_files(root, files)
    try:
        repo = find_repository(root)
        head = None if repo is None else resolve_base(repo, "HEAD", STAMP)
    except PnpError as error:
        return day_saved(sources), f"{error}; {STAMP} is the day the project last changed instead"
    if repo is None or head is None:
        return day_saved(sources), ""
    short = head[:7].decode("ascii")
    try:
        committed = list_files(repo, peel(repo, head, STAMP), STAMP, lambda path: is_wanted(Path(path)))
    except PnpError as error:
        return short + "+", f"{error}; {STAMP} is {short}+, as the files could not be compared with it"
    return short + ("+" if differs(root, sources, committed or [], read_index(repo)) else ""), ""


def day_saved(sources: list[Path]) -> str:
    """The day the newest of the files was saved, or "" when there is none."""
    times = [path.stat().st_mtime for path in sources]
    if not times:
        return ""
    return datetime.datetime.fromtimestamp(max(times), tz=datetime.timezone.utc).date().isoformat()


def blob_id(data: bytes, like: str) -> str:
    """git's object id of a file's bytes, in the hash the repository uses (as long as `like`)."""
    hasher = hashlib.sha1() if len(like) == 40 else hashlib.sha256()
    hasher.update(b"blob %d\0" % len(data) + data)
    return hasher.hexdigest()


def differs(root: Path, sources: list[Path], committed: list[tuple[str, PurePosixPath]],
            indexed: dict[str, tuple[int, int, str]]) -> bool:
    """Whether the source files differ from the commit's: each file's object id compared with the one committed,
    in Python, because `git status` would run whatever clean filters an untrusted repository configures. A file
    whose size and time are those the index recorded has the id recorded there, as git reads it (not hashed)."""
    ids = {path.as_posix(): sha for sha, path in committed}
    names = {path.relative_to(root).as_posix(): path for path in sources}
    if any(name not in names and is_source_name(name) for name in ids):
        return True

    def object_id(name: str, path: Path) -> str:
        info = path.stat()
        size, when, sha = indexed.get(name, (-1, -1, ""))
        if (size, when) == (info.st_size, info.st_mtime_ns):
            return sha
        return blob_id(path.read_bytes(), ids[name])
    return any(name not in ids or object_id(name, path) != ids[name] for name, path in names.items())


def is_source_name(name: str) -> bool:
    """Whether source_files would list this committed path: in a build folder, or YAML at the top."""
    parts = PurePosixPath(name).parts
    return parts[0] in BUILD_FOLDERS or (len(parts) == 1 and name.endswith((".yaml", ".yml")))


def mentions_build(templates: Path) -> bool:
    """Whether any template may print the stamp: only then is it computed and part of every render key."""
    if not templates.is_dir():
        return False
    # Only looking: a template that is linked out, special or huge is the renderer's to refuse.
    return any("build" in read_quietly(path, templates) for path in sorted(templates.rglob("*.j2")))


def project_stamp(project) -> Stamp:
    """The stamp of a build of project: its revision, computed only when a template may print it."""
    if not mentions_build(project.templates_dir):
        return Stamp()
    revision, note = read_revision(project.root, project.files)
    return Stamp(revision, note=note)
