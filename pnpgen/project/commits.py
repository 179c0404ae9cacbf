"""Turn a revision name as a designer types it (HEAD, HEAD~2, main^2, a branch, a tag, a short or full hash) into
the commit it names, the project's files in that commit and their bytes, read from a repository's object store
(an object it lacks is a message: nothing is fetched)."""
from __future__ import annotations

import re
import stat
import struct
import zlib
from pathlib import PurePosixPath
from typing import Callable

from dulwich.errors import ApplyDeltaError, ChecksumMismatch, FileFormatException, WrongObjectException
from dulwich.objects import Commit, Tag, Tree
from dulwich.refs import check_ref_format

from ..errors import PnpError
from .repository import Repository

# What reading a damaged or hand-made repository may raise from inside dulwich: each becomes a message.
DAMAGED = (OSError, ValueError, EOFError, zlib.error, struct.error, AssertionError, IndexError, StopIteration,
           ChecksumMismatch, FileFormatException, WrongObjectException, ApplyDeltaError)
BASE = re.compile(r"[^\s~^:?*\[\\]+")  # a ref name or a hash, before any ~N and ^N steps
STEP = re.compile(r"\^\{(?:commit)?\}|~(\d*)|\^(\d*)")
TOP_REFS = frozenset({"HEAD", "ORIG_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD"})
MAX_NAME = 200
MAX_FILES = 100_000  # in the project folder of one commit: a tree that repeats itself could list without end
MAX_DEPTH = 64
BLOB = 3  # git's type number of a blob
EXPECTED = "expected a commit, tag or branch such as HEAD, HEAD~2 or playtest-3"


def resolve_commit(repo: Repository, name: str, what: str) -> Commit:
    """The commit name names; a PnpError beginning with what when there is none, or when it is not all here."""
    unknown = f"{what}: no such revision in the project's repository; {EXPECTED}"
    base = BASE.match(name)
    found = None
    if base is not None and not name.startswith("-") and len(name) <= MAX_NAME:
        found = resolve_base(repo, base.group(), what)
    if found is None:
        raise PnpError(unknown)
    commit = peel(repo, found, what)
    position = base.end()
    while position < len(name):
        step = STEP.match(name, position)
        if step is None:
            raise PnpError(unknown)
        position = step.end()
        back, parent = step.group(1), step.group(2)
        for _ in range(int(back or 1) if back is not None else 0):
            commit = parent_of(repo, commit, 1, what)
        if parent is not None and parent != "0":
            commit = parent_of(repo, commit, int(parent or 1), what)
    return commit


def resolve_base(repo: Repository, base: str, what: str) -> bytes | None:
    """The object id a ref name or a hash names, or None."""
    base = "HEAD" if base == "@" else base
    length = repo.store.object_format.hex_length
    if re.fullmatch(f"[0-9a-f]{{{length}}}", base):
        try:
            return base.encode("ascii") if base.encode("ascii") in repo.store else None
        except DAMAGED:
            raise PnpError(f"{what}: the repository's objects cannot be read; expected an undamaged repository")
    candidates = [base] if base in TOP_REFS or base.startswith("refs/") else []  # then as git tries a name
    candidates += [f"refs/{base}", f"refs/tags/{base}", f"refs/heads/{base}", f"refs/remotes/{base}",
                   f"refs/remotes/{base}/HEAD"]
    for candidate in candidates:
        if candidate in TOP_REFS or check_ref_format(candidate.encode("utf-8", "surrogateescape")):
            found = follow_ref(repo, candidate.encode("utf-8", "surrogateescape"), what)
            if found is not None:
                return found
    if 4 <= len(base) < length and re.fullmatch("[0-9a-f]+", base):
        return find_short(repo, base, what)
    return None


def follow_ref(repo: Repository, name: bytes, what: str) -> bytes | None:
    """The object id a ref holds, following symbolic refs; None when there is no such ref."""
    length = repo.store.object_format.hex_length
    try:
        for _ in range(5):
            contents = repo.refs.read_ref(name)
            if not contents:
                return None
            if not contents.startswith(b"ref: "):
                break
            name = contents[len(b"ref: "):].strip()
            if name.decode("ascii", "replace") not in TOP_REFS and not check_ref_format(name):
                raise ValueError(name)
        else:
            raise ValueError(name)
    except DAMAGED:
        raise PnpError(f"{what}: the repository's refs cannot be read; expected the refs git writes")
    if not re.fullmatch(rb"[0-9a-f]{%d}" % length, contents):
        raise PnpError(f"{what}: the ref {name.decode('utf-8', 'replace')} holds no object id; "
                       "expected the refs git writes")
    return contents


def find_short(repo: Repository, prefix: str, what: str) -> bytes | None:
    """The one commit whose id starts with prefix (or the tag naming one), or None."""
    try:
        ids = sorted(set(repo.store.iter_prefix(prefix.encode("ascii"))))
    except DAMAGED:
        raise PnpError(f"{what}: the repository's objects cannot be read; expected an undamaged repository")
    commits = [sha for sha in ids if isinstance(read_object(repo, sha, what, "an object"), (Commit, Tag))]
    if len(commits) > 1:
        raise PnpError(f"{what}: {prefix} begins the ids of {len(commits)} commits; expected more of the hash")
    return commits[0] if commits else None


def peel(repo: Repository, sha: bytes, what: str) -> Commit:
    """The commit an object id names, through any tags."""
    found = read_object(repo, sha, what, "the commit")
    for _ in range(16):
        if not isinstance(found, Tag):
            break
        found = read_object(repo, found.object[1], what, "the tagged commit")
    if not isinstance(found, Commit):
        raise PnpError(f"{what}: names a {found.type_name.decode('ascii', 'replace')}, not a commit; {EXPECTED}")
    return found


def parent_of(repo: Repository, commit: Commit, number: int, what: str) -> Commit:
    """The commit's parent number (1 for the first)."""
    if len(commit.parents) < number:
        raise PnpError(f"{what}: no such revision: commit {abbreviate(commit.id)} has no parent {number}; "
                       "expected a revision within the history")
    return peel(repo, commit.parents[number - 1], what)


def list_files(repo: Repository, commit: Commit, what: str,
               wanted: Callable[[PurePosixPath], bool]) -> list[tuple[str, PurePosixPath]] | None:
    """(object id, path within the project folder) of each regular file of the commit's project folder that
    wanted keeps, or None when the folder did not exist then. Links and submodules are left out."""
    tree = read_object(repo, commit.tree, what, "the commit's tree")
    for part in repo.prefix.parts:
        entry = read_entries(tree, what).get(part)
        if entry is None or not stat.S_ISDIR(entry[0]):
            return None
        tree = read_object(repo, entry[1], what, f"the folder {part}")
    found: list[tuple[str, PurePosixPath]] = []
    pending = [(tree, PurePosixPath())]
    while pending:
        tree, folder = pending.pop()
        for name, (mode, sha) in read_entries(tree, what).items():
            path = folder / name
            if stat.S_ISDIR(mode):
                if len(path.parts) > MAX_DEPTH:
                    raise PnpError(f"{what}: {path} is nested more than {MAX_DEPTH} folders deep; expected a project")
                pending.append((read_object(repo, sha, what, f"the folder {path}"), path))
            elif mode in (0o100644, 0o100755) and wanted(path):
                found.append((sha.decode("ascii"), path))
                if len(found) > MAX_FILES:
                    raise PnpError(f"{what}: the project at that revision holds more than {MAX_FILES:,} files; "
                                   "expected a project folder")
    return sorted(found, key=lambda item: item[1])


def read_entries(tree: Tree, what: str) -> dict[str, tuple[int, bytes]]:
    """A tree's entries by name; names that could not be a file's in a folder ('', '.', '..', with '/') left out."""
    try:
        items = list(tree.iteritems())
    except DAMAGED:
        raise PnpError(f"{what}: a folder of that revision cannot be read ({abbreviate(tree.id)}); "
                       "expected an undamaged repository")
    named = {}
    for item in items:
        name = item.path.decode("utf-8", "surrogateescape")
        if name not in ("", ".", "..") and "/" not in name and "\0" not in name:
            named[name] = (item.mode, item.sha)
    return named


def read_blob(repo: Repository, sha: str, path: PurePosixPath, what: str) -> bytes:
    """The bytes of a file of the revision."""
    kind, data = read_object(repo, sha.encode("ascii"), what, str(path), raw=True)
    if kind != BLOB:
        raise PnpError(f"{what}: {path} ({sha[:7]}) is not a file's contents; expected an undamaged repository")
    return data


def read_object(repo: Repository, sha: bytes, what: str, naming: str, raw: bool = False):
    """The object sha names in the store (raw: its type number and bytes); a PnpError when it is missing or damaged."""
    try:
        return repo.store.get_raw(sha) if raw else repo.store[sha]
    except KeyError:
        raise PnpError(describe_missing(what, naming, sha))
    except DAMAGED:
        raise PnpError(f"{what}: {naming} ({abbreviate(sha)}) cannot be read from the repository; "
                       "expected an undamaged repository")


def describe_missing(what: str, naming: str, sha: bytes) -> str:
    """The message for an object the store lacks: pnpgen reads what is there, and fetches nothing."""
    return (f"{what}: this revision is not complete in this clone: {naming} ({abbreviate(sha)}) is missing from the "
            "repository; expected a clone that holds it (pnpgen reads the repository as it is and never fetches)")


def abbreviate(sha: bytes) -> str:
    """An object id as messages and labels show it."""
    return sha[:7].decode("ascii", "replace")
