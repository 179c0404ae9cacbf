"""Measure `pnpgen check` on the bundled project, warm, as a ratio against loading the project in the same run.

Run: python3 bench/check_speed.py [--rounds N]
Not a test: it prints figures. The target is a warm check under 1 s; the ratio says how much of that is checking
(documents, quotes, rulebook prose and card text) rather than reading the YAML.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.checks.checker import check_project  # noqa: E402
from pnpgen.project.validate import load_project  # noqa: E402


def timed(action, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    check_project(load_project(ROOT))  # warm: imports, template compilation, documents in the OS cache
    load = timed(lambda: load_project(ROOT), args.rounds)
    both = timed(lambda: check_project(load_project(ROOT)), args.rounds)
    strict = timed(lambda: check_project(load_project(ROOT), strict=True), args.rounds)
    print(f"load the bundled project     : 1.00 (reference, {load * 1000:.0f} ms)")
    print(f"load + check                 : {both / load:.2f}× load ({both * 1000:.0f} ms; target < 1000 ms: "
          f"{'PASS' if both < 1 else 'MISS'})")
    print(f"load + check --strict        : {strict / load:.2f}× load ({strict * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
