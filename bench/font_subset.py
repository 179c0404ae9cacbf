"""Measure pnpgen's retained-GID TrueType subsetter against fontTools' and reportlab's on the same glyphs.

Run from the checkout: python3 bench/font_subset.py [--glyphs 1000] [--runs 20]
Not a test: it prints figures as ratios against references measured in the same run; nothing fails.
"""
from __future__ import annotations

import argparse
import sys
import time
import zlib
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fontTools import subset as tools_subset  # noqa: E402
from fontTools.ttLib import TTFont as ToolsFont  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFontFile  # noqa: E402

from pnpgen.faces.fonts import BUNDLED_FONTS  # noqa: E402
from pnpgen.faces.truetype import TrueTypeFile  # noqa: E402
from pnpgen.press.cid_fonts import cid_font_objects  # noqa: E402

FONT = BUNDLED_FONTS / "NotoSansJP-Regular.ttf"


def pick_text(font: TrueTypeFile, count: int) -> str:
    """count characters a Japanese game might use: ASCII, kana, full-width forms, then kanji in code order."""
    blocks = [range(0x20, 0x7F), range(0x3000, 0x3100), range(0xFF01, 0xFF9F), range(0x4E00, 0xA000)]
    chars = [chr(code) for block in blocks for code in block if font.glyph_id(chr(code))]
    return "".join(chars[:count])


def best_of(runs: int, work) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def subset_with_fonttools(data: bytes, gids: list[int]) -> bytes:
    options = tools_subset.Options()
    options.retain_gids = True
    options.notdef_outline = True
    font = ToolsFont(BytesIO(data), recalcTimestamp=False)
    subsetter = tools_subset.Subsetter(options)
    subsetter.populate(gids=gids)
    subsetter.subset(font)
    out = BytesIO()
    font.save(out)
    return out.getvalue()


def subset_with_reportlab(text: str) -> list[bytes]:
    """What the current writer pays per document: reportlab's subsets of at most 256 characters each."""
    face = TTFontFile(str(FONT))
    codes = sorted({ord(c) for c in text})
    return [face.makeSubset(codes[start:start + 256]) for start in range(0, len(codes), 256)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glyphs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    data = FONT.read_bytes()
    opened, font = best_of(args.runs, lambda: TrueTypeFile(data, 0, FONT.name))
    mapped, _ = best_of(1, lambda: font.cmap)  # built once per font, lazily
    text = pick_text(font, args.glyphs)
    gids = sorted(set(font.glyph_ids(text)))
    ours, subset = best_of(args.runs, lambda: font.subset(gids))
    numbers = iter(range(2, 10 ** 6))
    used = dict(zip(font.glyph_ids(text), text))
    objects, _ = best_of(args.runs, lambda: cid_font_objects(font, used, 1, lambda: next(numbers)))
    tools, tools_bytes = best_of(3, lambda: subset_with_fonttools(data, gids))
    reportlab, reportlab_parts = best_of(3, lambda: subset_with_reportlab(text))

    print(f"font: {FONT.name} ({len(data):,} bytes, {font.num_glyphs:,} glyphs); subset of {len(gids):,} glyphs")
    print(f"{'':48}{'× fontTools':>12}{'× reportlab':>13}")
    for label, seconds in (("pnpgen subset (open font)", ours),
                           ("pnpgen open + cmap + subset (cold)", opened + mapped + ours),
                           ("pnpgen cid_font_objects (+ zlib, W, ToUnicode)", objects)):
        print(f"{label:48}{seconds / tools:>12.4f}{seconds / reportlab:>13.4f}")
    print(f"{'reportlab makeSubset (per-document today)':48}{reportlab / tools:>12.4f}{1:>13.4f}")
    print(f"absolute, this machine: pnpgen subset {ours * 1000:.2f} ms, fontTools {tools * 1000:.0f} ms, "
          f"reportlab {reportlab * 1000:.0f} ms")
    print(f"{'size':48}{'raw':>12}{'zlib':>13}")
    for label, parts in (("pnpgen (retained GIDs)", [subset]), ("fontTools (retain_gids=True)", [tools_bytes]),
                         ("reportlab (renumbered, 256 per subset)", reportlab_parts)):
        raw, packed = sum(map(len, parts)), sum(len(zlib.compress(p, 6)) for p in parts)
        print(f"{label:48}{raw:>12,}{packed:>13,}")


if __name__ == "__main__":
    main()
