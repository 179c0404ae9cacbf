"""Turn back pages and a printer's duplex shift into shifted back pages: range-checked, nothing printed in the margin."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .marks import EPS, Mark, Rect, bound, intersect, mark_box, shift_mark, shift_rect
from ..units import mm, to_mm

MIN_MARK = mm(1)  # a crop mark the margin cuts shorter than this is left out


def offset_backs(pages: Sequence, offset: tuple[float, float], margin: float) -> list:
    """Shift every back page by offset (points, x right, y up); ValueError when a back trim would leave the paper.
    A back trim in the margin is noted on its page; clips and marks stop at the margin, where printers cannot print."""
    dx, dy = offset
    backs = [page for page in pages if page.side == "back" and page.placements]
    if not backs or (abs(dx) < EPS and abs(dy) < EPS):
        return list(pages)
    check_offset(backs, dx, dy, margin)
    return [shift_back(page, dx, dy, margin) if page.side == "back" else page for page in pages]


def visible_trims(page) -> list[Rect]:
    """The part of each trim the page shows (a tile shows a window of its map)."""
    trims = [intersect(Rect(p.x, p.y, p.x + p.width, p.y + p.height), p.clip) for p in page.placements]
    return [t for t in trims if t is not None]


def offset_range(pages: Sequence, inset: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The (low, high) shifts across and up that keep every back trim `inset` inside its page's edges."""
    lo_x = lo_y = float("-inf")
    hi_x = hi_y = float("inf")
    for page in pages:
        box = bound(visible_trims(page))
        if box is None:
            continue
        lo_x, hi_x = max(lo_x, inset - box.x0), min(hi_x, page.size.width - inset - box.x1)
        lo_y, hi_y = max(lo_y, inset - box.y0), min(hi_y, page.size.height - inset - box.y1)
    return (lo_x, hi_x), (lo_y, hi_y)


def check_offset(backs: Sequence, dx: float, dy: float, margin: float) -> None:
    (lo_x, hi_x), (lo_y, hi_y) = offset_range(backs, 0.0)
    if lo_x - EPS <= dx <= hi_x + EPS and lo_y - EPS <= dy <= hi_y + EPS:
        return
    (safe_lo_x, safe_hi_x), (safe_lo_y, safe_hi_y) = offset_range(backs, margin)
    raise ValueError(f"--back-offset {to_mm(dx):g},{to_mm(dy):g} moves back trims off the paper; expected an offset "
                     f"from {to_mm(safe_lo_x):.1f} to {to_mm(safe_hi_x):.1f} mm across and from {to_mm(safe_lo_y):.1f} "
                     f"to {to_mm(safe_hi_y):.1f} mm up (within the 6 mm margin), or at most "
                     f"{to_mm(lo_x):.1f} to {to_mm(hi_x):.1f} and {to_mm(lo_y):.1f} to {to_mm(hi_y):.1f} mm")


def shift_back(page, dx: float, dy: float, margin: float):
    limit = Rect(margin, margin, page.size.width - margin, page.size.height - margin)
    placements = []
    for p in page.placements:
        trim = Rect(p.x + dx, p.y + dy, p.x + p.width + dx, p.y + p.height + dy)
        clip = shift_rect(p.clip, dx, dy)
        # The bleed stops at the margin; a trim that reaches into it is still drawn (and reported).
        clip = Rect(max(clip.x0, min(trim.x0, limit.x0)), max(clip.y0, min(trim.y0, limit.y0)),
                    min(clip.x1, max(trim.x1, limit.x1)), min(clip.y1, max(trim.y1, limit.y1)))
        placements.append(replace(p, x=trim.x0, y=trim.y0, clip=clip))
    marks = [m for m in (keep_inside(shift_mark(mark, dx, dy), limit) for mark in page.marks) if m is not None]
    shifted = replace(page, placements=tuple(placements), marks=tuple(marks),
                      trim_box=shift_rect(page.trim_box, dx, dy),
                      bleed_box=bound(p.clip for p in placements) or shift_rect(page.bleed_box, dx, dy))
    (lo_x, hi_x), (lo_y, hi_y) = offset_range([shifted], margin)
    if lo_x > EPS or hi_x < -EPS or lo_y > EPS or hi_y < -EPS:
        inside = min(min(t.x0, t.y0, page.size.width - t.x1, page.size.height - t.y1) for t in visible_trims(shifted))
        note = (f"--back-offset {to_mm(dx):g},{to_mm(dy):g} puts back trims {to_mm(inside):.1f} mm from the paper's "
                "edge, inside the 6 mm margin home printers may not print")
        shifted = replace(shifted, notes=shifted.notes + (note,))
    return shifted


def keep_inside(mark: Mark, limit: Rect) -> Mark | None:
    """The mark cut back to the printable area (crop marks), or None when it leaves it (other marks)."""
    p = mark.points
    if mark.kind == "crop":
        x0, x1 = (min(max(v, limit.x0), limit.x1) for v in (p[0], p[2]))
        y0, y1 = (min(max(v, limit.y0), limit.y1) for v in (p[1], p[3]))
        inside = limit.x0 - EPS <= p[0] <= limit.x1 + EPS if p[0] == p[2] else limit.y0 - EPS <= p[1] <= limit.y1 + EPS
        return Mark("crop", (x0, y0, x1, y1)) if inside and abs(x1 - x0) + abs(y1 - y0) >= MIN_MARK else None
    box = mark_box(mark)
    fits = box.x0 >= limit.x0 - EPS and box.y0 >= limit.y0 - EPS and box.x1 <= limit.x1 + EPS and box.y1 <= limit.y1 + EPS
    return mark if fits else None
