"""Turn the trims laid out on a page into the clip each face shows: the full bleed on every edge no piece abuts."""
from __future__ import annotations

from typing import Sequence

from .marks import EPS, Rect, intersect
from ..units import mm, to_mm

MIN_BLEED = mm(1)  # the bleed gives way to crop marks down to this, no further


def describe_reduced_bleed(left: float, asked: float, marks: bool = False) -> str:
    """What a note says of a bleed the margin (and, with marks, the crop marks' white) cut below what was asked."""
    why = "the 6 mm margin home printers cannot print clear"
    if marks:
        why += ", with 3 mm of white for the crop marks where they fit"
    return f"the outer bleed is {to_mm(max(left, 0.0)):.1f} mm on some edges (asked {to_mm(asked):g} mm) to keep {why}"


def clip_trims(trims: Sequence[Rect], limit: Rect, bleed: float, reserve: float = 0.0) -> list[Rect]:
    """Return each trim grown by the bleed on every side, as far as the page allows: short of limit by `reserve`
    (the white a crop mark needs, see outer_bleed), half-way to a trim facing it across a gap (none between
    abutting trims). Where a grown corner would enter another trim, the side that gives up least is drawn in."""
    clips = [_grow(t, trims, limit, bleed, reserve) for t in trims]
    return [_clear(clip, trim, trims) for clip, trim in zip(clips, trims)]


def outer_bleed(room: float, bleed: float, reserve: float) -> float:
    """The bleed printed toward the margin `room` away: all of it when a crop mark still has `reserve` of
    white beyond it; else as much as leaves the mark its white, down to MIN_BLEED; else all the room
    there is (and no crop mark fits there)."""
    room = max(0.0, room)
    if room - reserve >= MIN_BLEED - EPS:
        return min(bleed, room - reserve)
    return min(bleed, room)


def _grow(trim: Rect, trims: Sequence[Rect], limit: Rect, bleed: float, reserve: float) -> Rect:
    room = {"left": trim.x0 - limit.x0, "bottom": trim.y0 - limit.y0,
            "right": limit.x1 - trim.x1, "top": limit.y1 - trim.y1}
    room = {side: outer_bleed(value, bleed, reserve) for side, value in room.items()}
    for other in trims:
        if other is trim:
            continue
        beside = other.y0 < trim.y1 - EPS and other.y1 > trim.y0 + EPS  # shares some height: faces left/right
        above = other.x0 < trim.x1 - EPS and other.x1 > trim.x0 + EPS  # shares some width: faces up/down
        if beside and other.x0 >= trim.x1 - EPS:
            room["right"] = min(room["right"], max(0.0, (other.x0 - trim.x1) / 2))
        if beside and other.x1 <= trim.x0 + EPS:
            room["left"] = min(room["left"], max(0.0, (trim.x0 - other.x1) / 2))
        if above and other.y0 >= trim.y1 - EPS:
            room["top"] = min(room["top"], max(0.0, (other.y0 - trim.y1) / 2))
        if above and other.y1 <= trim.y0 + EPS:
            room["bottom"] = min(room["bottom"], max(0.0, (trim.y0 - other.y1) / 2))
    return Rect(trim.x0 - room["left"], trim.y0 - room["bottom"], trim.x1 + room["right"], trim.y1 + room["top"])


def _clear(clip: Rect, trim: Rect, trims: Sequence[Rect]) -> Rect:
    for other in trims:
        if other is trim:
            continue
        overlap = intersect(clip, other)
        if overlap is None or overlap.width <= EPS or overlap.height <= EPS:
            continue
        # Draw in the side, horizontal or vertical, that loses the smaller strip.
        if overlap.width <= overlap.height:
            clip = Rect(max(clip.x0, other.x1), clip.y0, clip.x1, clip.y1) if other.x1 <= trim.x0 + EPS \
                else Rect(clip.x0, clip.y0, min(clip.x1, other.x0), clip.y1)
        else:
            clip = Rect(clip.x0, max(clip.y0, other.y1), clip.x1, clip.y1) if other.y1 <= trim.y0 + EPS \
                else Rect(clip.x0, clip.y0, clip.x1, min(clip.y1, other.y0))
    return clip
