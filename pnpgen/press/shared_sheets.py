"""Turn the laid-out components of a game into print-and-play sheets where small components share sheets."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Sequence

from ..project.model import Game
from .impose import Item, Page, SheetSpec, _mirror_axes, fits, impose, plan_grid
from .geometry import page_boxes
from .marks import Rect, bound, shift_mark, shift_rect
from .placing import printed_boxes
from .sheet_order import order_for_duplex
from ..units import mm

GAP = mm(2)  # between the printed extents (bleed and marks) of blocks stacked on one sheet
MARGIN = mm(6)


@dataclass(frozen=True)
class Laid:
    """One component as laid out on its own: its id, the pieces of its part-filled last sheet (laid_out), sheet
    spec and pages (fronts, each then its back)."""

    name: str
    items: tuple[Item, ...]
    spec: SheetSpec
    pages: tuple[Page, ...]


@dataclass
class Block:
    """A front page (and its back page) holding pieces of one or more components: how many of each."""

    front: Page
    back: Page | None
    counts: dict[str, int]
    duplex: str


def laid_out(name: str, items: Sequence[Item], spec: SheetSpec, pages: Sequence[Page]) -> Laid:
    """The component as share_sheets needs it: of its pieces only those on a part-filled last sheet (the only
    ones ever imposed again), so that a deck's pieces are not all held until its PDFs are written."""
    rest = _rest(items, spec)
    return Laid(name, tuple(items[len(items) - rest:]) if rest else (), spec, tuple(pages))


def share_sheets(laid: Sequence[Laid]) -> tuple[list[Page], list[tuple[int, dict[str, int]]]]:
    """The pages of the print-and-play PDF in the order that prints double-sided, and for each shared sheet its
    number (counting fronts from 1) and the pieces of each component on it.

    Components' part-filled last sheets are imposed together where they share size and spec (one grid, each
    component whole), and the rest stacked on shared sheets as long as it fits; full sheets, tiles and
    gutterfold sheets stay as they were."""
    split = [(entry, _leftover(entry)) for entry in laid]
    small = [rest for _, rest in split if rest is not None]
    if len(small) < 2:
        return order_for_duplex([page for entry in laid for page in entry.pages]), []
    blocks = [block for group in _same_grids(small) for block in _impose_together(group)]
    sheets: list[list[Block]] = []
    for block in sorted(blocks, key=lambda b: -_extent(b.front).height):  # first fit, tallest first
        home = next((sheet for sheet in sheets if _fits(sheet + [block])), None)
        if home is None:
            sheets.append([block])
        else:
            home.append(block)
    merged = [_stack(sheet) for sheet in sheets]
    pages: list[Page] = []
    for entry, rest in split:
        pages += entry.pages[:len(entry.pages) - len(rest.pages)] if rest is not None else entry.pages
    pages += [page for block in merged for page in (block.front, block.back) if page is not None]
    pages = order_for_duplex(pages)
    fronts = [page for page in pages if page.side == "front"]
    return pages, [(next(i for i, page in enumerate(fronts, 1) if page is block.front), block.counts)
                   for block in merged if len(block.counts) > 1]


def _leftover(entry: Laid) -> Laid | None:
    """The component's part-filled last sheet, as a component of its own: its pieces and its pages (front and
    back); None when every sheet is full, or for tiles and gutterfold sheets."""
    fronts = [index for index, page in enumerate(entry.pages) if page.side == "front"]
    count = _rest(entry.items, entry.spec)
    last = entry.pages[fronts[-1]] if fronts else None
    if last is None or not count or last.label or len(last.placements) != count:  # tiles carry labels
        return None
    return Laid(entry.name, entry.items[-count:], entry.spec, entry.pages[fronts[-1]:])


def _rest(items: Sequence[Item], spec: SheetSpec) -> int:
    """How many of the items a part-filled last grid sheet holds: 0 when every sheet is full, for tiles and for
    gutterfold sheets."""
    if not items or spec.gutterfold or not fits(items[0].size, spec):
        return 0
    return len(items) % plan_grid(items[0].size, spec).capacity


def _same_grids(small: Sequence[Laid]) -> list[list[Laid]]:
    """Components of one size and spec packed whole into as few grids as hold them (first fit, largest first)."""
    groups: dict[tuple, list[Laid]] = {}
    for entry in small:
        groups.setdefault((entry.items[0].size, entry.spec), []).append(entry)
    packed: list[list[Laid]] = []
    for group in groups.values():
        capacity = plan_grid(group[0].items[0].size, group[0].spec).capacity
        bins: list[list[Laid]] = []
        for entry in sorted(group, key=lambda e: -len(e.items)):
            home = next((b for b in bins if sum(len(e.items) for e in b) + len(entry.items) <= capacity), None)
            if home is None:
                bins.append([entry])
            else:
                home.append(entry)
        packed += [sorted(b, key=group.index) for b in bins]
    return packed


def _impose_together(group: list[Laid]) -> list[Block]:
    """One grid for components of one size and spec: their pieces follow each other, cell by cell."""
    spec = group[0].spec
    items = [item for entry in group for item in entry.items]
    owners = [entry.name for entry in group for _ in entry.items]
    pages = impose(items, spec) if len(group) > 1 else list(group[0].pages)
    blocks, taken = [], 0
    for index, page in enumerate(pages):
        if page.side != "front":
            continue
        back = pages[index + 1] if index + 1 < len(pages) and pages[index + 1].side == "back" else None
        blocks.append(Block(page, back, dict(Counter(owners[taken:taken + len(page.placements)])), spec.duplex))
        taken += len(page.placements)
    return blocks


def _extent(page: Page) -> Rect:
    """Everything printed on the page: clips and marks."""
    return bound(printed_boxes(page)) or Rect(0, 0, 0, 0)


def _fits(blocks: list[Block]) -> bool:
    size = blocks[0].front.size
    if any(b.front.size != size for b in blocks):
        return False
    height = sum(_extent(b.front).height for b in blocks) + GAP * (len(blocks) - 1)
    return height <= size.height - 2 * MARGIN


def _shift(page: Page, dy: float) -> Page:
    placements = tuple(replace(p, y=p.y + dy, clip=shift_rect(p.clip, 0, dy)) for p in page.placements)
    return replace(page, placements=placements, marks=tuple(shift_mark(m, 0, dy) for m in page.marks),
                   trim_box=shift_rect(page.trim_box, 0, dy), bleed_box=shift_rect(page.bleed_box, 0, dy))


def _join(pages: list[Page], side: str) -> Page:
    placements = tuple(p for page in pages for p in page.placements)
    boxes = page_boxes([(p.x, p.y, p.width, p.height, p.clip) for p in placements])
    return Page(pages[0].size, side, placements, tuple(m for page in pages for m in page.marks), *boxes, "",
                tuple(sorted({e for page in pages for e in page.bare_edges})),
                tuple(dict.fromkeys(n for page in pages for n in page.notes)))


def _stack(blocks: list[Block]) -> Block:
    """The blocks one under the other, centred on the sheet as a whole; backs follow their fronts' moves."""
    if len(blocks) == 1:
        return blocks[0]
    size = blocks[0].front.size
    extents = [_extent(b.front) for b in blocks]
    total = sum(e.height for e in extents) + GAP * (len(blocks) - 1)
    top = size.height - (size.height - total) / 2
    fronts, backs, counts = [], [], Counter()
    for block, extent in zip(blocks, extents):
        dy = top - extent.y1
        fronts.append(_shift(block.front, dy))
        if block.back is not None:
            mirrors_x = "width" in _mirror_axes(size, block.duplex)  # mirrored across: up as its front
            backs.append(_shift(block.back, dy if mirrors_x else -dy))
        counts.update(block.counts)
        top -= extent.height + GAP
    return Block(_join(fronts, "front"), _join(backs, "back") if backs else None, dict(counts), blocks[0].duplex)


def note_shared_sheets(game: Game, pages: list[Page], shared: list[tuple[int, dict[str, int]]]) -> list[str]:
    """Which sheets of the print-and-play PDF small components share, with the pieces of each on it."""
    notes = []
    for number, counts in shared:
        pieces = ", ".join(f"{name} × {count}" for name, count in counts.items())
        notes.append(f"{game.id}-print-and-play.pdf: sheet {number} is shared by {pieces} "
                     f"({sum(counts.values())} pieces); `--sheet-per-component` keeps them apart")
    return notes
