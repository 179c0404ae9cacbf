"""Turn a page's marks (crop, cut, fold, align, die lines) into PDF path operators."""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

from ..faces.svgpath import trace_ellipse
from .impose import Mark

WHITE, BLACK, GREY = (1, 1, 1), (0, 0, 0), (0.5, 0.5, 0.5)
HALO = ((WHITE, 1.2), (BLACK, 0.25))  # a white halo under the black line: marks show on dark bleed


def marks_operators(marks: list[Mark]) -> str:
    """Every mark of a page, each in its own q … Q; crop marks first, all in two strokes."""
    crops = [m.points for m in marks if m.kind == "crop"]
    parts = []
    if crops:
        lines = " ".join(f"{fp_str(*p[:2])} m {fp_str(*p[2:4])} l" for p in crops)
        parts.append("q " + " ".join(f"{stroke(colour, width)} {lines} S" for colour, width in HALO) + " Q")
    parts += [f"q {mark_operators(m)} Q" for m in marks if m.kind != "crop"]
    return "\n".join(parts)


def mark_operators(mark: Mark) -> str:
    p = mark.points
    if mark.kind == "cut":
        return f"{stroke(GREY, 0.3)} {fp_str(p[0], p[1], p[2] - p[0], p[3] - p[1])} re S"
    if mark.kind == "circle":
        return f"{stroke(GREY, 0.3)} {trace_ellipse(p[0], p[1], p[2], p[3])} S"
    if mark.kind == "align":
        cx, cy, size = p
        cross = (f"{fp_str(cx - size / 2, cy)} m {fp_str(cx + size / 2, cy)} l "
                 f"{fp_str(cx, cy - size / 2)} m {fp_str(cx, cy + size / 2)} l S {trace_ellipse(cx, cy, size / 4, size / 4)} S")
        return " ".join(f"{stroke(colour, width)} {cross}" for colour, width in HALO)
    if mark.kind == "cutline":  # every cut of a page's die-cut pieces, solid, as one stroke
        return f"{stroke(BLACK, 0.3)} {cut_operators(p)} S"
    if mark.kind == "fold":
        return f"{stroke(GREY, 0.3)} [3 2] 0 d {fp_str(*p[:2])} m {fp_str(*p[2:4])} l S"
    raise ValueError(f"unknown mark kind '{mark.kind}'")


def stroke(colour: tuple[float, float, float], width: float) -> str:
    return f"{fp_str(*colour)} RG {fp_str(width)} w"


def cut_operators(points: tuple[float, ...]) -> str:
    """Segments x0 y0 x1 y1 … as path operators, a segment that starts where the last ended continuing it."""
    parts, last = [], None
    for i in range(0, len(points), 4):
        start, end = points[i:i + 2], points[i + 2:i + 4]
        if start != last:
            parts.append(f"{fp_str(*start)} m")
        parts.append(f"{fp_str(*end)} l")
        last = end
    return " ".join(parts)
