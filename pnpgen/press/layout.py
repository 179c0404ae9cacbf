"""Turn a component into its sheet spec and imposed pages: every piece's faces rendered once, placed on paper.

`options` is the build's Options (paper, duplex, back_offset, gutterfold); `report` counts the pieces."""
from __future__ import annotations

from .. import units
from ..errors import PnpError
from ..faces.face import keep_unconverted
from ..faces.render import Renderer
from ..project.model import Component, Game, Size
from .bleed import describe_reduced_bleed
from .cutouts import is_cutout, lay_out_cutouts
from .impose import Page, SheetSpec, fits, impose, plan_grid
from .pieces import Pieces


# A pinned paper of the other family of sizes is read as its counterpart on the build's paper, so that a
# Letter build prints only US sizes and an A4 build only ISO ones.
COUNTERPART = {"a4": "letter", "a5": "letter", "a3": "tabloid", "letter": "a4", "tabloid": "a3"}
US_PAPERS = frozenset({"letter", "tabloid"})


def component_paper(component: Component, options) -> str:
    """The paper a component is printed on: its pinned paper in the build's family of sizes, else the build's."""
    pinned = component.layout.paper
    if pinned is None:
        return options.paper
    return pinned if (pinned in US_PAPERS) == (options.paper in US_PAPERS) else COUNTERPART[pinned]


def sheet_spec(component: Component, options) -> SheetSpec:
    paper_name = component_paper(component, options)
    width, height = units.PAPER_SIZES_MM[paper_name]
    has_back = component.back is not None
    return SheetSpec(
        paper=Size(units.mm(width), units.mm(height)),
        bleed=component.bleed,
        gap=component.layout.gap,
        crop_marks=component.layout.crop_marks,
        cut_lines=component.layout.cut_lines,
        shape=component.shape if component.shape in ("rect", "round") else "rect",
        duplex=(options.duplex or "long") if has_back else "none",
        back_offset=options.back_offset,
        gutterfold=options.gutterfold and has_back,
    )


def lay_out(game: Game, component: Component, options, renderer: Renderer, report):
    """Render every piece's faces (each distinct card once) and impose them on pages: (pages, the faces still
    to convert, items, spec)."""
    spec = sheet_spec(component, options)
    if is_cutout(component):
        pages, faces = lay_out_cutouts(game, component, spec, renderer, report, component_paper(component, options))
        return pages, faces, [], spec
    refuse_oversize(component, spec, options)
    faces = {}
    # only a tile shows its piece's label (maps and sheets are the kinds tiled): a deck makes none a card
    items = Pieces(component.size, component.id if component.kind in ("map", "sheet") else None)
    for index, card in enumerate(component.cards):  # the pieces in print order: each card's copies together
        if card.copies < 1:
            continue
        # Rendered ahead, as most are: its face keys were settled then, and no Face need be made.
        keys = renderer.face_keys.find_card(component, index, (bool(component.front), bool(component.back)))
        if keys is None:  # copies share their card's faces: rendered and hashed once
            sides = [renderer.render(game, component, card, side, index) for side in ("front", "back")]
            keep_unconverted(faces, sides)
            keys = tuple(face.key if face is not None else None for face in sides)
        items.add(*keys, card.copies)
    report.pieces += len(items)
    try:
        pages = impose(items, spec)
    except ValueError as err:
        raise PnpError(f"component '{component.id}': {err}", component.location) from None
    return pages, faces, items, spec


def refuse_oversize(component: Component, spec: SheetSpec, options) -> None:
    """Maps and sheets larger than the paper are tiled; a card or chip that large is a mistake."""
    if component.kind in ("map", "sheet") or fits(component.size, spec):
        return
    w, h = units.to_mm(component.size.width), units.to_mm(component.size.height)
    paper = component_paper(component, options)
    raise PnpError(f"component '{component.id}' ({w:g} × {h:g} mm) does not fit on {paper.upper()} with 6 mm margins; "
                   "expected a smaller size, a larger paper, or kind: map to tile it across sheets", component.location)


def note_reduced_bleed(game: Game, component: Component, options) -> list[str]:
    """Tell the user when the 6 mm margin (and the white crop marks need) left less outer bleed than asked."""
    if is_cutout(component):  # die-cut pieces keep their bleed inside the margin where there is room
        return []
    try:
        smallest = min(plan_grid(component.size, sheet_spec(component, options)).bleed)
    except ValueError:  # tiled maps keep their full bleed
        return []
    if component.bleed <= 0 or smallest >= component.bleed - 0.01:
        return []
    paper = component_paper(component, options).upper()
    marks = component.layout.crop_marks and component.shape == "rect"
    return [f"{game.id}/{component.id}: on {paper} {describe_reduced_bleed(smallest, component.bleed, marks)}"]


def note_bare_edges(game: Game, component: Component, pages: list[Page], options) -> list[str]:
    """Name the sides of the sheet where the cut lines have no crop mark (no room before the margin)."""
    sides = sorted({side for page in pages if page.side == "front" for side in page.bare_edges},
                   key=("top", "bottom", "left", "right").index)
    if not sides:
        return []
    paper = component_paper(component, options).upper()
    return [f"{game.id}/{component.id}: on {paper} the cut lines have no crop marks at the {' and '.join(sides)} "
            "of the sheet (less than bleed + 3 mm between the trims and the 6 mm margin); cut along the printed "
            "edges there"]


def note_pinned_paper(game: Game, component: Component, pages: list[Page], options) -> list[str]:
    """Say what became of a component pinned to a paper of the other family of sizes: fits or tiles."""
    pinned, used = component.layout.paper, component_paper(component, options)
    if pinned is None or pinned == used:
        return []
    tiles = max((int(page.label.rsplit("/", 1)[1].split()[0]) for page in pages if "/" in page.label), default=1)
    fate = "it fits on one sheet" if tiles == 1 else f"it is tiled across {tiles} sheets with alignment marks"
    return [f"{game.id}/{component.id}: pinned to {pinned.upper()} (layout: paper), printed on {used.upper()} in this "
            f"{options.paper.upper()} build: {fate}"]


def refuse_conflicting_options(options) -> None:
    """Options that cannot both apply: say so rather than ignore one."""
    if options.gutterfold and any(abs(v) > 1e-9 for v in options.back_offset):
        x, y = (units.to_mm(v) for v in options.back_offset)
        raise PnpError(f"--back-offset {x:g},{y:g} does not apply with --gutterfold: fronts and backs print on one side "
                       "of the sheet and are folded together, so there is no duplex shift to correct; expected one of "
                       "the two")
