"""Turn a placement into the operators that clip and move a face's form there, and a page into where its label goes."""
from __future__ import annotations

import functools

from reportlab.lib.rl_accel import fp_str
from ..faces.font import font_named
from ..units import mm
from .impose import Page, Rect
from .marks import mark_box

LABEL_SIZE = 6  # pt
MARGIN = mm(6)  # the sheets' margin, where a page label starts


@functools.lru_cache(maxsize=4096)
def placing(x: float, y: float, width: float, height: float, clip: Rect, clip_path: tuple, flip: str,
            bleed: float) -> str:
    """The operators that clip to a placement (its clip, or the closed polygons of its clip_path) and move a face's
    form there, its origin at the bleed corner and mirrored as flip says, up to its Do: the same for the same slot
    on every full sheet, whichever face it holds."""
    region = " ".join(f"{fp_str(*polygon[0])} m " + " ".join(f"{fp_str(*p)} l" for p in polygon[1:]) + " h"
                      for polygon in clip_path)
    region = region or f"{fp_str(clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0)} re"
    x, y, width, height = x - bleed, y - bleed, width + 2 * bleed, height + 2 * bleed
    flips = {"y": (1, 0, 0, -1, x, y + height), "xy": (-1, 0, 0, -1, x + width, y + height)}
    return f"q {region} W n {fp_str(*flips.get(flip, (1, 0, 0, 1, x, y)))} cm"


def label_position(page: Page, font_name: str) -> tuple[float, float] | None:
    """Where the page label starts (x, baseline): at the left margin, below (or else above) everything
    printed; None when there is no label or it does not fit."""
    if not page.label:
        return None
    font = font_named(font_name)
    width = font.width(page.label, LABEL_SIZE)
    ascent, descent = font.ascent * LABEL_SIZE / 1000, -font.descent * LABEL_SIZE / 1000
    x0, x1 = MARGIN, MARGIN + width
    if x1 > page.size.width - MARGIN:
        return None
    printed = [r for r in printed_boxes(page) if r.x0 < x1 + 1 and r.x1 > x0 - 1]
    baseline = MARGIN + descent
    if all(r.y0 >= baseline + ascent + 1 for r in printed):
        return x0, baseline
    baseline = page.size.height - MARGIN - ascent
    if all(r.y1 <= baseline - descent - 1 for r in printed):
        return x0, baseline
    return None


def printed_boxes(page: Page) -> list[Rect]:
    """The bounding boxes of everything drawn on the page: its placements' clips, its marks."""
    return [p.clip for p in page.placements] + [mark_box(mark) for mark in page.marks if mark.points]
