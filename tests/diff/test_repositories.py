"""`pnpgen diff --since REF` reads the old revision with dulwich: revision names resolve as designers type them,
a missing object is a message (never a fetch, never a traceback), and a `.git` naming another repository is
refused before anything of it reaches changes.html."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from dulwich import porcelain

from pnpgen.cli import main
from pnpgen.diff.revisions import export_revision
from pnpgen.errors import PnpError
from repos import commit_folder, delete_object, make_promisor, minimal_project, object_of, point_gitdir

EXPECTED = "expected a commit, tag or branch such as HEAD, HEAD~2 or playtest-3"


def edit_card(project: Path, old: str, new: str) -> None:
    cards = project / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert text.count(old) == 1
    cards.write_text(text.replace(old, new), encoding="utf-8")


def test_a_missing_blob_is_a_message_and_the_promisor_command_never_runs(tmp_path):
    project = minimal_project(tmp_path / "project")
    commit_folder(project)
    blob = object_of(project, "cards.yaml")
    marker = tmp_path / "ran"
    make_promisor(project, marker)
    delete_object(project, blob)
    edit_card(project, "盾", "鎧")  # today's cards.yaml differs: the old one must come from the repository
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["diff", str(project), "--since", "HEAD", "-o", str(out)])
    assert result.exit_code == 1
    assert result.output == (f"error: --since HEAD: this revision is not complete in this clone: cards.yaml "
                             f"({blob[:7]}) is missing from the repository; expected a clone that holds it (pnpgen "
                             "reads the repository as it is and never fetches)\n")
    assert not marker.exists() and not (out / "changes.html").exists()


def test_a_gitdir_file_naming_another_repository_shows_nothing_of_it(tmp_path):
    other = minimal_project(tmp_path / "other")
    edit_card(other, "盾", "秘密の盾")
    commit_folder(other)
    project = minimal_project(tmp_path / "project")
    point_gitdir(project, other)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["diff", str(project), "--since", "HEAD", "-o", str(out)])
    assert result.exit_code == 1
    assert result.output == (f".git: names the repository {other / '.git'}, outside {project}; expected a "
                             "repository inside the project folder (or a worktree or submodule that repository "
                             "lists as its own)\n")
    assert not (out / "changes.html").exists()
    written = [path.read_bytes() for path in out.rglob("*") if path.is_file()] if out.exists() else []
    assert not any("秘密の盾".encode("utf-8") in data for data in written)


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> tuple[Path, list[str]]:
    """A project with three commits on main (the last tagged, the first on a branch) and its commit ids."""
    project = minimal_project(tmp_path_factory.mktemp("history") / "project")
    commits = [commit_folder(project, "first")]
    porcelain.branch_create(str(project), "playtest-1")
    for name in ("鎧", "盔"):
        edit_card(project, "盾" if len(commits) == 1 else "鎧", name)
        commits.append(commit_folder(project, name))
    porcelain.tag_create(str(project), "v2", author=b"t <t@example.org>", message=b"v2", annotated=True)
    porcelain.tag_create(str(project), "light", objectish=commits[1])
    return project, commits


@pytest.mark.parametrize("name,index", [("HEAD", 2), ("@", 2), ("HEAD~1", 1), ("HEAD^", 1), ("HEAD~2", 0),
                                        ("HEAD^^", 0), ("HEAD~1^1", 0), ("HEAD^{commit}", 2), ("v2", 2),
                                        ("v2~1", 1), ("v2^{}", 2), ("light", 1), ("tags/light", 1),
                                        ("playtest-1", 0), ("heads/playtest-1", 0), ("refs/heads/master", 2),
                                        ("master~2", 0), ("FULL1", 1), ("SHORT0", 0), ("SHORT0^0", 0)])
def test_revision_names_resolve_as_typed(history, tmp_path, name, index):
    project, commits = history
    name = name.replace("FULL1", commits[1]).replace("SHORT0", commits[0][:7])
    label, _ = export_revision(project, name, tmp_path)
    assert label == f"{name} ({commits[index][:7]})"
    expected = {0: "盾", 1: "鎧", 2: "盔"}[index]
    assert expected in (tmp_path / "cards.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["no-such-tag", "HEAD:cards.yaml", "HEAD@{1}", "HEAD --all", "--output=x",
                                  "-p", "../HEAD", "refs/../HEAD", "HEAD~x", "0" * 40, ""])
def test_other_names_are_no_such_revision(history, tmp_path, name):
    project, _ = history
    with pytest.raises(PnpError) as refused:
        export_revision(project, name, tmp_path)
    assert str(refused.value) == f"--since {name}: no such revision in the project's repository; {EXPECTED}"


def test_going_back_past_the_first_commit_is_a_message(history, tmp_path):
    project, commits = history
    with pytest.raises(PnpError) as refused:
        export_revision(project, "HEAD~3", tmp_path)
    assert str(refused.value) == (f"--since HEAD~3: no such revision: commit {commits[0][:7]} has no parent 1; "
                                  "expected a revision within the history")
