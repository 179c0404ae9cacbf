"""Turn a project folder into the git repository it is kept in, opened with dulwich to read objects and refs only.

No git process runs: git obeys an untrusted repository's configuration (hooks, filters, an fsmonitor, a promisor
remote's `ext::` command) over its command line; dulwich reads the object store as it is, fetching and running
nothing. A `.git` that leads out of the folder holding it (a `gitdir:` file, a link, a `commondir`, borrowed
objects) is refused unless the repository it names lists that folder as its own working tree (a linked worktree,
a submodule); every file the reading may open is an ordinary one.
"""
from __future__ import annotations

import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from dulwich.config import ConfigFile
from dulwich.index import Index
from dulwich.object_format import get_object_format
from dulwich.object_store import DiskObjectStore
from dulwich.refs import DiskRefsContainer

from ..errors import Location, PnpError

SMALL_FILE = 1 << 16  # a .git file, a gitdir, commondir or alternates file, a config: a few lines each
MAX_OBJECT = 256 << 20  # one object inflated in memory: far above any file of a project folder
MAX_INDEX = 64 << 20  # the index of a working tree: far above one of a project's (100 bytes a file)
SPECIAL = "is a link or a special file inside the repository; expected the ordinary files git writes"
READ_NAMES = ("HEAD", "commondir", "gitdir", "config", "packed-refs", "refs", "objects")  # what reading opens


@dataclass(frozen=True)
class Repository:
    """A repository opened for reading, and where the project folder sits in its working tree."""

    top: Path  # the folder holding .git
    prefix: PurePosixPath  # the project folder within top ("." when it is top)
    store: DiskObjectStore
    refs: DiskRefsContainer
    index: Path | None = None  # the working tree's index (git's stat cache), when there is one


def read_index(repo: Repository) -> dict[str, tuple[int, int, str]]:
    """path in the project folder -> (size, mtime_ns, object id) of each file the index recorded before it was
    last written (an entry as new as the index itself may hide an edit, as git knows: left out). Only looked at:
    a damaged or oversized index is no index, and every file is hashed instead."""
    try:
        info = repo.index.lstat() if repo.index is not None else None  # a link is no index
        if info is None or not stat.S_ISREG(info.st_mode) or info.st_size > MAX_INDEX:
            return {}
        entries = Index(str(repo.index), read=True)
        inside = "" if str(repo.prefix) == "." else f"{repo.prefix}/"
        found = {}
        for name in entries:
            entry = entries[name]
            path, when = os.fsdecode(name), entry.mtime[0] * 1_000_000_000 + entry.mtime[1]
            if path.startswith(inside) and when < info.st_mtime_ns:
                found[path[len(inside):]] = (int(entry.size), when, entry.sha.decode("ascii"))
        return found
    except Exception:  # a damaged index makes dulwich raise errors of many kinds; it is only a shortcut: hash instead
        return {}


def find_repository(root: Path) -> Repository | None:
    """The repository whose working tree holds the project folder root, or None outside git; a PnpError (located
    at the .git that leads there) when it is one a project may not lead the reading to."""
    root = root.resolve()
    for top in (root, *root.parents):
        marker = top / ".git"
        try:
            mode = marker.lstat().st_mode
        except OSError:
            continue
        try:
            control = control_folder(root, marker, mode)
            if looks_like_repository(control):
                return open_repository(root, top, marker, control)
        except OSError as error:  # a folder of it that may not be listed, say
            raise PnpError(f"cannot be read ({error.strerror}); expected a readable repository", where(root, marker))
    return None


def control_folder(root: Path, marker: Path, mode: int) -> Path:
    """The folder a .git names: itself, the target of its link, or the folder its `gitdir:` line names."""
    if stat.S_ISDIR(mode):
        return marker
    if stat.S_ISLNK(mode):
        return marker.resolve()
    if not stat.S_ISREG(mode):
        raise PnpError("is neither a folder nor a `gitdir:` file; expected a git repository", where(root, marker))
    first = read_small(root, marker).split(b"\n", 1)[0].rstrip(b"\r")
    if not first.startswith(b"gitdir:"):
        raise PnpError("holds no `gitdir:` line; expected the file git writes for a worktree or a submodule",
                       where(root, marker))
    named = Path(os.fsdecode(first[len(b"gitdir:"):].strip()))
    return (marker.parent / named).resolve()


def looks_like_repository(control: Path) -> bool:
    """Whether a folder holds what every git repository has (as git asks before using one)."""
    return (control / "HEAD").is_file() and ((control / "commondir").is_file() or (control / "objects").is_dir())


def open_repository(root: Path, top: Path, marker: Path, control: Path) -> Repository:
    """The repository at control, once it is shown to belong to top and to hold only ordinary files."""
    control = control.resolve()
    common = control
    if (control / "commondir").is_file():
        common = (control / os.fsdecode(read_small(root, control / "commondir").strip())).resolve()
    own = all(folder.is_relative_to(top) for folder in (control, common))
    if not own and not names_back(root, top, marker, control):
        outside = control if not control.is_relative_to(top) else common
        raise PnpError(f"names the repository {outside}, outside {top}; expected a repository inside the project "
                       "folder (or a worktree or submodule that repository lists as its own)", where(root, marker))
    bounds = top if own else common
    objects = common / "objects"
    stores = borrowed_stores(root, objects, bounds)
    for folder in dict.fromkeys((control, common, *stores)):
        refuse_special(root, folder, bounds)
    config = read_config(root, common / "config")
    try:
        format_name = config.get((b"extensions",), b"objectformat").decode("ascii")
    except (KeyError, UnicodeError):
        format_name = None
    try:
        object_format = get_object_format(format_name)
    except ValueError:
        raise PnpError(f"uses the object format {format_name}; expected sha1 or sha256", where(root, marker))
    store = DiskObjectStore(str(objects), object_format=object_format, loose_object_size_limit=MAX_OBJECT)
    refs = DiskRefsContainer(str(common), str(control))
    prefix = PurePosixPath(root.relative_to(top).as_posix())
    return Repository(top, prefix, store, refs, control / "index")


def names_back(root: Path, top: Path, marker: Path, control: Path) -> bool:
    """Whether the repository at control names top as its working tree: a linked worktree's `gitdir` file leads
    back to top's .git, a submodule's core.worktree to top. A project cannot write either outside itself."""
    back = control / "gitdir"
    if back.is_file() and not back.is_symlink():
        named = os.fsdecode(read_small(root, back).strip())
        return (control / named).resolve() == marker.resolve()
    try:
        worktree = read_config(root, control / "config").get((b"core",), b"worktree")
    except KeyError:
        return False
    return (control / os.fsdecode(worktree)).resolve() == top


def borrowed_stores(root: Path, objects: Path, bounds: Path) -> list[Path]:
    """The object folders the store borrows from through objects/info/alternates (and theirs in turn); each must
    lie within bounds."""
    found, pending = [], [objects]
    while pending:
        folder = pending.pop()
        listing = folder / "info" / "alternates"
        if not listing.is_file():
            continue
        for line in read_small(root, listing).splitlines():
            if not line.strip() or line.startswith(b"#"):
                continue
            borrowed = (folder / os.fsdecode(line.strip())).resolve()
            if not borrowed.is_relative_to(bounds):
                raise PnpError(f"borrows objects from {borrowed}, outside {bounds}; expected a repository that "
                               "holds its own objects", where(root, listing))
            if borrowed not in found and len(found) < 16:
                found.append(borrowed)
                pending.append(borrowed)
    return found


def refuse_special(root: Path, folder: Path, bounds: Path) -> None:
    """Refuse a link or a special file among the files reading refs and objects may open: a link could lead the
    reading out of bounds, a named pipe would block it for ever, a device would read without end."""
    if not folder.resolve().is_relative_to(bounds):
        raise PnpError(f"lies outside {bounds}; expected a repository inside it", where(root, folder))
    names = READ_NAMES if (folder / "HEAD").exists() else ("",)
    pending = [os.path.join(folder, name) for name in names]
    while pending:
        path = pending.pop()
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode):
            with os.scandir(path) as listing:  # the kind of each entry comes with the listing: no stat each
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif not entry.is_file(follow_symlinks=False):
                        raise PnpError(SPECIAL, where(root, Path(entry.path)))
        elif not stat.S_ISREG(mode):
            raise PnpError(SPECIAL, where(root, Path(path)))


def read_small(root: Path, path: Path) -> bytes:
    """The bytes of a small regular file the repository keeps (never a pipe or a device, which would block)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > SMALL_FILE:
            raise PnpError(f"is not a small regular file; expected one of at most {SMALL_FILE} bytes",
                           where(root, path))
        return path.read_bytes()
    except OSError as error:
        raise PnpError(f"cannot be read ({error.strerror}); expected a readable repository", where(root, path))


def read_config(root: Path, path: Path) -> ConfigFile:
    """A repository's configuration, parsed without following its includes; only looked at, never obeyed."""
    if not path.is_file():
        return ConfigFile()
    try:
        return ConfigFile.from_file(io.BytesIO(read_small(root, path)), expand_includes=False)
    except ValueError:
        raise PnpError("is not a git configuration file; expected the one git writes", where(root, path))


def where(root: Path, path: Path) -> Location:
    """A file of the repository as messages name it: relative to the project folder when inside it (by its
    name: a link is named where it stands, not where it leads)."""
    return Location(str(path.relative_to(root) if path.is_relative_to(root) else path))
