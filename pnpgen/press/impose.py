"""Turn same-sized items (faces with a trim size) into pages of placements and marks: pure geometry."""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from .bleed import clip_trims, outer_bleed
from .marks import (EPS, TICK_ROOM, WHITE_REACH, Mark, Rect, align_windows, crop_trims, intersect, mirror_mark,
                    mirror_rect, outline_trims, shift_mark, shift_rect)
from .geometry import Placed, Placement, page_boxes, turn_over
from .offset import offset_backs
from ..project.model import Size
from ..units import mm

__all__ = ["SheetSpec", "Item", "Rect", "Placement", "Mark", "Page", "Grid", "impose", "fits", "plan_grid"]

LABEL_BAND = mm(4)  # kept free above the bottom margin of tile pages for the page label


@dataclass(frozen=True)
class SheetSpec:
    paper: Size  # portrait as given
    margin: float = mm(6)  # nothing printed closer than this to the page edge
    bleed: float = mm(3)
    gap: float = 0.0  # between neighbouring trims
    crop_marks: bool = True
    cut_lines: bool = False  # draw the trim outline (chips)
    shape: str = "rect"  # rect | round (round: ellipse cut line, no crop marks)
    duplex: str = "long"  # long | short | none (none: no back pages at all)
    back_offset: tuple[float, float] = (0.0, 0.0)  # added to every back placement and mark (not gutterfold)
    gutterfold: bool = False  # fronts and backs on one page, mirrored about a fold line
    tile_overlap: float = mm(10)  # for items larger than the paper


@dataclass(frozen=True, slots=True)  # one for each piece: no __dict__ each
class Item:
    front: str  # face keys (opaque strings)
    back: str | None
    size: Size
    label: str = ""


@dataclass(frozen=True, slots=True)
class Page:
    size: Size
    side: str  # front | back
    placements: tuple[Placement, ...]
    marks: tuple[Mark, ...]
    trim_box: Rect
    bleed_box: Rect
    label: str = ""
    bare_edges: tuple[str, ...] = ()  # sides (top, bottom, left, right) whose cut lines have no crop mark: no room
    notes: tuple[str, ...] = ()  # what the user should know about this page (a back offset into the margin)


@dataclass(frozen=True)
class Grid:
    """How same-sized items sit on one sheet: cols x rows trims, centred; bleed is the outer bleed used on the left
    and right, and on the bottom and top (less than the spec's where the margin leaves less room)."""

    paper: Size  # the orientation used
    cols: int
    rows: int
    x0: float  # bottom-left corner of the bottom-left trim
    y0: float
    bleed: tuple[float, float]

    @property
    def capacity(self) -> int:
        return self.cols * self.rows


def impose(items: Sequence[Item], spec: SheetSpec) -> list[Page]:
    """Lay the items out on pages: grids, gutterfold sheets, or tiles for items larger than the paper."""
    _validate(items, spec)
    if not items:
        return []
    size = items[0].size
    # (front page, its items) made as they are taken: each page's items are let go once its back is made
    if not fits(size, spec):
        fronts = (page for item in items for page in _tile_item(item, spec))
    elif spec.gutterfold and _plan_gutterfold(size, spec) is not None:
        return _impose_gutterfold(items, spec)
    else:
        grid = plan_grid(size, spec)
        fronts = (_fill_grid(items[i:i + grid.capacity], grid, spec) for i in range(0, len(items), grid.capacity))
    if spec.duplex == "none" or all(item.back is None for item in items):
        return [page for page, _ in fronts]
    pages = [page for front in fronts for page in (front[0], _back_page(*front, spec))]
    return offset_backs(pages, spec.back_offset, spec.margin)


def fits(size: Size, spec: SheetSpec) -> bool:
    """Whether an item of this size fits the paper inside its margins, either way round (else it is tiled)."""
    return _fit_grid(size, spec.paper, spec) is not None or _fit_grid(size, _landscape(spec.paper), spec) is not None


def plan_grid(size: Size, spec: SheetSpec) -> Grid:
    """Return the grid holding the most items of this size: portrait as given, else landscape."""
    portrait = _fit_grid(size, spec.paper, spec)
    landscape = _fit_grid(size, _landscape(spec.paper), spec)
    if portrait is None and landscape is None:
        raise ValueError("the item is larger than the printable area of the paper: it is tiled")
    if portrait is None or (landscape is not None and landscape.capacity > portrait.capacity):
        return landscape
    return portrait


def _validate(items: Sequence[Item], spec: SheetSpec) -> None:
    if spec.shape not in ("rect", "round"):
        raise ValueError(f"shape '{spec.shape}': expected rect or round")
    if spec.duplex not in ("long", "short", "none"):
        raise ValueError(f"duplex '{spec.duplex}': expected long, short or none")
    if min(spec.margin, spec.bleed, spec.gap, spec.tile_overlap) < 0:
        raise ValueError("margin, bleed, gap and tile_overlap must not be negative")
    if min(spec.paper.width, spec.paper.height) <= 2 * spec.margin + LABEL_BAND + spec.tile_overlap:
        raise ValueError("the paper is too small for its margins")
    sizes = {item.size for item in items}
    if len(sizes) > 1:
        raise ValueError(f"items of one impose() call must share one size; got {len(sizes)} sizes")
    if any(s.width <= 0 or s.height <= 0 for s in sizes):
        raise ValueError("item sizes must be positive")


def _landscape(paper: Size) -> Size:
    return Size(max(paper.width, paper.height), min(paper.width, paper.height))


def _count(usable: float, length: float, gap: float) -> int:
    return int(math.floor((usable + gap) / (length + gap) + EPS))


def _fit_grid(size: Size, paper: Size, spec: SheetSpec) -> Grid | None:
    usable_w, usable_h = paper.width - 2 * spec.margin, paper.height - 2 * spec.margin
    ticks = 2 * TICK_ROOM if _mark_reserve(spec) else 0.0  # a guide for every cut: at least a tick beyond the grid
    cols, rows = _count(usable_w - ticks, size.width, spec.gap), _count(usable_h - ticks, size.height, spec.gap)
    if cols < 1 or rows < 1:
        return None
    grid_w = cols * size.width + (cols - 1) * spec.gap
    grid_h = rows * size.height + (rows - 1) * spec.gap
    side_x = outer_bleed((usable_w - grid_w) / 2, spec.bleed, _mark_reserve(spec))
    side_y = outer_bleed((usable_h - grid_h) / 2, spec.bleed, _mark_reserve(spec))
    return Grid(paper, cols, rows, (paper.width - grid_w) / 2, (paper.height - grid_h) / 2, (side_x, side_y))


def _cells(grid: Grid, size: Size, spec: SheetSpec) -> list[Rect]:
    """Return the trim of each cell in reading order: top row first, left to right."""
    return [Rect(x, y, x + size.width, y + size.height)
            for r in range(grid.rows) for c in range(grid.cols)
            for x, y in [(grid.x0 + c * (size.width + spec.gap), grid.y0 + (grid.rows - 1 - r) * (size.height + spec.gap))]]


def _mark_reserve(spec: SheetSpec) -> float:
    """The white a crop mark needs beyond the bleed, kept free of bleed at the margin (none without marks)."""
    return WHITE_REACH if spec.crop_marks and spec.shape == "rect" else 0.0


def _mark_trims(trims: list[Rect], clips: list[Rect], limit: Rect, spec: SheetSpec) -> tuple[list[Mark], set[str]]:
    """The page's cutting marks, and the sides where the trims' edge lines have no crop mark."""
    marks, bare = [], set()
    if spec.crop_marks and spec.shape == "rect":
        marks, bare = crop_trims(trims, limit, clips)
    if spec.cut_lines or spec.shape == "round":
        marks += outline_trims(trims, spec.shape)
    return marks, bare


def _fill_grid(items: Sequence[Item], grid: Grid, spec: SheetSpec) -> tuple[Page, list[Item]]:
    slots, marks, bare, boxes = _grid_geometry(grid, items[0].size, spec, len(items))
    placements = Placed(tuple(item.front for item in items), slots)
    return _make_page(grid.paper, "front", placements, marks, bare=bare, boxes=boxes), list(items)


@functools.lru_cache(maxsize=64)
def _grid_geometry(grid: Grid, size: Size, spec: SheetSpec, count: int) -> tuple:
    """(slots, marks, bare sides, (trim box, bleed box)) of a grid page of `count` items: every full page of a
    component has the same, so it is worked out once."""
    trims = _cells(grid, size, spec)[:count]
    limit = Rect(spec.margin, spec.margin, grid.paper.width - spec.margin, grid.paper.height - spec.margin)
    clips = clip_trims(trims, limit, spec.bleed, _mark_reserve(spec))
    marks, bare = _mark_trims(trims, clips, limit, spec)
    slots = tuple((t.x0, t.y0, t.width, t.height, c) for t, c in zip(trims, clips))
    return slots, tuple(marks), frozenset(bare), page_boxes(slots)


def _make_page(paper: Size, side: str, placements: Sequence[Placement], marks: Sequence[Mark],
               label: str = "", fallback: tuple[Rect, Rect] | None = None, bare: Iterable[str] = frozenset(),
               boxes: tuple[Rect, Rect] | None = None) -> Page:
    """boxes: the page's (trim box, bleed box) when already known (see geometry.page_boxes)."""
    boxes = boxes or page_boxes([(p.x, p.y, p.width, p.height, p.clip) for p in placements])
    trim_box, bleed_box = boxes or fallback or (Rect(0, 0, paper.width, paper.height),) * 2
    placements = placements if isinstance(placements, Placed) else tuple(placements)
    return Page(paper, side, placements, tuple(marks), trim_box, bleed_box, label, tuple(sorted(bare)))


def _mirror_axes(paper: Size, duplex: str) -> dict:
    # Duplex flips the sheet about its long (or short) edge; on a landscape page the long edge is
    # the horizontal one, so a long-edge flip mirrors y there.
    flip_x = (duplex == "long") == (paper.height >= paper.width)
    return {"width": paper.width} if flip_x else {"height": paper.height}


def _back_page(front: Page, items: list[Item], spec: SheetSpec) -> Page:
    axes = _mirror_axes(front.size, spec.duplex)
    shown = front.placements
    slots, marks, bare, boxes = turn_over(shown.slots if isinstance(shown, Placed) else tuple(
        (p.x, p.y, p.width, p.height, p.clip) for p in shown), front.marks, front.bare_edges,
        tuple(i.back is not None for i in items), tuple(axes.items()))
    placements = Placed(tuple(item.back for item in items if item.back is not None), slots)
    fallback = tuple(mirror_rect(r, **axes) for r in (front.trim_box, front.bleed_box))
    return _make_page(front.size, "back", placements, marks, f"{front.label} back" if front.label else "", fallback,
                      bare, boxes)


def _plan_gutterfold(size: Size, spec: SheetSpec) -> tuple[Size, Grid, bool] | None:
    """Return (page size, grid on the front half, fold is vertical) holding the most pairs."""
    land, port = _landscape(spec.paper), Size(*sorted((spec.paper.width, spec.paper.height)))
    options = [(port, _fit_grid(size, Size(port.width, port.height / 2), spec), False),
               (land, _fit_grid(size, Size(land.width / 2, land.height), spec), True)]
    return max((o for o in options if o[1] is not None), key=lambda o: (o[1].capacity, o[2]), default=None)


def _impose_gutterfold(items: Sequence[Item], spec: SheetSpec) -> list[Page]:
    paper, grid, vertical = _plan_gutterfold(items[0].size, spec)
    shift_y = 0.0 if vertical else paper.height / 2  # fronts on the left half, or the top half
    axes = {"width": paper.width} if vertical else {"height": paper.height}
    fold = (paper.width / 2, spec.margin, paper.width / 2, paper.height - spec.margin) if vertical \
        else (spec.margin, paper.height / 2, paper.width - spec.margin, paper.height / 2)
    cells = _cells(grid, items[0].size, spec)
    pages = []
    for start in range(0, len(items), grid.capacity):
        chunk = items[start:start + grid.capacity]
        slots, half_marks, bare, _ = _grid_geometry(grid, items[0].size, spec, len(chunk))
        used = [(shift_rect(t, 0, shift_y), shift_rect(slot[4], 0, shift_y)) for t, slot in zip(cells, slots)]
        marks = [shift_mark(m, 0, shift_y) for m in half_marks]
        marks += [mirror_mark(m, **axes) for m in marks] + [Mark("fold", fold)]
        placements = [Placement(i.front, t.x0, t.y0, t.width, t.height, c) for i, (t, c) in zip(chunk, used)]
        for item, (t, c) in zip(chunk, used):
            if item.back is not None:
                mt = mirror_rect(t, **axes)
                placements.append(Placement(item.back, mt.x0, mt.y0, t.width, t.height, mirror_rect(c, **axes)))
        pages.append(_make_page(paper, "front", placements, marks, bare=bare))
    return pages


def _tile_count(extent: float, usable: float, overlap: float) -> int:
    return 1 if extent <= usable + EPS else math.ceil((extent - overlap) / (usable - overlap) - EPS)


def _tile_item(item: Item, spec: SheetSpec) -> list[tuple[Page, list[Item]]]:
    """Split one oversized item into overlapping tiles, one page each, in reading order."""
    b, ov = spec.bleed, spec.tile_overlap
    ext_w, ext_h = item.size.width + 2 * b, item.size.height + 2 * b

    def plan(paper: Size) -> tuple[int, int, Size, Rect]:
        usable = Rect(spec.margin, spec.margin + LABEL_BAND, paper.width - spec.margin, paper.height - spec.margin)
        return _tile_count(ext_w, usable.width, ov), _tile_count(ext_h, usable.height, ov), paper, usable

    cols, rows, paper, usable = min(plan(spec.paper), plan(_landscape(spec.paper)), key=lambda p: p[0] * p[1])
    step_x, step_y = usable.width - ov, usable.height - ov
    # Centre the item on the mosaic: the spare length is shared by the first and last tile.
    start_x = -(usable.width + (cols - 1) * step_x - ext_w) / 2
    start_y = -(usable.height + (rows - 1) * step_y - ext_h) / 2  # measured down from the top
    origins = {(r, c): (usable.x0 - (start_x + c * step_x), usable.y1 - (ext_h - (start_y + r * step_y)))
               for r in range(rows) for c in range(cols)}  # page position of the item's bleed origin
    windows = {key: shift_rect(intersect(usable, Rect(ox, oy, ox + ext_w, oy + ext_h)), -ox, -oy)
               for key, (ox, oy) in origins.items()}  # the part of the item each tile shows
    align = align_windows(windows, min(mm(6), 0.8 * ov))
    pages = []
    for (r, c), (ox, oy) in origins.items():
        trim = Rect(ox + b, oy + b, ox + b + item.size.width, oy + b + item.size.height)
        window = shift_rect(windows[r, c], ox, oy)
        marks, bare = crop_trims([trim], usable, [window]) if spec.crop_marks and spec.shape == "rect" else ([], set())
        marks += [shift_mark(m, ox, oy) for m in align[r, c]]
        label = f"{item.label or item.front} {r * cols + c + 1}/{rows * cols} (row {r + 1}, col {c + 1})"
        placement = Placement(item.front, trim.x0, trim.y0, trim.width, trim.height, window)
        pages.append((_make_page(paper, "front", [placement], marks, label, bare=bare), [item]))
    return pages
