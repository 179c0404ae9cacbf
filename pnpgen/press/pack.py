"""Turn die-cut pieces (dielines with their faces) into pages: a grid by bounding box with a gap, or
hexes edge to edge sharing their cuts; bleed follows the cut outline and stops at every neighbour."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ..project.model import Size
from .bleed import describe_reduced_bleed
from .dieline import Dieline
from .impose import Page, Placement, SheetSpec, _cells, _landscape, _mirror_axes, plan_grid
from .marks import Mark, Rect, bound, mirror_mark, mirror_rect, shift_mark, shift_rect
from .shapes import bounds, clip, mirror, offset, trace_rect, translate


@dataclass(frozen=True)
class Cutout:
    """A dieline to print: the face key of each of its panels (None: unprinted), and of their backs."""

    dieline: Dieline
    faces: tuple[str | None, ...]
    backs: tuple[str | None, ...] = ()
    label: str = ""


def pack(cutouts: Sequence[Cutout], spec: SheetSpec, hexes: bool = False) -> list[Page]:
    """Lay the cutouts (all of one size) out on front pages, and mirrored back pages when they have backs."""
    if not cutouts:
        return []
    first = cutouts[0].dieline
    positions = _hex_positions(first, spec) if hexes else _grid_positions(first, spec, len(cutouts))
    grown: dict[int, tuple] = {}  # per dieline: its cuts and each panel grown by the bleed, computed once
    fronts = [_page(cutouts[start:start + len(positions)], positions, spec, grown)
              for start in range(0, len(cutouts), len(positions))]
    if spec.duplex == "none" or not any(any(c.backs) for c in cutouts):
        return [page for page, _ in fronts]
    return [page for front, backs in fronts for page in (front, _back_page(front, backs, spec))]


def _grid_positions(dieline: Dieline, spec: SheetSpec, count: int) -> list[tuple[Size, float, float]]:
    grid = plan_grid(Size(dieline.width, dieline.height), spec)
    if count == 1:  # a lone piece (a box) sits in the middle of its page
        paper = grid.paper
        return [(paper, (paper.width - dieline.width) / 2, (paper.height - dieline.height) / 2)]
    return [(grid.paper, t.x0, t.y0) for t in _cells(grid, Size(dieline.width, dieline.height), spec)[:count]]


def _hex_positions(dieline: Dieline, spec: SheetSpec) -> list[tuple[Size, float, float]]:
    """Hexes edge to edge: flat ones in columns 3/4 of a width apart, every other column half a hex
    lower; pointy ones the same turned a quarter (rows, every other row half a hex across)."""
    pointy = dieline.height > dieline.width
    best: list[tuple[Size, float, float]] = []
    for paper in (spec.paper, _landscape(spec.paper)):
        for room in (spec.bleed, 0.0):  # keep the whole outer bleed inside the margin if there is room
            w, h = (dieline.height, dieline.width) if pointy else (dieline.width, dieline.height)
            across, along = (paper.height, paper.width) if pointy else (paper.width, paper.height)
            usable_a, usable_b = across - 2 * (spec.margin + room), along - 2 * (spec.margin + room)
            cols = 1 + math.floor((usable_a - w) / (0.75 * w) + 1e-9) if usable_a >= w else 0
            rows = math.floor((usable_b - (h / 2 if cols > 1 else 0)) / h + 1e-9)
            if cols < 1 or rows < 1:
                continue
            grid_a, grid_b = w + (cols - 1) * 0.75 * w, rows * h + (h / 2 if cols > 1 else 0)
            a0, b0 = (across - grid_a) / 2, (along - grid_b) / 2
            cells = []
            for c in range(cols):
                for r in range(rows):
                    a, b = a0 + c * 0.75 * w, b0 + grid_b - (r + 1) * h - (h / 2 if c % 2 else 0)
                    cells.append((paper, b, a) if pointy else (paper, a, b))
            cells.sort(key=lambda cell: (-round(cell[2], 3), round(cell[1], 3)))  # reading order
            if len(cells) > len(best):
                best = cells
            break
    if not best:
        raise ValueError("the piece is larger than the printable area of the paper")
    return best


def _page(chunk: Sequence[Cutout], positions, spec: SheetSpec, grown: dict) -> tuple[Page, list[str | None]]:
    """The front page of these cutouts, and the back face of each of its placements."""
    paper = positions[0][0]
    printable = (spec.margin, spec.margin, paper.width - spec.margin, paper.height - spec.margin)
    pieces = [(cutout, x, y) for cutout, (_, x, y) in zip(chunk, positions)]
    panels = [translate(panel.polygon, x, y) for cutout, x, y in pieces for panel in cutout.dieline.panels]
    boxes = [bounds([p]) for p in panels]
    index = 0
    placements, backs, marks, edges = [], [], [], {}
    for cutout, x, y in pieces:
        cuts = [translate(c, x, y) for c in cutout.dieline.cuts]
        reach_grown, panels_grown = _grow(cutout.dieline, spec.bleed, grown)
        reach = [translate(p, x, y) for p in reach_grown]
        if not _within(bounds(reach), printable):  # the margin clips the bleed
            reach = clip(reach, [trace_rect(*printable)])
        for panel, face, back, own_grown in zip(cutout.dieline.panels, cutout.faces,
                                                cutout.backs or (None,) * len(cutout.faces), panels_grown):
            index += 1
            if face is None or not panel.printed:
                continue
            near = [p for j, p in enumerate(panels) if j != index - 1 and _near(boxes[j], boxes[index - 1], spec.bleed)]
            shown = clip([translate(p, x, y) for p in own_grown], reach, near)
            if not shown:
                continue
            x0, y0, x1, y1 = panel.frame
            placements.append(Placement(face, x0 + x, y0 + y, x1 - x0, y1 - y0, Rect(*bounds(shown)),
                                        clip_path=tuple(shown), flip=panel.flip))
            backs.append(back)
        for cut in cuts:
            for edge in zip(cut, cut[1:] + cut[:1]):
                key = tuple(sorted((round(p[0], 3), round(p[1], 3)) for p in edge))
                edges.setdefault(key, edge)  # a cut shared by two neighbours is drawn once
        marks += [Mark("fold", (a + x, b + y, c + x, d + y)) for a, b, c, d in cutout.dieline.folds]
    marks = [Mark("cutline", tuple(v for p, q in edges.values() for v in (*p, *q)))] + marks  # one stroke: every cut
    trims = [Rect(*bounds([translate(c, x, y) for c in cutout.dieline.cuts])) for cutout, x, y in pieces]
    label = chunk[0].label if len(chunk) == 1 else ""
    page = Page(paper, "front", tuple(placements), tuple(marks), bound(trims),
                bound([p.clip for p in placements] + trims), label, notes=note_margin_bleed(trims, printable, spec))
    return page, backs


def note_margin_bleed(trims: list[Rect], printable: tuple, spec: SheetSpec) -> tuple[str, ...]:
    """What the margin left of the outer bleed where it cut into it, as every kind of piece says it."""
    left = min((room for t in trims for room in (t.x0 - printable[0], t.y0 - printable[1], printable[2] - t.x1,
                                                 printable[3] - t.y1) if room < spec.bleed - 1e-6), default=None)
    return () if left is None else (describe_reduced_bleed(left, spec.bleed),)


def _grow(dieline: Dieline, bleed: float, grown: dict) -> tuple:
    """The dieline's cuts grown by the bleed, and each panel grown by it, in the dieline's own coordinates."""
    key = id(dieline)
    if key not in grown:
        grown[key] = (dieline, offset(dieline.cuts, bleed), [offset([p.polygon], bleed) for p in dieline.panels])
    return grown[key][1:]


def _within(box: tuple, limit: tuple) -> bool:
    return box[0] >= limit[0] and box[1] >= limit[1] and box[2] <= limit[2] and box[3] <= limit[3]


def _near(a: tuple, b: tuple, distance: float) -> bool:
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    return ax0 <= bx1 + distance and bx0 <= ax1 + distance and ay0 <= by1 + distance and by0 <= ay1 + distance


def _back_page(front: Page, backs: list[str | None], spec: SheetSpec) -> Page:
    """The front page mirrored as duplex turns the sheet, with each panel's back face in its place."""
    axes = _mirror_axes(front.size, spec.duplex)
    dx, dy = spec.back_offset
    placements = []
    for placement, back in zip(front.placements, backs):
        if back is None:
            continue
        shown = tuple(translate(mirror(p, **axes), dx, dy) for p in placement.clip_path)
        trim = mirror_rect(Rect(placement.x, placement.y, placement.x + placement.width,
                                placement.y + placement.height), **axes)
        placements.append(Placement(back, trim.x0 + dx, trim.y0 + dy, placement.width, placement.height,
                                    Rect(*bounds(shown)), clip_path=shown, flip=placement.flip))
    marks = [shift_mark(mirror_mark(m, **axes), dx, dy) for m in front.marks]
    boxes = [shift_rect(mirror_rect(r, **axes), dx, dy) for r in (front.trim_box, front.bleed_box)]
    return Page(front.size, "back", tuple(placements), tuple(marks), *boxes,
                f"{front.label} back" if front.label else "")
