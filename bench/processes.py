"""Turn a command line into a measured whole process: its CPU (helper processes included), wall time and peak memory.

Shared by the benches that time pnpgen as a user runs it (versus.py, peer.py): every figure is one fresh process.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple


class Run(NamedTuple):
    """One finished process: user + system CPU seconds of it and of every helper it waited for, wall seconds, the
    peak resident MB of the largest of them (ru_maxrss of wait4), and what it wrote to stderr."""

    cpu: float
    wall: float
    peak_mb: float
    said: str = ""


# `python -m pnpgen`, with the peak resident memory of the main process and of its largest helper written to a file
# as it ends (the forked helpers leave with os._exit, so only the main process writes it).
MEASURED_MAIN = """\
import json, resource, runpy, sys
record = sys.argv.pop(1)
sys.argv[0] = "pnpgen"
try:
    runpy.run_module("pnpgen", run_name="__main__", alter_sys=True)
finally:
    with open(record, "w", encoding="ascii") as out:
        json.dump([resource.getrusage(who).ru_maxrss / 1024
                   for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)], out)
"""


def run_process(argv: list[str], env: dict[str, str], what: str, cwd: Path | None = None) -> Run:
    """Run argv to its end; a failure ends the bench with the tail of what the process said."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    errors = child.stderr.read().decode("utf-8", "replace")  # read to the end first: a full pipe would block it
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.stderr.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"bench: {what} failed:\n{errors[-2000:]}")
    return Run(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, errors)


def pnpgen_env(tree: Path, cache: Path) -> dict[str, str]:
    """The environment of a pnpgen process run from the source tree `tree` with the cache folder `cache`."""
    return dict(os.environ, PYTHONPATH=str(tree), PNPGEN_CACHE=str(cache))


def run_build(tree: Path, project: Path, cache: Path, out: Path | None = None, options: tuple[str, ...] = ()) -> Run:
    """One `python -m pnpgen build PROJECT -o OUT [options]` process run from `tree` (OUT: PROJECT/output by default)."""
    argv = [sys.executable, "-m", "pnpgen", "build", str(project), "-o", str(out or project / "output"), *options]
    return run_process(argv, pnpgen_env(tree, cache), f"the build from {tree}", cwd=project)


def run_measured_build(tree: Path, project: Path, cache: Path, out: Path) -> tuple[Run, float, float]:
    """run_build's process with its main process's and its largest helper's peak resident MB told apart."""
    record = out.parent / f"{out.name}-peaks.json"
    argv = [sys.executable, "-c", MEASURED_MAIN, str(record), "build", str(project), "-o", str(out)]
    run = run_process(argv, pnpgen_env(tree, cache), f"the build from {tree}", cwd=project)
    main, helpers = json.loads(record.read_text(encoding="ascii"))
    return run, main, helpers


def spread(values: list[float]) -> str:
    """median (min–max) of the values, as the benches print a ratio over pairs."""
    return f"{statistics.median(values):6.3f} ({min(values):.3f}–{max(values):.3f})"
