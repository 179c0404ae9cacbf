"""Turn REF (a git revision of the project, or last-build) into a temporary folder holding the project as it was.

The revision is read from the repository's object store with dulwich (project/commits.py): no git process, no
checkout, no fetch, nothing in the repository changes, and only regular files are written (links and
submodules of the old tree are left out, as a build refuses them anyway).
"""
from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterator

from ..errors import PnpError
from ..project.commits import list_files, read_blob, resolve_base, resolve_commit
from ..project.repository import Repository, find_repository
from ..project.revision import MAX_FILE, blob_id, is_wanted
from ..pipeline.record import has_record, restore_record

LAST_BUILD = "last-build"
MAX_BYTES = 256 << 20  # an old tree larger than this is no project folder


@contextlib.contextmanager
def open_old_project(root: Path, ref: str, out_dir: Path) -> Iterator[tuple[Path, str, set[str]]]:
    """Yield (folder holding the project at ref, how to name that state, the files proven the same as today);
    the folder is removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="pnpgen-diff-") as temp:
        folder = Path(temp) / "project"
        folder.mkdir()
        if ref == LAST_BUILD:
            yield folder, restore_record(out_dir, folder), set()
        else:
            yield folder, *export_revision(root, ref, folder)


def choose_since(root: Path, out_dir: Path) -> str:
    """The last commit when the project is in git, else the previous build into out_dir."""
    repo = find_repository(root)
    if repo is not None and resolve_base(repo, "HEAD", "the last commit") is not None:
        return "HEAD"
    if has_record(out_dir):
        return LAST_BUILD
    raise PnpError(f"nothing to compare with: the project is not in a git repository with a commit, and {out_dir} "
                   "holds no record of a previous `pnpgen build`; expected --since REF (a git revision such as "
                   "HEAD~1 or a tag), or a build first (then --since last-build)")


def export_revision(root: Path, ref: str, target: Path) -> tuple[str, set[str]]:
    """Write the project folder as it was at the git revision ref into target; return its name ('ref (3f2a1c9)')
    and the files found the same as today."""
    what = f"--since {ref}"
    repo = find_repository(root)
    if repo is None:
        raise PnpError(f"{what}: {root} is not in a git repository; expected a project in git, "
                       f"or --since {LAST_BUILD} to compare with the previous build")
    commit = resolve_commit(repo, ref, what)
    files = list_files(repo, commit, what, lambda path: is_wanted(Path(path)))
    if files is None:
        raise PnpError(f"{what}: the project folder did not exist at that revision; expected a later one")
    same = write_files(repo, root, files, target, what)
    return f"{ref} ({commit.id[:7].decode('ascii')})", same


def write_files(repo: Repository, root: Path, files: list[tuple[str, PurePosixPath]], target: Path,
                what: str) -> set[str]:
    """Write each file where it stood in the project; return the paths of those the same as today, which are
    copied from the project folder (faster than inflating them, and proven the same by their object id)."""
    same, total = set(), 0
    for sha, path in files:
        current = root.joinpath(*path.parts)
        data = None
        if not current.is_symlink() and current.is_file() and current.stat().st_size <= MAX_FILE:
            data = current.read_bytes()
            if blob_id(data, sha) == sha:
                same.add(path.as_posix())
            else:
                data = None
        if data is None:
            data = read_blob(repo, sha, path, what)
        if len(data) > MAX_FILE:
            continue  # no file a build reads is this large
        total += len(data)
        if total > MAX_BYTES:
            raise PnpError(f"{what}: the project at that revision holds more than {MAX_BYTES >> 20} MB; "
                           "expected a project folder")
        destination = target.joinpath(*path.parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
    return same
