"""Measure pnpgen as a user runs it against plain reportlab drawing the same pages: whole processes, pair by pair.

Run: python3 bench/peer.py [--sizes 1000,10000,30000] [--runs 3] [--only cold,unchanged,tweak,template,watch,...]
Not a test: it prints figures; the targets of issue 29 are marked PASS/MISS for the reader, nothing fails.
Every timed run is a fresh process from the command line: `python -m pnpgen build PROJECT -o OUT` (checks on, as by
default; an empty PNPGEN_CACHE and output folder for each cold build) against `python bench/deck.py OUT --cards N`
(reportlab drawing the pages pnpgen writes for the deck, fonts registered in the process), in turn, a ratio a pair.
CPU is user + system of the process and of the helper processes it waited for (os.wait4); wall is elapsed time.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from deck import TEMPLATE_EDIT, card_tweak, edit, write_project  # noqa: E402
from processes import Run, pnpgen_env, run_build, run_measured_build, run_process, spread  # noqa: E402
from startup import print_imports  # noqa: E402
from watching import time_watch_rebuild  # noqa: E402

CASES = ("cold", "unchanged", "tweak", "template", "watch", "memory", "startup")
COLD_CPU, COLD_WALL = 3.0, 2.5  # pnpgen ÷ reportlab
LOOP_TARGETS = {"unchanged": ("no-change rebuild", 0.20), "tweak": ("one-card tweak", 0.25),
                "template": ("front-template edit", 0.6), "watch": ("watch, one-card save", 0.10)}
MEMORY_TARGETS = {10_000: 100, 30_000: 160}  # cards: peak MB
LOOP_CARDS = 1000
LARGEST_PAIRED = 10_000  # a cold pair of a larger deck takes minutes: larger sizes are measured for memory only


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def median(values) -> float:
    return statistics.median(list(values))


def run_reference(unique: int, out: Path) -> Run:
    argv = [sys.executable, str(HERE / "deck.py"), str(out), "--cards", str(unique)]
    return run_process(argv, dict(os.environ), "the reportlab reference")


def pages_of(folder: Path) -> list[str]:
    """'NAME N' (its page count) of each PDF in folder, in name order."""
    from pypdf import PdfReader

    return [f"{path.name} {len(PdfReader(path).pages)}" for path in sorted(folder.glob("*.pdf"))]


def run_pair(scratch: Path, size: int, run: int, cases: list[str]) -> dict:
    """One cold build of a fresh size-card deck (after the reference's run when the cold case is asked), then the
    loop's rebuilds of the same project in turn, each against that cold build; the first pair notes the pages."""
    print(f"  … {size:,} cards, pair {run + 1}", file=sys.stderr, flush=True)
    folder = scratch / f"{size}-{run}"
    project = write_project(folder / "project", size, 1)
    cache = folder / "cache"
    runs: dict = {}
    if "cold" in cases:
        runs["reference"] = (run_reference(size, folder / "reference"),)
    runs["cold"] = (run_build(ROOT, project, cache),)
    if run == 0 and "cold" in cases:
        runs["pages"] = (pages_of(project / "output" / "bench"), pages_of(folder / "reference"))
    if size == LOOP_CARDS:
        edits = {"tweak": card_tweak(size // 2), "template": TEMPLATE_EDIT}
        for case in ("unchanged", "tweak", "template"):
            if case in cases:
                if case in edits:
                    edit(project, edits[case])
                runs[case] = (run_build(ROOT, project, cache),)
        if "watch" in cases:
            runs["watch"] = time_watch_rebuild(ROOT, project, cache, card_tweak(size // 4))
    shutil.rmtree(folder)
    return runs


def print_cold(size: int, pairs: list[dict]) -> None:
    ours = [p["cold"][0] for p in pairs]
    refs = [p["reference"][0] for p in pairs]
    cpu = [a.cpu / b.cpu for a, b in zip(ours, refs)]
    wall = [a.wall / b.wall for a, b in zip(ours, refs)]
    print(f"  {size:>6,} {median(r.cpu for r in ours):9.2f} {median(r.cpu for r in refs):8.2f}   {spread(cpu):24} "
          f"≤ {COLD_CPU:g} {verdict(median(cpu) <= COLD_CPU)}   {spread(wall):24} ≤ {COLD_WALL:g} "
          f"{verdict(median(wall) <= COLD_WALL)}")
    ours_pages, reference_pages = pairs[0]["pages"]
    same = [p.split()[-1] for p in ours_pages] == [p.split()[-1] for p in reference_pages]
    print(f"  {'':6} page counts {'alike' if same else 'NOT ALIKE'}: pnpgen {', '.join(ours_pages)}; "
          f"reference {', '.join(reference_pages)}")


def print_loop(pairs: list[dict], cases: list[str]) -> None:
    print(f"\nthe designer's loop, {LOOP_CARDS:,} unique cards: each rebuild as a fraction of the cold build of its "
          f"pair (CPU, wall), median (min–max) of {len(pairs)}")
    for case, (label, target) in LOOP_TARGETS.items():
        if case not in cases:
            continue
        cpu = [p[case][0].cpu / p["cold"][0].cpu for p in pairs]
        wall = [p[case][0].wall / p["cold"][0].wall for p in pairs]
        print(f"  {label:22} cpu {spread(cpu):24} wall {spread(wall):24} target ≤ {target:g}: cpu "
              f"{verdict(median(cpu) <= target)}, wall {verdict(median(wall) <= target)}")
    if "watch" in cases:
        said = pairs[-1]["watch"][1]
        print(f"  (watch: CPU of the watching process from /proc/PID/stat, its waited helpers included, from the save "
              f"to its report; wall the same span, the wait for the save to settle included (notices, and looks "
              f"every 0.1 s); it said: {said})")


def print_memory(scratch: Path, sizes: list[int]) -> None:
    print("\npeak resident memory of a cold build, one whole process each (checks on, empty cache): the main process, "
          "its largest helper, and the peak of the two (what /usr/bin/time reports)")
    print(f"  {'cards':>6} {'main MB':>8} {'helper MB':>9} {'peak MB':>8}  target")
    for size in sizes:
        folder = scratch / f"memory-{size}"
        project = write_project(folder / "project", size, 1)
        run, main, helper = run_measured_build(ROOT, project, folder / "cache", folder / "out")
        target = MEMORY_TARGETS.get(size)
        judged = f"≤ {target} {verdict(run.peak_mb <= target)}" if target else "(none at this size)"
        print(f"  {size:>6,} {main:8.0f} {helper:9.0f} {run.peak_mb:8.0f}  {judged}   "
              f"(cpu {run.cpu:.1f} s, wall {run.wall:.1f} s)", flush=True)
        shutil.rmtree(folder)


def print_startup(scratch: Path) -> None:
    folder = scratch / "startup"
    project = write_project(folder / "project", LOOP_CARDS, 1)
    run_build(ROOT, project, folder / "cache")
    env = pnpgen_env(ROOT, folder / "cache")
    argv = [sys.executable, "-X", "importtime", "-m", "pnpgen", "build", str(project), "-o", str(project / "output")]
    up_to_date = run_process(argv, env, "the up-to-date build")
    bare = run_process([sys.executable, "-X", "importtime", "-c", "pass"], env, "the bare interpreter")
    print(f"\nstart-up: an up-to-date build of {LOOP_CARDS:,} cards (`python -X importtime -m pnpgen build`, nothing "
          f"to write; cpu {up_to_date.cpu:.2f} s, wall {up_to_date.wall:.2f} s, import timing included)")
    print_imports(up_to_date.said, bare.said)
    shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,30000",
                        help=f"deck sizes: a cold pair at each up to {LARGEST_PAIRED:,}, peak memory at each from "
                        "10,000")
    parser.add_argument("--runs", type=int, default=3, help="pairs a size (the loop's and watch's too)")
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated cases: " + ", ".join(CASES))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = [case for case in CASES if case in args.only.split(",")]
    # An installed pnpgen has its modules compiled; a checkout run with PYTHONDONTWRITEBYTECODE would compile
    # every one at each start, a cost no user pays. Compile them first.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pnpgen")], check=True, capture_output=True)
    print(f"pnpgen ({ROOT.name}) against plain reportlab drawing the same pages, whole processes from the command "
          f"line; {os.cpu_count()} cores, load average {' '.join(f'{v:.2f}' for v in os.getloadavg())} at the start")
    paired = [s for s in sizes if s <= LARGEST_PAIRED] if "cold" in cases else []
    loop = [case for case in LOOP_TARGETS if case in cases]
    chain = sorted(set(paired) | ({LOOP_CARDS} if loop else set()))
    with tempfile.TemporaryDirectory(prefix="pnpgen-peer-") as tmp:
        scratch = Path(tmp)
        results = {}
        for size in chain:
            cases_here = [c for c in cases if c != "cold" or size in paired]
            results[size] = [run_pair(scratch, size, run, cases_here) for run in range(args.runs)]
        if paired:
            print(f"\ncold build, N unique poker cards: pnpgen ÷ reportlab pair by pair, median (min–max) of "
                  f"{args.runs}")
            print(f"  {'cards':>6} {'pnpgen':>9} {'ref':>8}   {'cpu ratio':24} {'target':8}   "
                  f"{'wall ratio':24} target   (pnpgen, ref: median CPU seconds)")
            for size in paired:
                print_cold(size, results[size])
        if loop:
            print_loop(results[LOOP_CARDS], cases)
        if "memory" in cases:
            large = [size for size in sizes if size >= 10_000]
            if large:
                print_memory(scratch, large)
            else:
                print("\nmemory: skipped, no size of --sizes reaches 10,000")
        if "startup" in cases:
            print_startup(scratch)
    print(f"\nload average at the end {' '.join(f'{v:.2f}' for v in os.getloadavg())} (a loaded machine's figures are "
          "noisier: read the medians and the spread)")


if __name__ == "__main__":
    main()
