"""Turn a project folder's git revision (or the day it last changed) into the stamp templates print as build.revision."""
from __future__ import annotations

import datetime
import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

from ..files.reading import read_quietly

GIT_TIMEOUT = 60
# A project's repository is untrusted like the rest of it: its config must not make git run a program
# (an fsmonitor hook), ask for a password or reach the network (a partial clone fetches missing objects).
GIT_SAFETY = ("-c", "core.fsmonitor=false", "-c", "protocol.allow=never", "-c", "credential.helper=")
IGNORED = frozenset({"output", ".pnpgen-cache", ".git", "__pycache__", ".pnpgen-build"})
BUILD_FOLDERS = frozenset({"templates", "images", "fonts", "rules", "documents"})  # read in full
SOURCE_SUFFIXES = frozenset(".yaml .yml .j2 .svg .md .txt .csv .tsv .xlsx .xls .ods .json .png .jpg .jpeg "
                            ".ttf .otf .ttc .otc".split())
MAX_FILE = 64 << 20
LARGE = 1 << 20  # compared by size alone when telling whether the project differs from its last commit


@dataclass(frozen=True)
class Stamp:
    """What `{{ build.* }}` holds: the revision printed, and whether the card changed since `since`."""

    revision: str = ""
    changed: bool = False
    since: str = ""

    def context(self) -> dict:
        return {"revision": self.revision + ("*" if self.changed else ""), "changed": self.changed,
                "since": self.since}


def run_git(root: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess | None:
    """git's result in root, or None when git is not installed (or does not answer)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    try:
        return subprocess.run(["git", *GIT_SAFETY, "-C", str(root), *args], input=stdin, capture_output=True,
                              env=env, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None


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
    sources = source_files(root, files)
    head = run_git(root, "rev-parse", "--verify", "-q", "HEAD")
    prefix = run_git(root, "rev-parse", "--show-prefix")
    if head is not None and head.returncode == 0 and prefix is not None and prefix.returncode == 0:
        commit = head.stdout.decode("ascii", "replace").strip()
        where = prefix.stdout.decode("utf-8", "surrogateescape").strip()
        listing = run_git(root, "ls-tree", "--full-tree", "-r", "-z", "-l", f"{commit}:{where}")
        committed = list_blobs(listing.stdout) if listing is not None and listing.returncode == 0 else []
        return commit[:7] + ("+" if differs(root, sources, committed) else "")
    times = [path.stat().st_mtime for path in sources]
    if not times:
        return ""
    return datetime.datetime.fromtimestamp(max(times), tz=datetime.timezone.utc).date().isoformat()


def list_blobs(listing: bytes) -> list[tuple[str, PurePosixPath, int]]:
    """(object id, path, size) of every regular file of an `ls-tree -r -z -l` listing a build may read."""
    blobs = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, sha, size = meta.split()
        path = PurePosixPath(name.decode("utf-8", "surrogateescape"))
        if kind == b"blob" and mode in (b"100644", b"100755") and is_wanted(Path(path), int(size)) \
                and ".." not in path.parts:
            blobs.append((sha.decode("ascii"), path, int(size)))
    return blobs


def blob_id(data: bytes, like: str) -> str:
    """git's object id of a file's bytes, in the hash the repository uses (as long as `like`)."""
    hasher = hashlib.sha1() if len(like) == 40 else hashlib.sha256()
    hasher.update(b"blob %d\0" % len(data) + data)
    return hasher.hexdigest()


def differs(root: Path, sources: list[Path], committed: list[tuple[str, PurePosixPath, int]]) -> bool:
    """Whether the source files differ from the commit: compared in Python, because `git status` would run
    whatever clean filters an untrusted repository configures. Large files are compared by size."""
    ids = {path.as_posix(): (sha, size) for sha, path, size in committed}
    names = {path.relative_to(root).as_posix(): path for path in sources}
    if any(name not in names and is_source_name(name) for name in ids):
        return True
    for name, path in names.items():
        sha, size = ids.get(name, ("", -1))
        if size != path.stat().st_size or (size < LARGE and blob_id(path.read_bytes(), sha) != sha):
            return True
    return False


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
    return Stamp(project_revision(project.root, project.files))
