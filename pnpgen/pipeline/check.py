"""Turn a project folder into its findings: the data held to the design documents' figures (`pnpgen check`)."""
from __future__ import annotations

from pathlib import Path

from ..checks.checker import check_project
from ..project.validate import load_project
from .prepare import select_games
from ..templating.run_budget import whole_run


@whole_run("check")
def check(path: str | Path = ".", game: str | None = None, strict: bool = False):
    """Load the project and hold its data to the documents' figures; returns every finding (with `strict`, also
    a warning for each number in rulebooks and card text that nothing accounts for)."""
    project = load_project(Path(path))
    return check_project(project, select_games(project, game), strict=strict)
