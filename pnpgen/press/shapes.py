"""Turn piece outlines (hexes, rounded rectangles, SVG paths) into polygons in points, and offset,
clip and mirror them: the pure geometry of cut lines and the bleed that follows them."""
from __future__ import annotations

import math
from typing import Iterable, Sequence

from ..units import mm

Point = tuple[float, float]
Polygon = tuple[Point, ...]

SCALE = 1000.0  # Clipper works in integers: 1/1000 pt is far below what a printer resolves
TOLERANCE = mm(0.02)  # largest distance between a curve and the polyline drawn for it
BLEED_TOLERANCE = mm(0.1)  # the same for the rounded corners of a bleed: it is cut away, only its reach counts


def trace_hex(width: float, height: float, orientation: str) -> Polygon:
    """A regular hexagon filling width × height from (0, 0), y up: flat (a flat edge on top) or pointy."""
    if orientation == "flat":
        return ((0.0, height / 2), (width / 4, 0.0), (3 * width / 4, 0.0), (width, height / 2),
                (3 * width / 4, height), (width / 4, height))
    return ((width / 2, 0.0), (width, height / 4), (width, 3 * height / 4), (width / 2, height),
            (0.0, 3 * height / 4), (0.0, height / 4))


def trace_rounded(width: float, height: float, radius: float) -> Polygon:
    """A rectangle from (0, 0) with corners rounded to radius (clamped to half the shorter side)."""
    r = min(radius, width / 2, height / 2)
    if r <= 0:
        return ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))
    corners = ((width - r, r, -90), (width - r, height - r, 0), (r, height - r, 90), (r, r, 180))
    return tuple(p for cx, cy, start in corners for p in trace_arc(cx, cy, r, math.radians(start), math.pi / 2))


def trace_arc(cx: float, cy: float, r: float, start: float, sweep: float) -> list[Point]:
    """Points along a circular arc (angles in radians, counter-clockwise positive), ends included."""
    steps = _arc_steps(r, abs(sweep))
    return [(cx + r * math.cos(start + sweep * i / steps), cy + r * math.sin(start + sweep * i / steps))
            for i in range(steps + 1)]


def _arc_steps(r: float, sweep: float) -> int:
    # The sagitta of a chord spanning angle a is r(1 - cos(a/2)); keep it under TOLERANCE.
    if r <= TOLERANCE:
        return 1
    step = 2 * math.acos(max(-1.0, 1 - TOLERANCE / r))
    return max(1, math.ceil(sweep / step))


def flatten_path(segments: Sequence[tuple]) -> list[Polygon]:
    """Turn absolute path segments ("M", x, y) ("L", x, y) ("C", x1, y1, x2, y2, x, y) ("Z",) into
    closed polygons, one per subpath; cubic curves become polylines within TOLERANCE."""
    polygons, current = [], []
    for seg in segments:
        if seg[0] in ("M", "Z") and len(current) > 2:  # a subpath ends
            polygons.append(tuple(current))
        if seg[0] == "M":
            current = [(seg[1], seg[2])]
        elif seg[0] == "L":
            current.append((seg[1], seg[2]))
        elif seg[0] == "C":
            current.extend(_cubic_points(current[-1], seg[1:3], seg[3:5], seg[5:7]))
        elif seg[0] == "Z" and current:
            current = [current[0]]
    if len(current) > 2:
        polygons.append(tuple(current))
    return [_drop_repeats(p) for p in polygons]


def _cubic_points(p0: Point, p1: Sequence[float], p2: Sequence[float], p3: Sequence[float]) -> list[Point]:
    # A chord of a curve whose second derivative stays below M strays at most M·h²/8 from it (h = 1/steps);
    # a cubic's second derivative is at most 6 × its larger second difference of control points.
    bend = max(math.dist((0, 0), [a - 2 * b + c for a, b, c in zip(p0, p1, p2)]),
               math.dist((0, 0), [a - 2 * b + c for a, b, c in zip(p1, p2, p3)]))
    steps = max(1, min(64, math.ceil(math.sqrt(6 * bend / (8 * TOLERANCE)))))
    points = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        points.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                            for a, b, c, d in zip(p0, p1, p2, p3)))
    return points


def _drop_repeats(polygon: Polygon) -> Polygon:
    out = [p for i, p in enumerate(polygon) if i == 0 or math.dist(p, polygon[i - 1]) > 1e-9]
    if len(out) > 1 and math.dist(out[0], out[-1]) <= 1e-9:
        out.pop()
    return tuple(out)


def bounds(polygons: Iterable[Sequence[Point]]) -> tuple[float, float, float, float]:
    """Return (x0, y0, x1, y1) around every point of the polygons."""
    xs, ys = zip(*(p for polygon in polygons for p in polygon))
    return min(xs), min(ys), max(xs), max(ys)


def translate(polygon: Sequence[Point], dx: float, dy: float) -> Polygon:
    return tuple((x + dx, y + dy) for x, y in polygon)


def mirror(polygon: Sequence[Point], width: float | None = None, height: float | None = None) -> Polygon:
    """Mirror about x = width/2 and/or y = height/2, keeping the winding direction."""
    fx = (lambda x: width - x) if width is not None else (lambda x: x)
    fy = (lambda y: height - y) if height is not None else (lambda y: y)
    mirrored = tuple((fx(x), fy(y)) for x, y in polygon)
    return mirrored[::-1] if (width is None) != (height is None) else mirrored


def offset(polygons: Sequence[Sequence[Point]], distance: float) -> list[Polygon]:
    """Grow the area the polygons cover by distance on every side, corners rounded (the bleed of a die cut)."""
    if distance <= 0:
        return [tuple(p) for p in polygons]
    import pyclipper  # imported here, as in clip(): only a die-cut outline needs it

    tool = pyclipper.PyclipperOffset(2.0, SCALE * BLEED_TOLERANCE)
    tool.AddPaths([_to_clipper(p) for p in polygons], pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
    grown = pyclipper.CleanPolygons(tool.Execute(distance * SCALE), SCALE * BLEED_TOLERANCE)
    return [_from_clipper(p) for p in grown if len(p) > 2]


def clip(subject: Sequence[Sequence[Point]], within: Sequence[Sequence[Point]],
         outside: Sequence[Sequence[Point]] = ()) -> list[Polygon]:
    """Return the area of subject that lies within `within` and outside every polygon of `outside`."""
    import pyclipper

    tool = pyclipper.Pyclipper()
    tool.AddPaths([_to_clipper(p) for p in subject], pyclipper.PT_SUBJECT, True)
    tool.AddPaths([_to_clipper(p) for p in within], pyclipper.PT_CLIP, True)
    kept = tool.Execute(pyclipper.CT_INTERSECTION, pyclipper.PFT_NONZERO, pyclipper.PFT_NONZERO)
    if outside and kept:
        tool = pyclipper.Pyclipper()
        tool.AddPaths(kept, pyclipper.PT_SUBJECT, True)
        tool.AddPaths([_to_clipper(p) for p in outside], pyclipper.PT_CLIP, True)
        kept = tool.Execute(pyclipper.CT_DIFFERENCE, pyclipper.PFT_NONZERO, pyclipper.PFT_NONZERO)
    return [_from_clipper(p) for p in kept]


def _to_clipper(polygon: Sequence[Point]) -> list[tuple[int, int]]:
    return [(round(x * SCALE), round(y * SCALE)) for x, y in polygon]


def _from_clipper(path) -> Polygon:
    return tuple((x / SCALE, y / SCALE) for x, y in path)


def trace_rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
