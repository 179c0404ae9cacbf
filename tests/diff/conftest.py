"""The fixture of the diff tests: the bundled project committed in git, then edited."""
from __future__ import annotations

from pathlib import Path

import pytest

from diff.gitrepo import EDITS, apply_edits, commit_all, copy_bundled, git


@pytest.fixture(scope="module")
def edited_repo(tmp_path_factory) -> Path:
    """The bundled project committed in git (inside a subfolder of the repository), then edited, not committed."""
    repo = tmp_path_factory.mktemp("repo")
    project = copy_bundled(repo / "designs" / "three-games")
    git(repo, "init", "-q")
    commit_all(repo)
    git(repo, "tag", "playtest-3")
    apply_edits(project, EDITS)
    return project
