"""Turn a tuck box, a component of standees or of shaped pieces into rendered faces and packed pages."""
from __future__ import annotations

import dataclasses

from .. import units
from ..errors import PnpError
from ..faces.face import Face, keep_unconverted
from ..faces.render import Renderer
from ..project.expand import expand_pieces
from ..project.model import Component, Game, Size
from ..project.validate_pieces import BOX_FRONT
from ..project.box_size import size_box, size_deck_box
from .dieline import Dieline, draw_piece, draw_standee, draw_tuck_box
from .impose import Page, SheetSpec, fits
from .pack import Cutout, pack

BOX_TEMPLATES = {"side": "pnpgen/box-side.svg.j2", "end": "pnpgen/box-end.svg.j2",
                 "tuck": "pnpgen/box-flap.svg.j2", "dust": "pnpgen/box-flap.svg.j2"}


def is_cutout(component: Component) -> bool:
    """Whether the component is cut along its own dieline rather than imposed as a grid of rectangles."""
    return component.kind in ("box", "standee") or component.outline is not None


def lay_out_cutouts(game: Game, component: Component, spec: SheetSpec, renderer: Renderer, report,
                    paper: str) -> tuple[list[Page], dict[str, Face]]:
    """Render every panel's face once and pack the component's dielines on pages (paper names the paper)."""
    faces: dict[str, Face] = {}

    def render(variant: Component, card, side: str) -> str | None:
        face = renderer.render(game, variant, card, side)
        keep_unconverted(faces, [face])
        return face.key if face is not None else None

    if component.kind == "box":
        cutouts = [cut_box(game, component, spec, render, paper)]
    else:
        cutouts = []
        size = component.size
        if component.kind == "standee":  # one dieline for all: packing reuses what it computes for one
            flips = {flip: draw_standee(size.width, size.height, component.standee.base, component.standee.base_depth, flip)
                     for flip in ("y", "xy")}
        else:
            shaped = draw_piece(component.outline, size, component.shape)
        for p in expand_pieces(component):
            front, back = render(component, p.card, "front"), render(component, p.card, "back")
            label = f"{component.id} #{p.index}"
            if component.kind == "standee":
                dieline = flips["xy" if back else "y"]
                cutouts.append(Cutout(dieline, (front, back or front) + (None,) * (len(dieline.panels) - 2), (), label))
            else:
                cutouts.append(Cutout(shaped, (front,), (back,) if back else (), label))
        if cutouts:
            refuse_too_big(component, cutouts[0].dieline, spec, paper)
    report.pieces += len(cutouts)
    if spec.gutterfold:
        report.notes.append(f"{game.id}/{component.id}: die-cut pieces are not folded in the gutter; their backs are "
                            f"printed on duplex back pages ({spec.duplex} edge)")
    try:
        pages = pack(cutouts, spec, hexes=component.shape == "hex" and spec.gap == 0)  # a gap: by bounding box
    except ValueError as err:
        raise PnpError(f"component '{component.id}': {err}", component.location) from None
    return [dataclasses.replace(page, notes=tuple(f"on {paper.upper()} {note}" for note in page.notes))
            if page.notes else page for page in pages], faces


def cut_box(game: Game, component: Component, spec: SheetSpec, render, paper: str) -> Cutout:
    """Render each printed panel of the box with its template: the card fields say which panel it is."""
    deck, inside = size_deck_box(game, component)  # sized from the deck's card size and count
    dieline = draw_tuck_box(inside)
    refuse_too_big(component, dieline, spec, paper, deck)
    templates = {"back": deck.back or BOX_FRONT, **BOX_TEMPLATES, **dict(component.box.panels),
                 "front": component.front}
    card = component.cards[0]
    keys = []
    for panel in dieline.panels:
        if not panel.printed:
            keys.append(None)
            continue
        x0, y0, x1, y1 = panel.frame
        variant = dataclasses.replace(component, name=deck.name, size=Size(x1 - x0, y1 - y0),
                                      front=templates[panel.role], back=None)
        fields = card.fields.merged({"panel": panel.role})
        keys.append(render(variant, dataclasses.replace(card, fields=fields), "front"))
    return Cutout(dieline, tuple(keys), (), f"{component.id}: box for {deck.id}")


def refuse_too_big(component: Component, dieline: Dieline, spec: SheetSpec, paper: str,
                   deck: Component | None = None) -> None:
    """A piece larger than the paper: say so, and for a box name the largest deck of these cards that fits."""
    if fits(Size(dieline.width, dieline.height), spec):
        return
    unfolds = (f"unfolds to {units.to_mm(dieline.width):.1f} × {units.to_mm(dieline.height):.1f} mm, larger than "
               f"{paper.upper()} inside its 6 mm margins")
    if deck is None:
        raise PnpError(f"component '{component.id}' {unfolds}; expected a smaller size or a larger paper",
                       component.location)
    box = component.box
    count = sum(card.copies for card in deck.cards)
    low, high = -1, count  # fits(low) holds (-1: none tried), fits(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        unfolded = draw_tuck_box(size_box(deck.size, middle, box.thickness, box.clearance, box.sleeves))
        low, high = (middle, high) if fits(Size(unfolded.width, unfolded.height), spec) else (low, middle)
    largest = (f"the largest deck of these cards that fits is {low} cards" if low >= 0 else
               "no deck of cards this size fits")
    raise PnpError(f"box '{component.id}' for deck '{deck.id}' ({count} cards) {unfolds}; {largest}; "
                   "expected a smaller deck, thinner cards, or a larger paper (layout: {paper: a3})",
                   component.location)
