"""Measure `pnpgen diff` against the last commit with one changed card, as a ratio of a no-change rebuild.

Target (issue 15): with a warm cache (the designer built after the edit), a diff of the bundled project
costs ≤ 1.5× a no-change rebuild, both in fresh processes; only the changed card's faces are rasterised.
Run: python3 bench/diff_speed.py [--runs N]
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from incremental import ROOT, TWEAK, TWEAK_FILE, copy_project as copy_files, run_measures


def copy_project(target: Path) -> Path:
    """The bundled project, committed in a git repository of its own."""
    copy_files(target)
    git = ["git", "-C", str(target), "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "playtest"], check=True)
    return target


def timed(args: list[str], cache: Path) -> tuple[float, str]:
    env = dict(os.environ, PNPGEN_CACHE=str(cache), PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pnpgen", *args], env=env, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout


def measure(work: Path, run: int) -> tuple[float, float, float, int]:
    project = copy_project(work / f"project-{run}")
    cache = work / f"cache-{run}"
    timed(["build", str(project)], cache)
    path = project / TWEAK_FILE
    text = path.read_text(encoding="utf-8")
    assert text.count(TWEAK[0]) == 1
    path.write_text(text.replace(*TWEAK), encoding="utf-8")
    timed(["build", str(project)], cache)  # the designer's loop: the edit is built, the cache is warm
    first, output = timed(["diff", str(project)], cache)
    unchanged, _ = timed(["build", str(project)], cache)
    again, _ = timed(["diff", str(project)], cache)
    images = int(re.search(r"\((\d+) face images\)", output).group(1))
    return unchanged, first, again, images


def main() -> None:
    results, runs = run_measures(measure, __doc__.splitlines()[0])
    unchanged = min(r[0] for r in results)
    first, again = min(r[1] for r in results), min(r[2] for r in results)
    images = {r[3] for r in results}
    print(f"bundled project in git, one card changed since HEAD, fresh processes, best of {runs}")
    print(f"  no-change rebuild          {unchanged:6.2f} s   1.00")
    for name, seconds in (("diff after the build", first), ("diff again", again)):
        ratio = seconds / unchanged
        verdict = "PASS" if ratio <= 1.5 else "MISS"
        print(f"  {name:26} {seconds:6.2f} s   {ratio:4.2f}×   target ≤ 1.50×   {verdict}")
    print(f"  face images rasterised by the diff: {sorted(images)} (the changed card's front, old and new: 2)")


if __name__ == "__main__":
    main()
