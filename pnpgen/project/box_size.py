"""Turn a tuck box's settings and its deck into the inside of the box: card size with clearance, the deck's depth."""
from __future__ import annotations

from dataclasses import dataclass

from ..units import mm
from .model import Component, Game, Size

MIN_DEPTH = mm(5)  # thinner than this a box cannot be folded by hand
SLEEVE_MARGIN = mm(3)  # a sleeve is this much wider and higher than its card (63 × 88 → 66 × 91)
SLEEVE_THICKNESS = mm(0.1)  # added per card by a sleeve (two layers of a common sleeve)


@dataclass(frozen=True)
class BoxSize:
    """The inside of a tuck box, in points, and the deck it was sized for."""

    width: float
    height: float
    depth: float
    cards: int


def card_depth(thickness: float, sleeves: bool) -> float:
    """How deep one card stacks: its thickness, and its sleeve's."""
    return thickness + (SLEEVE_THICKNESS if sleeves else 0.0)


def size_box(card: Size, cards: int, thickness: float, clearance: float, sleeves: bool) -> BoxSize:
    """Card size + clearance (+ sleeve); depth = cards × thickness (+ sleeve) + clearance, at least MIN_DEPTH."""
    extra = SLEEVE_MARGIN if sleeves else 0.0
    depth = max(MIN_DEPTH, cards * card_depth(thickness, sleeves) + clearance)
    return BoxSize(card.width + extra + clearance, card.height + extra + clearance, depth, cards)


def size_deck_box(game: Game, box: Component) -> tuple[Component, BoxSize]:
    """The deck a tuck box component holds, and the box's inside, sized for every card of it (copies too)."""
    deck = game.component(box.box.deck)
    return deck, size_box(deck.size, sum(card.copies for card in deck.cards), box.box.thickness, box.box.clearance,
                          box.box.sleeves)
