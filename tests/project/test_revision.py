"""The revision stamp: a short commit, + when the project's files differ from it, else a day; git never runs
a program an untrusted repository configures."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from diff.gitrepo import commit_all, git
from pnpgen.diff.run import DiffOptions, diff
from pnpgen.project.revision import project_revision, project_stamp
from pnpgen.project.validate import load_project

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def minimal(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    return project


def test_outside_git_the_stamp_is_the_day_the_newest_file_was_saved(tmp_path):
    project = minimal(tmp_path)
    os.utime(project / "cards.yaml", (1_700_000_000, 1_700_000_000))
    for path in project.rglob("*"):
        if path.is_file() and path.name != "cards.yaml":
            os.utime(path, (1_600_000_000, 1_600_000_000))
    assert project_revision(project) == "2023-11-14"


def test_in_git_the_stamp_is_the_commit_and_a_plus_for_any_edit(tmp_path):
    project = minimal(tmp_path)
    git(project, "init", "-q")
    commit_all(project)
    commit = git(project, "rev-parse", "--short=7", "HEAD").strip()
    assert project_revision(project) == commit
    (project / "output").mkdir()
    (project / "output" / "deck.pdf").write_bytes(b"%PDF")  # outputs are not sources
    assert project_revision(project) == commit
    template = next((project / "templates").rglob("*.j2"))
    template.write_text(template.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert project_revision(project) == commit + "+"


def test_the_stamp_is_computed_only_when_a_template_prints_it(tmp_path):
    project = minimal(tmp_path)
    assert project_stamp(load_project(project)).revision == ""
    template = next((project / "templates").rglob("*.j2"))
    template.write_text(template.read_text(encoding="utf-8") + "{{ build.revision }}", encoding="utf-8")
    assert project_stamp(load_project(project)).revision != ""


def test_a_repository_cannot_make_git_run_its_programs(tmp_path):
    project = minimal(tmp_path)
    marker = tmp_path / "ran"
    git(project, "init", "-q")
    (project / ".gitattributes").write_text("* filter=evil\n", encoding="utf-8")
    commit_all(project)
    for key, value in (("filter.evil.clean", f"touch {marker}; cat"), ("filter.evil.smudge", f"touch {marker}; cat"),
                       ("core.fsmonitor", f"touch {marker}; true"), ("core.pager", f"touch {marker}; cat")):
        git(project, "config", key, value)
    (project / "cards.yaml").write_text((project / "cards.yaml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert project_revision(project).endswith("+")
    diff(project, DiffOptions(out_dir=tmp_path / "out"))
    assert not marker.exists()
