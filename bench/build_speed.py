"""Measure pnpgen build speed and PDF size on synthetic poker decks, as ratios against plain reportlab.

Run from the checkout: python3 bench/build_speed.py [--profile]
Not a test: it prints figures; absolute targets are marked PASS/MISS for the reader, nothing fails.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pnpgen  # noqa: E402
from pnpgen import Options  # noqa: E402
from pnpgen.faces.fonts import BUNDLED_FONTS  # noqa: E402

FRONT = """\
<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#f4ecd8"/>
<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" rx="2" fill="none" stroke="#b3262d" stroke-width="0.5"/>
{{ text(card.number|string, SAFE + 1, SAFE + 1, 26, 14, size=28, min_size=20, weight="bold", color="#b3262d") }}
{{ text(card.name, SAFE + 1, 22, W - 2*SAFE - 2, 8, size=12, weight="bold", align="center") }}
{{ text(card.effect, SAFE + 2, 56, W - 2*SAFE - 4, 24, size=8, min_size=6) }}
"""
BACK = """\
<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#1d5e48"/>
<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" rx="2" fill="none" stroke="#b48a3c" stroke-width="0.6"/>
{{ text(game.title, 0, H/2 - 6, W, 12, size=14, weight="bold", align="center", color="#ffffff") }}
"""
TITLE = "ベンチマーク"
CARD_W, CARD_H, PAGE_W, PAGE_H = 63.0, 88.0, 210.0, 297.0  # mm: poker card, A4


def effect_lines(n: int) -> list[str]:
    """Two or three lines of Japanese effect text that differ per card."""
    lines = [f"山札からカードを{n % 5 + 1}枚引く。", f"場にカード{n}があれば１点得る。"]
    return lines + ["その後、手札を１枚捨てる。"] if n % 2 else lines


def write_project(root: Path, unique: int, copies: int, prefix: str = "カード") -> Path:
    """A project folder with one game, one poker-card component of `unique` cards × `copies`."""
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    cards = "\n".join(f"          - {{number: {n}, name: {json.dumps(prefix + str(n), ensure_ascii=False)}, "
                      f"effect: {json.dumps(chr(10).join(effect_lines(n)), ensure_ascii=False)}}}"
                      for n in range(1, unique + 1))
    (root / "cards.yaml").write_text(f"""\
games:
  - id: bench
    title: {TITLE}
    components:
      - id: deck
        name: デッキ
        size: poker
        front: front.svg.j2
        back: back.svg.j2
        copies: {copies}
        cards:
{cards}
""", encoding="utf-8")
    return root


def time_build(project: Path, scratch: Path, runs: int):
    """Best wall-clock seconds of `runs` builds (each into a fresh output folder), the last Report."""
    best, report = float("inf"), None
    for run in range(runs):
        out = scratch / f"out-{project.name}-{run}"
        start = time.perf_counter()
        report = pnpgen.build(project, Options(out_dir=out, check=False, cache=False))  # the cold pipeline
        best = min(best, time.perf_counter() - start)
    return best, report


def draw_reference(path: Path, unique: int) -> None:
    """The same cards drawn straight onto a reportlab canvas: 9-up on A4, crop marks, a back page after each front page."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path), pagesize=(PAGE_W * mm, PAGE_H * mm), invariant=1)
    x0, y0 = (PAGE_W - 3 * CARD_W) / 2, (PAGE_H - 3 * CARD_H) / 2

    def crop_marks():
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(0.25)
        for i in range(4):
            x, y = (x0 + i * CARD_W) * mm, (y0 + i * CARD_H) * mm
            canvas.line(x, (y0 - 6) * mm, x, (y0 - 2) * mm)
            canvas.line(x, (PAGE_H - y0 + 2) * mm, x, (PAGE_H - y0 + 6) * mm)
            canvas.line((x0 - 6) * mm, y, (x0 - 2) * mm, y)
            canvas.line((PAGE_W - x0 + 2) * mm, y, (PAGE_W - x0 + 6) * mm, y)

    def slot(i: int, mirrored: bool):
        col, row = i % 3, i // 3
        col = 2 - col if mirrored else col
        return (x0 + col * CARD_W) * mm, (PAGE_H - y0 - (row + 1) * CARD_H) * mm  # bottom-left corner

    numbers = list(range(1, unique + 1))
    for start in range(0, unique, 9):
        chunk = numbers[start:start + 9]
        for i, n in enumerate(chunk):
            x, y = slot(i, False)
            top = y + CARD_H * mm
            canvas.setFillColorRGB(0.957, 0.925, 0.847)
            canvas.rect(x, y, CARD_W * mm, CARD_H * mm, stroke=0, fill=1)
            canvas.setStrokeColorRGB(0.702, 0.149, 0.176)
            canvas.setLineWidth(0.5 * mm)
            canvas.roundRect(x + 3 * mm, y + 3 * mm, (CARD_W - 6) * mm, (CARD_H - 6) * mm, 2 * mm, stroke=1, fill=0)
            canvas.setFillColorRGB(0.702, 0.149, 0.176)
            canvas.setFont("RefJP-Bold", 28)
            canvas.drawString(x + 4 * mm, top - 4 * mm - 28, str(n))
            canvas.setFillColorRGB(0, 0, 0)
            canvas.setFont("RefJP-Bold", 12)
            canvas.drawCentredString(x + CARD_W / 2 * mm, top - 22 * mm - 12, f"カード{n}")
            canvas.setFont("RefJP", 8)
            for k, line in enumerate(effect_lines(n)):
                canvas.drawString(x + 5 * mm, top - 56 * mm - 8 - k * 10.4, line)
        crop_marks()
        canvas.showPage()
        for i in range(len(chunk)):
            x, y = slot(i, True)
            canvas.setFillColorRGB(0.114, 0.369, 0.282)
            canvas.rect(x, y, CARD_W * mm, CARD_H * mm, stroke=0, fill=1)
            canvas.setStrokeColorRGB(0.706, 0.541, 0.235)
            canvas.setLineWidth(0.6 * mm)
            canvas.roundRect(x + 3 * mm, y + 3 * mm, (CARD_W - 6) * mm, (CARD_H - 6) * mm, 2 * mm, stroke=1, fill=0)
            canvas.setFillColorRGB(1, 1, 1)
            canvas.setFont("RefJP-Bold", 14)
            canvas.drawCentredString(x + CARD_W / 2 * mm, y + CARD_H / 2 * mm - 5, TITLE)
        crop_marks()
        canvas.showPage()
    canvas.save()


def time_reference(scratch: Path, unique: int, runs: int) -> tuple[float, int]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in (("RefJP", "NotoSansJP-Regular.ttf"), ("RefJP-Bold", "NotoSansJP-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(BUNDLED_FONTS / file)))  # outside the timing
    best = float("inf")
    for run in range(runs):
        path = scratch / f"reference-{run}.pdf"
        start = time.perf_counter()
        draw_reference(path, unique)
        best = min(best, time.perf_counter() - start)
    return best, path.stat().st_size


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
        print(f"pnpgen {pnpgen.__version__}, Python {sys.version.split()[0]}: in-process builds (check off) "
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
