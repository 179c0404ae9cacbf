"""pnpgen: print-and-play components from YAML and SVG templates. The library: build() and check()."""
from __future__ import annotations

import importlib
from pathlib import Path

from ._version import __version__  # noqa: F401 (the package's version, for readers of pnpgen.__version__)

# The library's names, imported on first use: `import pnpgen` stays cheap (and interruptible).
_EXPORTS = {
    "build": "pipeline.build", "Options": "pipeline.build", "Report": "pipeline.build",
    "Finding": "checks.findings", "check_project": "checks.checker",
    "Location": "errors", "PnpError": "errors", "Problem": "errors",
    "load_project": "project.validate",
}

__all__ = ["build", "check", "Options", "Report", "Finding", "PnpError", "Problem", "Location", "load_project"]


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pnpgen' has no attribute '{name}'")


def check(path: str | Path = ".", game: str | None = None, strict: bool = False):
    """Load the project and hold its data to the documents' figures; returns every finding (with `strict`, also
    a warning for each number in rulebooks and card text that nothing accounts for)."""
    from .pipeline.build import select_games
    from .checks.checker import check_project
    from .project.validate import load_project

    project = load_project(Path(path))
    return check_project(project, select_games(project, game), strict=strict)
