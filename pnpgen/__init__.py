"""pnpgen: print-and-play components from YAML and SVG templates. The library: build() and check()."""
from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"  # before the imports below: the cache keys its entries by it

from .build import Options, Report, build
from .check import Finding, check_project
from .errors import Location, PnpError, Problem
from .validate import load_project

__all__ = ["build", "check", "Options", "Report", "Finding", "PnpError", "Problem", "Location", "load_project"]


def check(path: str | Path = ".", game: str | None = None) -> list[Finding]:
    """Load the project and hold its data to the documents' figures; returns every finding."""
    from .build import select_games

    project = load_project(Path(path))
    return check_project(project, select_games(project, game))
