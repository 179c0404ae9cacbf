"""Turn REF (a git revision of the project, or last-build) into a temporary folder holding the project as it was.

git on PATH reads the revision: `ls-tree` lists the project's files at that commit and one `cat-file --batch`
streams them out; no checkout, no worktree, nothing in the repository changes, and only regular files are
written (links and submodules of the old tree are left out, as a build refuses them anyway).
"""
from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterator

from ..errors import PnpError
from ..project.revision import LARGE, blob_id, list_blobs, run_git
from ..pipeline.record import has_record, restore_record

LAST_BUILD = "last-build"
MAX_BYTES = 256 << 20  # read into memory at once: an old tree larger than this is no project folder


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
    found = run_git(root, "rev-parse", "--verify", "-q", "HEAD")
    if found is not None and found.returncode == 0:
        return "HEAD"
    if has_record(out_dir):
        return LAST_BUILD
    why = "git is not installed" if found is None else "the project is not in a git repository with a commit"
    raise PnpError(f"nothing to compare with: {why}, and {out_dir} holds no record of a previous `pnpgen build`; "
                   "expected --since REF (a git revision such as HEAD~1 or a tag), or a build first "
                   "(then --since last-build)")


def export_revision(root: Path, ref: str, target: Path) -> tuple[str, set[str]]:
    """Write the project folder as it was at the git revision ref into target; return its name ('ref (3f2a1c9)')
    and the large files found the same as today."""
    where = run_git(root, "rev-parse", "--show-prefix")
    if where is None:
        raise PnpError(f"--since {ref}: git is not installed; expected git on PATH to read a revision, "
                       f"or --since {LAST_BUILD} to compare with the previous build")
    if where.returncode != 0:
        raise PnpError(f"--since {ref}: {root} is not in a git repository; expected a project in git, "
                       f"or --since {LAST_BUILD} to compare with the previous build")
    prefix = where.stdout.decode("utf-8", "surrogateescape").strip()
    found = run_git(root, "rev-parse", "--verify", "-q", "--end-of-options", f"{ref}^{{commit}}")
    if ref.startswith("-") or found is None or found.returncode != 0:
        raise PnpError(f"--since {ref}: no such revision in the project's repository; "
                       "expected a commit, tag or branch such as HEAD, HEAD~2 or playtest-3")
    commit = found.stdout.decode("ascii").strip()
    listing = run_git(root, "ls-tree", "--full-tree", "-r", "-z", "-l", f"{commit}:{prefix}")
    if listing is None or listing.returncode != 0:
        raise PnpError(f"--since {ref}: the project folder did not exist at that revision; expected a later one")
    blobs = list_blobs(listing.stdout)
    if sum(size for _, _, size in blobs) > MAX_BYTES:
        raise PnpError(f"--since {ref}: the project at that revision holds more than {MAX_BYTES >> 20} MB; "
                       "expected a project folder")
    remaining, same = copy_unchanged(root, blobs, target)
    write_blobs(root, remaining, target)
    return f"{ref} ({commit[:7]})", same


def copy_unchanged(root: Path, blobs: list[tuple[str, PurePosixPath, int]], target: Path) -> tuple[list, set[str]]:
    """Copy each large file (fonts, pictures) that is the same today from the project folder, which is much
    faster than through git; return the blobs still to read, and the paths copied."""
    remaining, same = [], set()
    for sha, path, size in blobs:
        current = root.joinpath(*path.parts)
        if size >= LARGE and not current.is_symlink() and current.is_file() and current.stat().st_size == size:
            data = current.read_bytes()
            if blob_id(data, sha) == sha:
                destination = target.joinpath(*path.parts)
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(data)
                same.add(path.as_posix())
                continue
        remaining.append((sha, path, size))
    return remaining, same


def write_blobs(root: Path, blobs: list[tuple[str, PurePosixPath, int]], target: Path) -> None:
    """Read every blob with one `git cat-file --batch` and write each where it stood in the project."""
    if not blobs:
        return
    done = run_git(root, "cat-file", "--batch", stdin="".join(f"{sha}\n" for sha, _, _ in blobs).encode("ascii"))
    if done is None or done.returncode != 0:
        raise PnpError("git could not read the files of that revision; expected a readable repository")
    data, offset = done.stdout, 0
    for sha, path, size in blobs:
        header_end = data.index(b"\n", offset)
        header = data[offset:header_end].split()
        if len(header) != 3 or header[0].decode("ascii") != sha or int(header[2]) != size:
            raise PnpError("git gave an unexpected answer while reading the revision; expected its files")
        start = header_end + 1
        destination = target.joinpath(*path.parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data[start:start + size])
        offset = start + size + 1
