"""Profile pnpgen build speed and PDF size on synthetic poker decks, as ratios against plain reportlab, in one process.

Run from the checkout: python3 bench/build_speed.py [--profile]
Not a test: it prints figures; absolute targets are marked PASS/MISS for the reader, nothing fails.
A profile, not a result: pnpgen.build() in a warmed process with checks off, the reference drawn in the same process
with its fonts registered untimed. What a user runs (whole processes from the command line, checks on) is
bench/peer.py's to measure.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pnpgen  # noqa: E402
from pnpgen import Options  # noqa: E402
from deck import draw_reference, register_reference_fonts, write_project  # noqa: E402


def time_build(project: Path, scratch: Path, runs: int):
    """Best wall-clock seconds of `runs` builds (each into a fresh output folder), the last Report."""
    best, report = float("inf"), None
    for run in range(runs):
        out = scratch / f"out-{project.name}-{run}"
        start = time.perf_counter()
        report = pnpgen.build(project, Options(out_dir=out, check=False, cache=False))  # the cold pipeline
        best = min(best, time.perf_counter() - start)
    return best, report


def time_reference(scratch: Path, unique: int, runs: int) -> tuple[float, int]:
    """Best seconds of drawing the reference pages (both PDFs) in this process, fonts registered untimed; the
    component PDF's size."""
    register_reference_fonts()
    best = float("inf")
    for run in range(runs):
        start = time.perf_counter()
        paths = draw_reference(scratch / f"reference-{run}", unique)
        best = min(best, time.perf_counter() - start)
    return best, paths[0].stat().st_size


def time_cli_build(scratch: Path, runs: int = 3):
    """Best wall seconds of `python3 -m pnpgen build . -o TMP` (the bundled project) in a fresh process with an empty
    cache (a user's first build), or the error text."""
    best = float("inf")
    for run in range(runs):
        env = dict(os.environ, PNPGEN_CACHE=str(scratch / f"cache-{run}"))
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pnpgen", "build", str(ROOT), "-o", str(scratch / f"full-{run}")],
                              cwd=ROOT, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            return None, (done.stderr or done.stdout).strip()
        best = min(best, time.perf_counter() - start)
    return best, None


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def print_profile(project: Path, scratch: Path, what: str = "variant (c)", most: int = 8) -> None:
    profiler = cProfile.Profile()
    profiler.runcall(pnpgen.build, project, Options(out_dir=scratch / "out-profile", check=False, cache=False))
    stats = pstats.Stats(profiler)
    total = max(row[3] for row in stats.stats.values())
    rows = sorted(stats.stats.items(), key=lambda item: item[1][3], reverse=True)[:most]
    print(f"\nprofile of {what}, top {most} by cumulative time (total {total:.2f} s under cProfile):")
    print(f"  {'cum s':>7} {'share':>6} {'calls':>8}  function")
    for (file, line, name), (_cc, calls, _tt, cum, _callers) in rows:
        where = file.replace(str(ROOT) + "/", "") if file.startswith(str(ROOT)) else Path(file).name
        print(f"  {cum:7.2f} {cum / total:6.0%} {calls:8d}  {name} ({where}:{line})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="also profile variant (c) with cProfile")
    args = parser.parse_args()
    variants = [("a", "100 unique × 10 copies", 100, 10, 3),
                ("b", "100 unique × 1", 100, 1, 3),
                ("c", "1,000 unique × 1", 1000, 1, 2)]
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        scratch = Path(tmp)
        warm = time_build(write_project(scratch / "warmup", 20, 2, prefix="ウォームアップ"), scratch, 1)[0]
        print(f"a profile, not a result (bench/peer.py measures whole processes): pnpgen {pnpgen.__version__}, "
              f"Python {sys.version.split()[0]}: in-process builds (check off) "
              f"after one warm-up build of a different project ({warm:.2f} s; registers fonts once per process)")
        ref_s, ref_size = time_reference(scratch, 1000, 3)
        ref_rate = 1000 / ref_s
        results = {}
        for tag, label, unique, copies, runs in variants:
            project = write_project(scratch / f"variant-{tag}", unique, copies)
            seconds, report = time_build(project, scratch, runs)
            results[tag] = (label, report.pieces, report.faces, seconds, report.written[0].stat().st_size, runs)
        print(f"\n{'variant':<28} {'pieces':>6} {'faces':>6} {'seconds':>8} {'cards/s':>8} {'× ref':>6} {'PDF bytes':>10}")
        print(f"{'ref reportlab 1,000 unique':<28} {1000:>6} {1000:>6} {ref_s:8.3f} {ref_rate:8.0f} {1:6.2f} {ref_size:>10,}")
        for tag, (label, pieces, faces, seconds, size, runs) in results.items():
            rate = pieces / seconds
            print(f"{'(' + tag + ') ' + label:<28} {pieces:>6} {faces:>6} {seconds:8.3f} {rate:8.0f} "
                  f"{rate / ref_rate:6.2f} {size:>10,}")
        print("  best of 3 runs ((c): 2); faces = distinct faces converted (fronts + the shared back); "
              "× ref = cards/s ÷ reference cards/s")
        unique_rate = 1000 / results["c"][3]
        copies_cost = results["a"][3] / results["b"][3]
        size_ratio = results["a"][4] / results["b"][4]
        print(f"\nunique cards/s (c)                    {unique_rate:7.0f}   target ≥ 150     {verdict(unique_rate >= 150)}"
              f"   ({unique_rate / ref_rate:.2f}× reference)")
        print(f"time (a) ÷ time (b), 10 copies cost   {copies_cost:7.2f}×  target ≤ 1.3×    {verdict(copies_cost <= 1.3)}")
        print(f"PDF size (a) ÷ (b), copies add bytes  {size_ratio:7.2f}×  target ≤ 1.5×    {verdict(size_ratio <= 1.5)}")
        per_copy = (results["a"][4] - results["b"][4]) / 900  # (a), (b): same faces, 900 more pieces
        per_face = (results["c"][4] - results["a"][4]) / 900  # (c), (a): same pieces and pages, 900 more faces
        print(f"  bytes per extra copy {per_copy:.0f}, per extra unique card {per_face:.0f} "
              f"(a copy costs {per_copy / per_face:.2f}× a unique card; mostly page overhead: 9 copies a page)")
        full_s, error = time_cli_build(scratch)
        if error:
            print(f"full build of the bundled project: skipped, `python3 -m pnpgen build {ROOT}` failed:\n  "
                  + error.replace("\n", "\n  "))
        else:
            print(f"full build of {ROOT} (CLI, fresh process, check on, best of 3)  {full_s:.2f} s   "
                  f"target < 3 s   {verdict(full_s < 3)}   ({full_s / ref_s:.1f}× the reference's time)")
        if args.profile:
            print_profile(scratch / "variant-c", scratch)


if __name__ == "__main__":
    main()
