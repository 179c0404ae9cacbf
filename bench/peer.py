"""Measure pnpgen against plain reportlab on the same N-card deck: time, peak memory, PDF size, ratios.

Run: python3 bench/peer.py [--sizes 1000,10000] [--runs 3] [--profile N]
Not a test: it prints figures; the issue's targets are marked PASS/MISS for the reader, nothing fails.
Every build runs in a fresh child process, so peak memory is that build's own (the main process and
its helper processes are reported separately); pnpgen and reportlab runs alternate, and each figure is
the median of the runs.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_speed import draw_reference, print_profile, verdict, write_project  # noqa: E402

TWEAK = ("name: \"カード500\"", "name: \"一枚だけ変えたカード\"")


def peak_mb() -> tuple[float, float]:
    """Peak resident memory of this process and of its largest finished child, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def child_pnpgen(project: str, out: str, cache: str, warmup: str) -> dict:
    import pnpgen
    from pnpgen import Options

    pnpgen.build(warmup, Options(out_dir=Path(out) / "warmup", check=False, cache=False))  # imports, fonts
    start = time.perf_counter()
    report = pnpgen.build(project, Options(out_dir=Path(out) / "deck", check=False, cache_dir=Path(cache)))
    seconds = time.perf_counter() - start
    own, helpers = peak_mb()
    sizes = {p.name: p.stat().st_size for p in report.written}
    return {"seconds": seconds, "main_mb": own, "helper_mb": helpers, "sizes": sizes,
            "renders": report.renders, "faces": report.faces, "written": len(report.written)}


def child_reference(unique: int, out: str) -> dict:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in (("RefJP", "NotoSansJP-Regular.ttf"), ("RefJP-Bold", "NotoSansJP-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(ROOT / "pnpgen" / "fonts" / file)
                                       if (ROOT / "pnpgen" / "fonts" / file).exists() else str(ROOT / "fonts" / file)))
    path = Path(out) / "reference.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    draw_reference(path, unique)
    seconds = time.perf_counter() - start
    own, _ = peak_mb()
    return {"seconds": seconds, "main_mb": own, "helper_mb": 0.0, "sizes": {"reference.pdf": path.stat().st_size}}


def run_child(*args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"child {args[0]} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def compare(scratch: Path, unique: int, runs: int, warmup: Path) -> tuple[dict, dict]:
    project = write_project(scratch / f"deck-{unique}", unique, 1)
    ours, theirs = [], []
    for run in range(runs):
        out = scratch / f"out-{unique}-{run}"
        theirs.append(run_child("reference", str(unique), str(out / "ref")))
        ours.append(run_child("pnpgen", str(project), str(out), str(scratch / f"cache-{unique}-{run}"), str(warmup)))
    return summarise(ours), summarise(theirs)


def summarise(runs: list[dict]) -> dict:
    size = max(runs[-1]["sizes"].values()) if runs[-1]["sizes"] else 0
    first = sorted(runs[-1]["sizes"].items(), key=lambda item: "print-and-play" in item[0])  # the deck first
    return {"seconds": median(runs, "seconds"), "main_mb": max(r["main_mb"] for r in runs),
            "helper_mb": max(r["helper_mb"] for r in runs), "size": size, "sizes": dict(first)}


def incremental(scratch: Path, runs: int, warmup: Path) -> tuple[float, float]:
    """Median ratios of a no-change rebuild and a one-card tweak to a cold build, 1,000 unique cards."""
    nochange, tweak = [], []
    for run in range(runs):
        project = write_project(scratch / f"tweak-{run}", 1000, 1)
        out, cache = scratch / f"tweak-out-{run}", scratch / f"tweak-cache-{run}"
        cold = run_child("pnpgen", str(project), str(out), str(cache), str(warmup))["seconds"]
        same = run_child("pnpgen", str(project), str(out), str(cache), str(warmup))["seconds"]
        cards = project / "cards.yaml"
        text = cards.read_text(encoding="utf-8")
        assert text.count(TWEAK[0]) == 1
        cards.write_text(text.replace(*TWEAK), encoding="utf-8")
        changed = run_child("pnpgen", str(project), str(out), str(cache), str(warmup))["seconds"]
        nochange.append(same / cold)
        tweak.append(changed / cold)
    return statistics.median(nochange), statistics.median(tweak)


def bundled(scratch: Path, runs: int) -> tuple[float, float]:
    """Median wall seconds of `python3 -m pnpgen build` of the bundled project in a fresh process with an
    empty cache, and of start-up alone (imports and font registration, nothing built)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    startup = ("import pnpgen.cli, pnpgen.pipeline.build; from pnpgen.pipeline.prepare import open_fontbook; "
               "from pnpgen.project.validate import load_project; import sys; "
               "book = open_fontbook(load_project(__import__('pathlib').Path(sys.argv[1]))); book.resolve(None); "
               "book.resolve(None, 'bold')")
    # An installed pnpgen has its modules compiled; a checkout run with PYTHONDONTWRITEBYTECODE (or never
    # imported) would compile every one at each start, which is no cost a user pays. Compile them first.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pnpgen")], env=env, check=True,
                   capture_output=True)
    whole, start = [], []
    for run in range(runs):
        env["PNPGEN_CACHE"] = str(scratch / f"bundled-cache-{run}")
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pnpgen", "build", str(ROOT), "-o", str(scratch / f"bundled-{run}")],
                       env=env, check=True, capture_output=True)
        whole.append(time.perf_counter() - began)
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", startup, str(ROOT)], env=env, check=True, capture_output=True)
        start.append(time.perf_counter() - began)
    return statistics.median(whole), statistics.median(start)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        kind, *args = sys.argv[2:]
        result = child_pnpgen(*args) if kind == "pnpgen" else child_reference(int(args[0]), args[1])
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", type=int, default=0, help="also cProfile a cold build of this many cards")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="pnpgen-peer-") as tmp:
        scratch = Path(tmp)
        warmup = write_project(scratch / "warmup", 20, 1, prefix="ウォームアップ")
        print(f"cold builds of N unique poker cards (A4 9-up, a shared back), pnpgen.build with an empty cache vs "
              f"plain reportlab drawing the same deck; fresh process each, median of {args.runs}")
        print(f"{'cards':>7} {'reportlab s':>11} {'pnpgen s':>9} {'ratio':>6} {'target':>7}  {'ref MB':>6} "
              f"{'main MB':>7} {'helper MB':>9} {'ref PDF':>10} {'pnpgen PDFs (deck / print-and-play)':>36}")
        for unique in sizes:
            ours, ref = compare(scratch, unique, args.runs, warmup)
            ratio = ours["seconds"] / ref["seconds"]
            target = 5.0 if unique >= 10000 else 6.0
            pdfs = " / ".join(f"{v:,}" for v in ours["sizes"].values())
            print(f"{unique:>7,} {ref['seconds']:11.2f} {ours['seconds']:9.2f} {ratio:6.2f} "
                  f"≤{target:g} {verdict(ratio <= target)}  {ref['main_mb']:6.0f} {ours['main_mb']:7.0f} "
                  f"{ours['helper_mb']:9.0f} {ref['size']:>10,} {pdfs:>36}")
        nochange, tweak = incremental(scratch, args.runs, warmup)
        print(f"\n1,000 unique cards, fresh processes, as fractions of a cold build (median of {args.runs}):")
        print(f"  no-change rebuild  {nochange:6.3f}   target ≤ 0.10   {verdict(nochange <= 0.10)}")
        print(f"  one-card tweak     {tweak:6.3f}   target ≤ 0.15   {verdict(tweak <= 0.15)}")
        whole, startup = bundled(scratch, args.runs)
        print(f"\nbundled project, `python3 -m pnpgen build` in a fresh process, empty cache: {whole:.2f} s "
              f"(target < 2 s: {verdict(whole < 2)}); start-up alone (imports, font registration) {startup:.2f} s")
        if args.profile:
            project = write_project(scratch / f"profile-{args.profile}", args.profile, 1)
            print_profile(project, scratch, f"a cold {args.profile:,}-card build", most=25)


if __name__ == "__main__":
    main()
