"""Measure what reading a 5,000-row sheet adds to a cold build of that deck, as a ratio of the cold build.

Target (issue 16): reading the sheet adds ≤ 10 % to a cold build of the deck it holds.
Run: python3 bench/sheet_speed.py [--rows N] [--runs N]
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = """project: {{name: sheet-bench}}
games:
  - id: bench
    title: ベンチ
    defaults: {{accent: "#b3262d", jade: "#1d5e48", ivory: "#f7f1e1", ink: "#2a1d17", gold: "#b48a3c"}}
    components:
      - id: battle-cards
        front: three-times/battle.svg.j2
        back: three-times/back.svg.j2
        defaults: {{ron: false, effect: ""}}
        cards: {cards}
"""


def deck_rows(count: int) -> list[list]:
    """The battle deck's columns, a different effect text on every row (so every face is rendered)."""
    rows = [["number", "copies", "ron", "effect", "#memo"]]
    for i in range(count):
        rows.append([i % 7 + 1, 1, i % 5 == 0, f":ron: ロンできるカード。\n{i + 1}枚目の効果テキスト。", f"row {i}"])
    return rows


def write_projects(work: Path, count: int) -> dict[str, Path]:
    from openpyxl import Workbook

    rows = deck_rows(count)
    projects = {}
    for kind in ("yaml", "csv", "xlsx"):
        project = work / kind
        project.mkdir()
        shutil.copytree(ROOT / "templates", project / "templates")
        shutil.copytree(ROOT / "fonts", project / "fonts")
        (project / "data").mkdir()
        if kind == "yaml":
            cards = "\n" + "\n".join(
                f"          - {{number: {n}, copies: {c}, ron: {str(r).lower()}, effect: \"{e}\"}}".replace("\n", "\\n")
                for n, c, r, e, _ in rows[1:])
        elif kind == "csv":
            with open(project / "data/deck.csv", "w", encoding="utf-8-sig", newline="") as out:
                csv.writer(out).writerows([["TRUE" if v is True else "FALSE" if v is False else v for v in row]
                                           for row in rows])
            cards = "{from: data/deck.csv}"
        else:
            book = Workbook(write_only=True)
            sheet = book.create_sheet("闘牌")
            for row in rows:
                sheet.append(row)
            book.save(project / "data/deck.xlsx")
            cards = "{from: data/deck.xlsx, sheet: 闘牌}"
        (project / "cards.yaml").write_text(GAME.format(cards=cards), encoding="utf-8")
        projects[kind] = project
    return projects


def best_load(project: Path, runs: int) -> float:
    from pnpgen.project.sheet_files import remembered_answer
    from pnpgen.project.validate import load_project

    best = float("inf")
    for _ in range(runs):
        remembered_answer.cache_clear()  # a cold read every time, as in a fresh `pnpgen build`
        start = time.perf_counter()
        load_project(project)
        best = min(best, time.perf_counter() - start)
    return best


def cold_build(project: Path, cache: Path) -> float:
    env = dict(os.environ, PNPGEN_CACHE=str(cache), PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnpgen", "build", str(project), "--no-check", "--only", "components"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5, help="loads of each project (best counts)")
    parser.add_argument("--build-xlsx", action="store_true", help="also build the XLSX deck cold (as long again)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        projects = write_projects(work, args.rows)
        loads = {kind: best_load(project, args.runs) for kind, project in projects.items()}
        cold = cold_build(projects["yaml"], work / "cache-yaml")
        cold_xlsx = cold_build(projects["xlsx"], work / "cache-xlsx") if args.build_xlsx else None
    print(f"{args.rows} unique battle cards; loads best of {args.runs} in this process, builds in fresh processes "
          "with empty caches (--only components)")
    print(f"  cold build, cards in YAML          {cold:7.2f} s   1.000")
    if cold_xlsx is not None:
        print(f"  cold build, cards in XLSX          {cold_xlsx:7.2f} s   {cold_xlsx / cold:.3f}  (one run each: noisy)")
    for kind in ("yaml", "csv", "xlsx"):
        print(f"  load the project, cards in {kind:5}   {loads[kind]:7.3f} s   {loads[kind] / cold:.3f}")
    for kind in ("csv", "xlsx"):
        ratio = loads[kind] / cold
        verdict = "PASS" if ratio <= 0.10 else "MISS"
        print(f"reading the {kind} sheet (the whole load) adds {ratio:.3f} of a cold build; target ≤ 0.10: {verdict}")


if __name__ == "__main__":
    main()
