"""Git repositories made with dulwich (no git binary needed): a project folder committed, and the hostile shapes
a downloaded project's repository may take — a partial clone whose promisor remote is a command, a `.git`
file naming another repository."""
from __future__ import annotations

import shutil
from pathlib import Path

from dulwich import porcelain
from dulwich.repo import Repo

FIXTURES = Path(__file__).resolve().parent / "fixtures"
STAMPED = "{{ build.revision }}"  # appended to a template, so that a build reads the revision


def minimal_project(target: Path, stamped: bool = True) -> Path:
    """The minimal fixture deck copied to target; its front template prints the revision stamp when stamped."""
    shutil.copytree(FIXTURES / "minimal", target)
    if stamped:
        front = target / "templates" / "front.svg.j2"
        front.write_text(front.read_text(encoding="utf-8") + STAMPED, encoding="utf-8")
    return target


def commit_folder(folder: Path, message: str = "playtest") -> str:
    """Every file of folder committed (the repository made first if need be); the new commit's id."""
    if not (folder / ".git").exists():
        porcelain.init(str(folder))
    paths = [str(path) for path in sorted(folder.rglob("*")) if path.is_file() and ".git" not in path.parts]
    porcelain.add(str(folder), paths=paths)
    author = b"t <t@example.org>"
    return porcelain.commit(str(folder), message.encode("utf-8"), author=author, committer=author).decode("ascii")


def object_of(folder: Path, name: str) -> str:
    """The object id of the file or folder name (relative to folder) in the repository's last commit."""
    with Repo(str(folder)) as repo:
        tree = repo[repo[b"HEAD"].tree]
        return tree.lookup_path(repo.object_store.__getitem__, name.encode("utf-8"))[1].decode("ascii")


def delete_object(folder: Path, sha: str) -> None:
    """Remove a loose object, as a partial clone lacks it until git fetches it."""
    (folder / ".git" / "objects" / sha[:2] / sha[2:]).unlink()


def make_promisor(folder: Path, marker: Path) -> None:
    """Set the repository up as a partial clone whose promisor remote is an `ext::` command creating marker:
    git asked for a missing object runs it to "fetch" it, whatever `-c protocol.allow=never` says."""
    command = f"ext::sh -c touch% {marker}"
    config = folder / ".git" / "config"
    config.write_text("[core]\n\trepositoryformatversion = 1\n\tbare = false\n"
                      f"[remote \"origin\"]\n\turl = {command}\n\tpromisor = true\n\tpartialclonefilter = blob:none\n"
                      "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
                      "[extensions]\n\tpartialclone = origin\n[protocol \"ext\"]\n\tallow = always\n"
                      "[protocol]\n\tallow = always\n", encoding="utf-8")


def point_gitdir(project: Path, repository: Path) -> None:
    """Give project a `.git` file naming repository's control folder, as a worktree's does."""
    (project / ".git").write_text(f"gitdir: {repository / '.git'}\n", encoding="utf-8")
