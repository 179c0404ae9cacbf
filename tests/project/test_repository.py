"""A project's repository is read with dulwich, never by running git: a partial clone whose promisor remote is a
command runs nothing, a `.git` leading to another repository is refused with the path it named, and a build
whose repository cannot be read still builds, saying why its stamp is not the commit."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from dulwich import porcelain

from pnpgen.cli import main
from pnpgen.errors import PnpError
from pnpgen.project.repository import find_repository
from pnpgen.project.revision import read_revision
from repos import commit_folder, delete_object, make_promisor, minimal_project, object_of, point_gitdir

NOT_COMPLETE = ("the revision stamp: this revision is not complete in this clone: the folder templates ({tree}) is "
                "missing from the repository; expected a clone that holds it (pnpgen reads the repository as it is "
                "and never fetches); the revision stamp is {commit}+, as the files could not be compared with it")
OUTSIDE = (".git: names the repository {named}, outside {project}; expected a repository inside the project "
           "folder (or a worktree or submodule that repository lists as its own)")


def day_stamp(project: Path) -> str:
    """What the stamp is outside git: the day the newest file was saved (all set to one day here)."""
    for path in project.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            os.utime(path, (1_700_000_000, 1_700_000_000))
    return "2023-11-14"


def other_repository(tmp_path: Path) -> Path:
    """Somebody else's repository on the same machine, with cards of its own."""
    other = minimal_project(tmp_path / "other")
    cards = other / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("盾", "秘密の盾"), encoding="utf-8")
    commit_folder(other)
    return other


def test_a_promisor_remote_that_is_a_command_runs_nothing_and_the_build_says_why(tmp_path):
    project = minimal_project(tmp_path / "project")
    commit = commit_folder(project)
    marker = tmp_path / "ran"
    blob, tree = object_of(project, "cards.yaml"), object_of(project, "templates")
    make_promisor(project, marker)
    delete_object(project, blob)  # a blobless clone: the stamp needs trees only
    assert read_revision(project) == (commit[:7], "")
    delete_object(project, tree)
    note = NOT_COMPLETE.format(tree=tree[:7], commit=commit[:7])
    assert read_revision(project) == (commit[:7] + "+", note)
    result = CliRunner().invoke(main, ["build", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert f"note: {note}\n" in result.output
    assert (tmp_path / "out" / "tiny" / "deck.pdf").is_file()
    assert not marker.exists()


def test_a_gitdir_file_naming_another_repository_is_refused_with_the_path_it_named(tmp_path):
    other = other_repository(tmp_path)
    project = minimal_project(tmp_path / "project")
    point_gitdir(project, other)
    message = OUTSIDE.format(named=other / ".git", project=project)
    with pytest.raises(PnpError) as refused:
        find_repository(project)
    assert str(refused.value) == message
    day = day_stamp(project)
    assert read_revision(project) == (day, f"{message}; the revision stamp is the day the project last changed instead")
    result = CliRunner().invoke(main, ["build", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert f"note: {message}; the revision stamp is the day" in result.output


@pytest.mark.parametrize("shape", ["link", "commondir", "alternates"])
def test_a_repository_that_leads_out_of_the_project_is_refused(tmp_path, shape):
    other = other_repository(tmp_path)
    project = minimal_project(tmp_path / "project")
    if shape == "link":
        (project / ".git").symlink_to(other / ".git")
        expected = OUTSIDE.format(named=other / ".git", project=project)
    else:
        commit_folder(project)
        if shape == "commondir":
            (project / ".git" / "commondir").write_text(str(other / ".git") + "\n", encoding="utf-8")
            expected = OUTSIDE.format(named=other / ".git", project=project)
        else:
            (project / ".git" / "objects" / "info").mkdir(exist_ok=True)
            (project / ".git" / "objects" / "info" / "alternates").write_text(str(other / ".git" / "objects"))
            expected = (f".git/objects/info/alternates: borrows objects from {other / '.git' / 'objects'}, outside "
                        f"{project}; expected a repository that holds its own objects")
    with pytest.raises(PnpError) as refused:
        find_repository(project)
    assert str(refused.value) == expected


def test_a_pipe_or_a_link_inside_the_repository_is_refused_unread(tmp_path):
    project = minimal_project(tmp_path / "project")
    commit_folder(project)
    os.mkfifo(project / ".git" / "refs" / "heads" / "waiting")
    with pytest.raises(PnpError) as refused:
        find_repository(project)  # reading the pipe would wait for ever
    assert str(refused.value) == (".git/refs/heads/waiting: is a link or a special file inside the repository; "
                                  "expected the ordinary files git writes")


def test_a_worktree_of_the_users_own_repository_is_read_and_a_copy_of_its_git_file_is_not(tmp_path):
    own = minimal_project(tmp_path / "own")
    commit = commit_folder(own)
    worktree = tmp_path / "worktree"
    porcelain.worktree_add(str(own), str(worktree), branch="playtest")
    assert read_revision(worktree) == (commit[:7], "")  # the repository lists the worktree as its own
    intruder = minimal_project(tmp_path / "intruder")
    (intruder / ".git").write_text((worktree / ".git").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(PnpError) as refused:
        find_repository(intruder)
    named = Path((worktree / ".git").read_text(encoding="utf-8").split(":", 1)[1].strip())
    assert str(refused.value) == OUTSIDE.format(named=named, project=intruder)


def test_build_and_diff_never_start_git(tmp_path, monkeypatch):
    fake = tmp_path / "bin"
    fake.mkdir()
    marker = tmp_path / "git-ran"
    (fake / "git").write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 99\n", encoding="utf-8")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ.get('PATH', '')}")
    project = minimal_project(tmp_path / "project")
    commit = commit_folder(project)
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("盾", "鎧"), encoding="utf-8")
    assert read_revision(project) == (commit[:7] + "+", "")
    built = CliRunner().invoke(main, ["build", str(project), "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    compared = CliRunner().invoke(main, ["diff", str(project), "-o", str(tmp_path / "out"), "--json"])
    assert compared.exit_code == 0, compared.output
    assert f'"revision": "HEAD ({commit[:7]})"' in compared.output
    assert not marker.exists()


def test_the_stamp_takes_an_unchanged_files_id_from_the_index_and_hashes_an_edited_one(tmp_path, monkeypatch):
    """git's own stat cache: a file whose size and time the index recorded is not read again; any other is."""
    from pnpgen.project import revision

    project = tmp_path / "game"
    project.mkdir()
    (project / "cards.yaml").write_text("games: []\n", encoding="utf-8")
    (project / "templates").mkdir()
    (project / "templates" / "front.svg.j2").write_text("<svg/>\n", encoding="utf-8")
    repo = porcelain.init(str(project))
    porcelain.add(repo, [str(project / "cards.yaml"), str(project / "templates" / "front.svg.j2")])
    porcelain.commit(repo, message=b"first", author=b"a <a@b>", committer=b"a <a@b>")
    index = project / ".git" / "index"
    later = max(p.stat().st_mtime_ns for p in project.rglob("*") if p.is_file() and ".git" not in p.parts)
    os.utime(index, ns=(later + 10**9, later + 10**9))  # the index written after the files, as git leaves it
    hashed = []
    real = revision.blob_id
    monkeypatch.setattr(revision, "blob_id", lambda data, like: hashed.append(data) or real(data, like))
    assert not revision.project_revision(project).endswith("+") and hashed == []
    (project / "cards.yaml").write_text("games: [] # edited\n", encoding="utf-8")
    assert revision.project_revision(project).endswith("+") and hashed == [b"games: [] # edited\n"]


@pytest.mark.parametrize("damage", [b"DIRC\x00\x00\x00\x02\xff\xff", b"not an index", b""])
def test_a_damaged_index_is_no_index_and_the_files_are_hashed(tmp_path, damage):
    project = tmp_path / "game"
    project.mkdir()
    (project / "cards.yaml").write_text("games: []\n", encoding="utf-8")
    repo = porcelain.init(str(project))
    porcelain.add(repo, [str(project / "cards.yaml")])
    porcelain.commit(repo, message=b"first", author=b"a <a@b>", committer=b"a <a@b>")
    (project / ".git" / "index").write_bytes(damage)
    revision, note = read_revision(project)
    assert len(revision) == 7 and note == ""  # the commit, the files hashed and found the same
    (project / "cards.yaml").write_text("games: [] # edited\n", encoding="utf-8")
    assert read_revision(project)[0] == revision + "+"
