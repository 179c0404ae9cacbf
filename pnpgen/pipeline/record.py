"""Turn a finished build's source files into the record `--since last-build` reads: what that build printed.

OUTDIR/.pnpgen-build/ holds an index (path -> content hash) and each distinct file once, named by its hash.
Like anything in an output folder it is untrusted on reading: every file is checked against its hash, only
plain relative paths are restored, and the project it makes is loaded and validated like any other.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Iterable

from ..files.atomic import write_atomically
from ..digests import file_pieces, file_sha256
from ..errors import PnpError
from ..project.revision import source_files, is_wanted

if TYPE_CHECKING:
    from ..project.model import Project

FOLDER = ".pnpgen-build"
VERSION = 1


def read_index(out_dir: Path) -> dict:
    try:
        index = json.loads((Path(out_dir) / FOLDER / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(index, dict) or index.get("version") != VERSION or not isinstance(index.get("files"), dict):
        return {}
    return index


def record_build(project: Project, out_dir: Path, revision: str) -> None:
    """Remember every source file of the project as this build saw it (unchanged files are not hashed again)."""
    record_sources(project.root, project.files, out_dir, revision)


def record_sources(root: Path, data: Iterable[Path], out_dir: Path, revision: str) -> None:
    """record_build for a project at root that loaded the data files `data`."""
    folder = Path(out_dir) / FOLDER
    before = read_index(out_dir).get("files", {})
    files = {}
    for path in source_files(root, data):
        name = path.relative_to(root).as_posix()
        stat = path.stat()
        known = before.get(name)
        if isinstance(known, dict) and known.get("size") == stat.st_size and known.get("mtime_ns") == stat.st_mtime_ns \
                and (folder / "objects" / str(known.get("sha256"))).is_file():
            files[name] = known
            continue
        sha = file_sha256(path).hex()
        target = folder / "objects" / sha
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, file_pieces(path), "build record", durable=False)
        files[name] = {"sha256": sha, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    if files == before:
        return
    index = {"version": VERSION, "revision": revision, "files": files}
    write_atomically(folder / "index.json", json.dumps(index, ensure_ascii=False, indent=1, sort_keys=True)
                     .encode("utf-8"), "build record", durable=False)  # lost in a crash: no last build to compare
    keep = {entry["sha256"] for entry in files.values()}
    for stale in (folder / "objects").iterdir() if (folder / "objects").is_dir() else ():
        # another build of the same output writing its record meanwhile has a temporary file here: not ours to remove
        if stale.name not in keep and not stale.name.startswith("."):
            stale.unlink(missing_ok=True)


def has_record(out_dir: Path) -> bool:
    return bool(read_index(out_dir))


def restore_record(out_dir: Path, target: Path) -> str:
    """Write the recorded project into the empty folder target; return the revision that build printed."""
    index = read_index(out_dir)
    if not index:
        raise PnpError(f"--since last-build: {Path(out_dir) / FOLDER} holds no record of a previous build; "
                       "expected a `pnpgen build` into this output folder first (or a git revision)")
    for name, entry in sorted(index["files"].items()):
        relative = PurePosixPath(name)
        sha = entry.get("sha256") if isinstance(entry, dict) else None
        if relative.is_absolute() or ".." in relative.parts or not is_wanted(Path(relative)) \
                or not isinstance(sha, str) or len(sha) != 64:
            raise PnpError(f"--since last-build: the record names '{name}', which is no file of a project; "
                           "expected a record written by `pnpgen build` (build again to renew it)")
        source = Path(out_dir) / FOLDER / "objects" / sha
        destination = Path(target, *relative.parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(source, destination, follow_symlinks=False)
        except OSError:
            raise PnpError(f"--since last-build: the record lacks '{name}'; build again to renew it") from None
        if source.is_symlink() or file_sha256(destination).hex() != sha:
            raise PnpError(f"--since last-build: the recorded '{name}' was altered after the build; "
                           "build again to renew the record")
    revision = index.get("revision")
    return f"the last build ({revision})" if isinstance(revision, str) and revision else "the last build"
