"""pnpgen: print-and-play components from YAML and SVG templates. The library: build(), check() and preflight()."""
from __future__ import annotations

import importlib

from ._version import __version__  # noqa: F401 (the package's version, for readers of pnpgen.__version__)

# The library's names, imported on first use: `import pnpgen` stays cheap (and interruptible).
_EXPORTS = {
    "build": "pipeline.build", "check": "pipeline.check", "Options": "pipeline.build", "Report": "pipeline.build",
    "preflight": "prepress.preflight", "PrintFinding": "prepress.findings",
    "Finding": "checks.findings", "check_project": "checks.checker",
    "Location": "errors", "PnpError": "errors", "Problem": "errors",
    "load_project": "project.validate",
}

__all__ = ["build", "check", "preflight", "PrintFinding", "Options", "Report", "Finding", "PnpError", "Problem",
           "Location", "load_project"]


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pnpgen' has no attribute '{name}'")

