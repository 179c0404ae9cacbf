"""Turn a page's slots (x, y, width, height, clip of each placement) into its trim and bleed boxes, and a front
page's geometry into its back's: pages that share a geometry (every full page of a component) share the work."""
from __future__ import annotations

import functools
from typing import Sequence

from .marks import Mark, Rect, bound, intersect, mirror_mark, mirror_rect


def page_boxes(slots: Sequence[tuple]) -> tuple[Rect, Rect] | None:
    """(trim box, bleed box) of a page: the trims as far as their clips show them, and the clips; None for none."""
    shown = [intersect(Rect(x, y, x + w, y + h), clip) for x, y, w, h, clip in slots]
    trim_box, bleed_box = bound(t for t in shown if t is not None), bound(clip for *_, clip in slots)
    return None if trim_box is None or bleed_box is None else (trim_box, bleed_box)


@functools.lru_cache(maxsize=64)
def turn_over(slots: tuple, marks: tuple[Mark, ...], bare: tuple[str, ...], backed: tuple[bool, ...],
              axes: tuple) -> tuple:
    """A front page's geometry mirrored about axes ((("width", w),) or (("height", h),)) for the duplex flip:
    (slots of the items with a back (backed), marks, bare sides, boxes)."""
    mirror = dict(axes)
    kept = []
    for (x, y, width, height, clip), has_back in zip(slots, backed):
        if has_back:
            trim = mirror_rect(Rect(x, y, x + width, y + height), **mirror)
            kept.append((trim.x0, trim.y0, width, height, mirror_rect(clip, **mirror)))
    swap = {"left": "right", "right": "left"} if "width" in mirror else {"top": "bottom", "bottom": "top"}
    return (tuple(kept), tuple(mirror_mark(m, **mirror) for m in marks),
            frozenset(swap.get(side, side) for side in bare), page_boxes(kept))
