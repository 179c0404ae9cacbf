"""Turn `box:` and `standee:` mappings into Box and Standee settings, and tie each box to its deck."""
from __future__ import annotations

import dataclasses
from typing import Callable

from .. import units
from ..errors import Collector
from .load import LMap
from .model import Box, Component, Standee
from .schema import check_keys
from .validate_values import describe, read_value

PANELS = ("front", "back", "side", "end", "flap")  # the faces a tuck box's panels are drawn from
BOX_FRONT = "pnpgen/box-front.svg.j2"  # shipped with pnpgen: a deck without a back gets its title on the box
DEFAULT_STANDEE = Standee("fold", units.mm(20))


def read_box(raw: LMap, thickness: float, problems: Collector, read_template: Callable) -> Box | None:
    """The box settings of a component of kind box; its panels' templates as (panel, template)."""
    value = raw.get("box")
    if not isinstance(value, LMap):
        found = "nothing" if value is None else describe(value)
        problems.add(raw.where("box") if "box" in raw else raw.loc,
                     f"a box needs 'box: {{deck: ID}}' naming the deck it holds; found {found}")
        return None
    check_keys(value, "box", problems)
    deck = read_value(value, "deck", "id", problems)
    panels = tuple((panel, template) for panel in PANELS if panel in value
                   for template in [read_template(value, panel)] if template)
    return Box(
        deck=deck or "",
        clearance=read_value(value, "clearance", "length", problems, default=units.mm(1)),
        thickness=read_value(value, "thickness", "length", problems, default=thickness),
        sleeves=bool(read_value(value, "sleeves", "bool", problems, default=False)),
        panels=panels,
    )


def read_standee(raw: LMap, problems: Collector) -> Standee:
    value = raw.get("standee")
    if value is None:
        return DEFAULT_STANDEE
    if not isinstance(value, LMap):
        problems.add(raw.where("standee"), f"'standee' must be a mapping such as {{base: fold}}; found {describe(value)}")
        return DEFAULT_STANDEE
    check_keys(value, "standee", problems)
    return Standee(read_value(value, "base", "choice:fold,slot,none", problems, default="fold"),
                   read_value(value, "base_depth", "length", problems, default=DEFAULT_STANDEE.base_depth))


def tie_boxes(components: list[Component], problems: Collector) -> list[Component]:
    """Give each box its deck's card size and the fields of the deck's first card under its own."""
    by_id = {c.id: c for c in components}
    tied = []
    for component in components:
        if component.box is None:
            tied.append(component)
            continue
        deck = by_id.get(component.box.deck)
        decks = [c.id for c in components if c.kind in ("card", "chip")]
        if deck is None or deck.kind not in ("card", "chip"):
            what = "names no component of this game" if deck is None else f"is a {deck.kind}, not a deck"
            problems.add(component.location, f"box '{component.id}': deck '{component.box.deck}' {what}; "
                                             f"expected one of: {', '.join(decks) or 'no decks in this game'}")
            tied.append(component)
            continue
        own = component.cards[0].fields.merged({"deck_name": deck.name, "deck_cards": sum(c.copies for c in deck.cards)})
        fields = deck.cards[0].fields.merged(own) if deck.cards else own
        card = dataclasses.replace(component.cards[0], fields=fields)
        front = component.front or dict(component.box.panels).get("front") or deck.back or BOX_FRONT
        tied.append(dataclasses.replace(component, size=deck.size, cards=(card,), front=front))
    return tied
