"""Turn a project folder's git revision (or the day it last changed) into the stamp templates print as build.revision."""
from __future__ import annotations

import datetime
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

GIT_TIMEOUT = 60
# A project's repository is untrusted like the rest of it: its config must not make git run a program
# (an fsmonitor hook), ask for a password or reach the network (a partial clone fetches missing objects).
GIT_SAFETY = ("-c", "core.fsmonitor=false", "-c", "protocol.allow=never", "-c", "credential.helper=")
IGNORED = frozenset({"output", ".pnpgen-cache", ".git", "__pycache__", ".pnpgen-build"})
BUILD_FOLDERS = frozenset({"templates", "images", "fonts", "rules", "documents"})  # read in full
SOURCE_SUFFIXES = frozenset(".yaml .yml .j2 .svg .md .txt .csv .tsv .xlsx .xls .ods .json .png .jpg .jpeg "
                            ".ttf .otf .ttc .otc".split())
MAX_FILE = 64 << 20


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


def project_revision(root: Path) -> str:
    """The short commit of the project ('3f2a1c9', '3f2a1c9+' with uncommitted edits), else the day its
    newest file was saved ('2026-11-30'): both the same for the same files, so builds stay reproducible."""
    head = run_git(root, "rev-parse", "--short=7", "--verify", "-q", "HEAD")
    if head is not None and head.returncode == 0:
        status = run_git(root, "status", "--porcelain", "--untracked-files=no", "--", ".")
        dirty = status is None or status.returncode != 0 or bool(status.stdout.strip())
        return head.stdout.decode("ascii", "replace").strip() + ("+" if dirty else "")
    times = [path.stat().st_mtime for path in source_files(root)]
    if not times:
        return ""
    return datetime.datetime.fromtimestamp(max(times), tz=datetime.timezone.utc).date().isoformat()


def mentions_build(templates: Path) -> bool:
    """Whether any template may print the stamp: only then is it computed and part of every render key."""
    if not templates.is_dir():
        return False
    for path in sorted(templates.rglob("*.j2")):
        try:
            if "build" in path.read_text(encoding="utf-8", errors="replace"):
                return True
        except OSError:
            continue
    return False


def project_stamp(project) -> Stamp:
    """The stamp of a build of project: its revision, computed only when a template may print it."""
    return Stamp(project_revision(project.root)) if mentions_build(project.templates_dir) else Stamp()
