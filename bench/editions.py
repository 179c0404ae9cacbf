"""Time a build of both editions of the bundled project (`--lang all`) against a build of its original alone.

Run: python3 bench/editions.py [--runs 5]

Every timed run is `python -m pnpgen build PROJECT -o OUT` from the command line in a fresh process, on a fresh
copy of this tree's bundled project with an empty cache, checks on as by default: once as it is (the Japanese
edition) and once with `--lang all` (Japanese and English). The two run in turn (one, two, one, two …) so that a
drift in the machine's speed touches both alike, and each pair gives a ratio two/one; the row prints the ratio's
median (min–max) for CPU (the child's user + system time) and wall time. The issue's target is 2.2 or less. Not a
test: it prints figures and judges nothing.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from processes import run_build, spread  # noqa: E402
from versus import copy_bundled  # noqa: E402

EDITIONS = {"one": (), "two": ("--lang", "all")}  # the original alone; every edition


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"bundled project of {ROOT.name}, cold (empty cache and output); {args.runs} pairs, one and two editions "
          f"in turn; {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    timed: dict[str, list] = {name: [] for name in EDITIONS}
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            for name, options in EDITIONS.items():
                scratch = Path(folder) / f"{name}-{run}"
                project = copy_bundled(ROOT, scratch / "project")
                timed[name].append(run_build(ROOT, project, scratch / "cache", options=options))
                shutil.rmtree(scratch)
    cpu = [two.cpu / one.cpu for one, two in zip(timed["one"], timed["two"])]
    wall = [two.wall / one.wall for one, two in zip(timed["one"], timed["two"])]
    print(f"{'':14} {'one cpu s':>9} {'two cpu s':>9}  {'cpu two/one median (min–max)':30} "
          "wall two/one median (min–max)")
    print(f"{'bundled-cold':14} {statistics.median(r.cpu for r in timed['one']):9.2f} "
          f"{statistics.median(r.cpu for r in timed['two']):9.2f}  {spread(cpu):30} {spread(wall)}")
    print(f"load at the end {os.getloadavg()[0]:.2f} (a figure from a loaded machine is noisier: compare medians)")


if __name__ == "__main__":
    main()
