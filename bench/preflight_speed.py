"""Time `pnpgen preflight` against a cold `pnpgen build` of the same project: whole processes, in turn.

Run from the checkout: python3 bench/preflight_speed.py [--runs 5] [--cards 1000] [--only bundled,deck]

Each pair is a fresh `python -m pnpgen preflight PROJECT` process and a fresh `python -m pnpgen build PROJECT`
process (checks on, as by default) with an empty cache and output folder, the two in turn (preflight first,
then the build, then the other way round on the next pair) so that a drift in the machine's speed touches
both alike. Cases: the bundled project, and a deck of --cards unique poker cards (bench/build_speed.py's).
Preflight renders every face again (it needs their SVG) and paints them to marks, but writes no PDF.
CPU is the child's user + system time (its helper processes included), wall the elapsed time; each row prints
the ratio preflight/build as median (min–max) over the pairs. Not a test: it prints figures and judges nothing.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from deck import write_project  # noqa: E402
from versus import copy_bundled  # noqa: E402


def run_command(command: str, project: Path, cache: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one pnpgen process run from this tree; preflight may exit 1 (it found
    errors), any other failure stops the bench."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PNPGEN_CACHE=str(cache))
    extra = ["-o", str(project / "output")] if command == "build" else []
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "pnpgen", command, str(project), *extra],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=project)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    errors = child.stderr.read().decode("utf-8", "replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) not in ((0, 1) if command == "preflight" else (0,)) or errors.strip():
        raise SystemExit(f"bench: pnpgen {command} failed:\n{errors[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall


def one_run(command: str, scratch: Path, case: str, cards: int) -> tuple[float, float]:
    """A fresh copy of the case's project and a fresh cache (untimed), then the timed process."""
    project = scratch / "project"
    if case == "bundled":
        copy_bundled(ROOT, project)
    else:
        write_project(project, cards, 1)
    return run_command(command, project, scratch / "cache")


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.3f} ({min(values):.3f}–{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--only", default="", help="comma-separated case names (bundled, deck)")
    args = parser.parse_args()
    cases = [case for case in ("bundled", "deck") if not args.only or case in args.only.split(",")]
    print(f"preflight against a cold build, {args.runs} pairs a case, in turn; deck of {args.cards} unique cards; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{'case':10} {'preflight cpu s':>15} {'build cpu s':>12}  {'cpu ratio median (min–max)':28} "
          f"{'wall ratio median (min–max)':28}")
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            pairs = []
            for run in range(args.runs):
                order = ("preflight", "build") if run % 2 == 0 else ("build", "preflight")
                timed = {}
                for command in order:
                    scratch = Path(folder) / f"{case}-{run}-{command}"
                    timed[command] = one_run(command, scratch, case, args.cards)
                    shutil.rmtree(scratch)
                pairs.append((timed["preflight"], timed["build"]))
            cpu = [a[0] / b[0] for a, b in pairs]
            wall = [a[1] / b[1] for a, b in pairs]
            print(f"{case:10} {statistics.median(a[0] for a, _ in pairs):15.2f} "
                  f"{statistics.median(b[0] for _, b in pairs):12.2f}  {spread(cpu):28} {spread(wall):28}")


if __name__ == "__main__":
    main()
