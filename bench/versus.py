"""Time this source tree against another one (an earlier checkout) as a user runs pnpgen: whole processes, A/B.

Run: python3 bench/versus.py OTHER_TREE [--runs 5] [--cards 1000] [--only NAME,NAME]

OTHER_TREE is a folder holding another version's `pnpgen/` package (for example a `git worktree` of an
earlier commit). Every timed run is `python -m pnpgen build PROJECT -o OUT` from the command line, checks on as
by default, in a fresh process; the two trees run in turn (A B A B …) so that a drift in the machine's speed
touches both alike, and each pair gives a ratio A/B. Not a test: it prints figures and judges nothing.

Both trees build the same pages: the bundled project is OTHER_TREE's (or --bundled's), the deck is made here.
Cases: the bundled project cold (empty cache and output), rebuilt with nothing changed, and after one card's
text changed; a deck of --cards unique cards cold, unchanged, after one card's text changed, and after an edit of
its front template. CPU is the child's user + system time (its helper processes included), wall the
elapsed time; each row prints the ratio's min, median and max over the pairs.
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

from deck import TEMPLATE_EDIT, card_tweak, edit, write_project  # noqa: E402
from processes import run_build, spread  # noqa: E402

BUNDLED_TWEAK = ("games/three-times-undress.yaml", "            ron: true\n            effect: \":ron: ロンできるカード。",
                 "            ron: true\n            effect: \":ron: 一枚だけ変えたカード。")  # effects only on ron cards


def copy_bundled(source_root: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for name in ("cards.yaml", "games", "templates", "documents", "rules"):
        source = source_root / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target / name)
    return target


def one_run(tree: Path, scratch: Path, case: str, cards: int, bundled: Path) -> tuple[float, float]:
    """Prepare the case's state in a new folder (untimed), then time the build the case is about."""
    project = scratch / "project"
    cache = scratch / "cache"
    if case.startswith("bundled"):
        copy_bundled(bundled, project)
    else:
        write_project(project, cards, 1)
    if case.endswith("cold"):
        return run_build(tree, project, cache)[:2]
    run_build(tree, project, cache)
    if case.endswith("tweak"):
        edit(project, BUNDLED_TWEAK if case.startswith("bundled") else card_tweak(cards // 2))
    elif case.endswith("template"):
        edit(project, TEMPLATE_EDIT)
    return run_build(tree, project, cache)[:2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="a folder holding another version's pnpgen/ package")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--bundled", type=Path, help="the tree whose bundled project both build (default: "
                        "OTHER_TREE's, which an older version can read)")
    args = parser.parse_args()
    other = args.other.resolve()
    if not (other / "pnpgen" / "__init__.py").is_file():
        raise SystemExit(f"bench: {other} holds no pnpgen/ package")
    cases = ["bundled-cold", "bundled-unchanged", "bundled-tweak",
             "deck-cold", "deck-unchanged", "deck-tweak", "deck-template"]
    if args.only:
        cases = [case for case in cases if case in args.only.split(",")]
    print(f"A = {ROOT.name} (this tree), B = {other.name}; {args.runs} pairs a case, A and B in turn; "
          f"deck of {args.cards} unique cards; {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{'case':18} {'A cpu s':>8} {'B cpu s':>8}  {'cpu A/B median (min–max)':28} {'wall A/B median (min–max)':28}")
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            pairs = []
            for run in range(args.runs):
                pair = []
                for side, tree in (("a", ROOT), ("b", other)):
                    scratch = Path(folder) / f"{case}-{run}-{side}"
                    pair.append(one_run(tree, scratch, case, args.cards, (args.bundled or other).resolve()))
                    shutil.rmtree(scratch)
                pairs.append(pair)
            cpu = [a[0] / b[0] for a, b in pairs]
            wall = [a[1] / b[1] for a, b in pairs]
            print(f"{case:18} {statistics.median(a[0] for a, _ in pairs):8.2f} {statistics.median(b[0] for _, b in pairs):8.2f}"
                  f"  {spread(cpu):28} {spread(wall):28}", flush=True)
    print(f"load at the end {os.getloadavg()[0]:.2f} (a figure from a loaded machine is noisier: compare medians)")


if __name__ == "__main__":
    main()
