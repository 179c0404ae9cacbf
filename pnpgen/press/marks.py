"""Turn the trims laid out on a page into cutting marks (crop, cut, circle), and move marks with them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..units import mm

EPS = 1e-6
MARK_START = mm(1)  # gap between the trim and the start of a crop mark (it crosses the bleed, haloed)
MARK_LENGTH = mm(5)
WHITE_REACH = mm(3)  # how far a crop mark reaches past the printed bleed, into white paper, where there is room
MIN_TICK = mm(1)  # where there is not, the shortest mark drawn over the bleed up to the margin that still guides a cut
TICK_ROOM = MIN_TICK * 4 / 3  # the room such a tick needs beyond the trims (it starts a quarter of the room off them)


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in points, PDF coordinates."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True, slots=True)
class Mark:
    """A printed guide. kind: crop (line x0,y0,x1,y1), cut (rect x0,y0,x1,y1), circle (cx,cy,rx,ry),
    align (cross-hair cx,cy,size), fold (dashed line x0,y0,x1,y1)."""

    kind: str
    points: tuple[float, ...]


def intersect(a: Rect, b: Rect) -> Rect | None:
    """Return the overlap of two rects, or None when they do not overlap."""
    r = Rect(max(a.x0, b.x0), max(a.y0, b.y0), min(a.x1, b.x1), min(a.y1, b.y1))
    return r if r.x0 < r.x1 and r.y0 < r.y1 else None


def bound(rects: Iterable[Rect]) -> Rect | None:
    """Return the bounding box of rects, or None for none."""
    rects = list(rects)
    if not rects:
        return None
    return Rect(min(r.x0 for r in rects), min(r.y0 for r in rects),
                max(r.x1 for r in rects), max(r.y1 for r in rects))


def mark_box(mark: Mark) -> Rect:
    """Return the box a mark covers: its lines' ends, or a circle's or cross-hair's reach around its centre."""
    p = mark.points
    if mark.kind == "cutline":
        return Rect(min(p[0::2]), min(p[1::2]), max(p[0::2]), max(p[1::2]))
    if mark.kind in ("crop", "cut", "fold"):
        return Rect(min(p[0], p[2]), min(p[1], p[3]), max(p[0], p[2]), max(p[1], p[3]))
    rx, ry = (p[2], p[3]) if mark.kind == "circle" else (p[2] / 2, p[2] / 2)
    return Rect(p[0] - rx, p[1] - ry, p[0] + rx, p[1] + ry)


def outline_trims(trims: Sequence[Rect], shape: str) -> list[Mark]:
    """Return the trim outline of each rect: an ellipse for round pieces, a rectangle otherwise."""
    if shape == "round":
        return [Mark("circle", ((t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2, t.width / 2, t.height / 2))
                for t in trims]
    return [Mark("cut", (t.x0, t.y0, t.x1, t.y1)) for t in trims]


def crop_trims(trims: Sequence[Rect], limit: Rect, clips: Sequence[Rect]) -> tuple[list[Mark], set[str]]:
    """Return crop marks on the extension of every distinct trim edge, never in a trim nor out of limit (the
    printable area), and the sides ("top", "bottom", "left", "right") where an edge line got no mark.

    A mark reaches WHITE_REACH past the printed bleed (clips) into white paper; short of room, it is a tick over
    the bleed up to the margin (haloed, so it shows on any art); short of MIN_TICK, its side is reported."""
    marks: list[Mark] = []
    bare: set[str] = set()
    for vertical in (True, False):
        lines: dict[float, tuple[float, list[Rect]]] = {}  # keyed by rounded position: float noise
        for t in trims:
            for pos in ((t.x0, t.x1) if vertical else (t.y0, t.y1)):
                lines.setdefault(round(pos, 6), (pos, []))[1].append(t)
        for key in sorted(lines):
            found, missing = _crop_line(*lines[key], trims, clips, limit, vertical)
            marks.extend(found)
            bare.update(missing)
    return marks, bare


def _crop_line(pos: float, touching: list[Rect], trims: Sequence[Rect], clips: Sequence[Rect], limit: Rect,
               vertical: bool) -> tuple[list[Mark], list[str]]:
    # Work along the line: "along" is y for a vertical line, x for a horizontal one.
    lo_lim, hi_lim = (limit.y0, limit.y1) if vertical else (limit.x0, limit.x1)
    across_lo, across_hi = (limit.x0, limit.x1) if vertical else (limit.y0, limit.y1)
    if not across_lo - EPS <= pos <= across_hi + EPS:
        return [], []
    span = [(t.y0, t.y1) if vertical else (t.x0, t.x1) for t in touching]
    lo, hi = min(s[0] for s in span), max(s[1] for s in span)
    crossing = [((t.y0, t.y1) if vertical else (t.x0, t.x1)) for t in trims
                if ((t.x0 if vertical else t.y0) + EPS < pos < (t.x1 if vertical else t.y1) - EPS)]
    up_limit = min([hi_lim] + [a for a, _ in crossing if a >= hi - EPS])
    down_limit = max([lo_lim] + [b for _, b in crossing if b <= lo + EPS])
    covered = [((c.y0, c.y1) if vertical else (c.x0, c.x1)) for c in clips
               if (c.x0 if vertical else c.y0) - EPS <= pos <= (c.x1 if vertical else c.y1) + EPS]
    marks, missing = [], []
    for edge, room, sign, side, blocked in ((hi, up_limit - hi, 1, "top" if vertical else "right", up_limit < hi_lim),
                                            (lo, lo - down_limit, -1, "bottom" if vertical else "left", down_limit > lo_lim)):
        if room <= EPS and blocked:
            continue  # the line runs on along another trim's edge
        bleed = _printed_run(edge, sign, covered) - edge * sign
        reach = max(MARK_START + MARK_LENGTH, bleed + WHITE_REACH)
        start, end = MARK_START, min(room, reach)
        if room < bleed + WHITE_REACH - EPS:  # no white to reach: a tick over the bleed, up to the margin
            start = min(MARK_START, room / 4)
            end = room - start if blocked else room  # (or as far short of the next trim as it starts)
            if end - start < MIN_TICK - EPS:
                missing.append(side)
                continue
        a, b = edge + sign * start, edge + sign * end
        marks.append(Mark("crop", (pos, a, pos, b) if vertical else (a, pos, b, pos)))
    return marks, missing


def _printed_run(edge: float, sign: int, covered: list[tuple[float, float]]) -> float:
    """How far (times sign) printed clips run on from edge along the line without a break."""
    reach, grown = edge * sign, True
    while grown:
        grown = False
        for a, b in covered:
            near_end, far_end = (a, b) if sign > 0 else (-b, -a)
            if near_end <= reach + EPS and far_end > reach + EPS:
                reach, grown = far_end, True
    return reach


def align_windows(windows: dict[tuple[int, int], Rect], size: float) -> dict[tuple[int, int], list[Mark]]:
    """Return cross-hairs for tiles keyed (row, col): two on the middle line of each overlap with a
    neighbour, at the same item coordinates (those of windows) on both tiles."""
    marks: dict[tuple[int, int], list[Mark]] = {key: [] for key in windows}
    for (r, c), window in sorted(windows.items()):
        for other, vertical in (((r, c + 1), True), ((r + 1, c), False)):
            shared = intersect(window, windows[other]) if other in windows else None
            if shared is None:
                continue
            if vertical:
                x = (shared.x0 + shared.x1) / 2
                points = [(x, shared.y0 + f * shared.height) for f in (0.25, 0.75)]
            else:
                y = (shared.y0 + shared.y1) / 2
                points = [(shared.x0 + f * shared.width, y) for f in (0.25, 0.75)]
            for key in ((r, c), other):
                marks[key] += [Mark("align", (x, y, size)) for x, y in points]
    return marks


def mirror_mark(mark: Mark, width: float | None = None, height: float | None = None) -> Mark:
    """Mirror a mark about x = width/2 (when width is given) or y = height/2 (when height is given)."""
    p = list(mark.points)
    for i in range(0, _coordinate_count(mark), 2):
        if width is not None:
            p[i] = width - p[i]
        if height is not None:
            p[i + 1] = height - p[i + 1]
    if mark.kind == "cut":  # keep the rect normalised: x0 < x1, y0 < y1
        p = [min(p[0], p[2]), min(p[1], p[3]), max(p[0], p[2]), max(p[1], p[3])]
    return Mark(mark.kind, tuple(p))


def shift_mark(mark: Mark, dx: float, dy: float) -> Mark:
    p = list(mark.points)
    for i in range(_coordinate_count(mark)):
        p[i] += dx if i % 2 == 0 else dy
    return Mark(mark.kind, tuple(p))


def _coordinate_count(mark: Mark) -> int:
    """How many of a mark's numbers are coordinates (x, y pairs): all but a circle's or cross-hair's sizes."""
    return 2 if mark.kind in ("circle", "align") else len(mark.points)


def mirror_rect(r: Rect, width: float | None = None, height: float | None = None) -> Rect:
    """Mirror a rect like mirror_mark."""
    if width is not None:
        r = Rect(width - r.x1, r.y0, width - r.x0, r.y1)
    if height is not None:
        r = Rect(r.x0, height - r.y1, r.x1, height - r.y0)
    return r


def shift_rect(r: Rect, dx: float, dy: float) -> Rect:
    return Rect(r.x0 + dx, r.y0 + dy, r.x1 + dx, r.y1 + dy)
