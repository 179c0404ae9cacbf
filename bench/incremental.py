"""Measure incremental rebuilds of the bundled project as ratios of a cold build, all in fresh processes.

Targets (issue 5): a no-change rebuild costs ≤ 15 % of a cold build; a one-card tweak ≤ 30 %.
Run: python3 bench/incremental.py [--runs N]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWEAK_FILE = "games/three-times-undress.yaml"
TWEAK = ("- {number: 7, copies: 5}", "- {number: 7, copies: 5, effect: 一枚だけ変えたカード}")


def copy_project(target: Path) -> Path:
    target.mkdir()
    for name in ("cards.yaml", "games", "templates", "documents", "rules"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target / name)
    return target


def timed_build(project: Path, cache: Path) -> float:
    env = dict(os.environ, PNPGEN_CACHE=str(cache), PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnpgen", "build", str(project)], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(work: Path, run: int) -> tuple[float, float, float]:
    project = copy_project(work / f"project-{run}")
    cache = work / f"cache-{run}"
    cold = timed_build(project, cache)
    unchanged = timed_build(project, cache)
    path = project / TWEAK_FILE
    text = path.read_text(encoding="utf-8")
    assert text.count(TWEAK[0]) == 1
    path.write_text(text.replace(*TWEAK), encoding="utf-8")
    tweak = timed_build(project, cache)
    return cold, unchanged, tweak


def run_measures(measure_one, description: str) -> tuple[list, int]:
    """measure_one(folder, run) for --runs N runs (default 3), each in a temporary folder: (results, N)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        return [measure_one(Path(folder), run) for run in range(runs)], runs


def main() -> None:
    results, runs = run_measures(measure, __doc__.splitlines()[0])
    cold = min(r[0] for r in results)
    unchanged = min(r[1] for r in results)
    tweak = min(r[2] for r in results)
    print(f"bundled project, `python3 -m pnpgen build` in a fresh process, best of {runs} (empty cache for the cold build)")
    print(f"  cold build                 {cold:6.2f} s   1.00")
    for name, seconds, target in (("no-change rebuild", unchanged, 0.15), ("one-card tweak", tweak, 0.30)):
        ratio = seconds / cold
        verdict = "PASS" if ratio <= target else "MISS"
        print(f"  {name:26} {seconds:6.2f} s   {ratio:4.2f} of cold   target ≤ {target:.2f}   {verdict}")


if __name__ == "__main__":
    main()
