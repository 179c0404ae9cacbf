"""Turn a game's tuck boxes into findings that state each box's size and the deck depth it comes from."""
from __future__ import annotations

from .. import units
from ..project.box_size import card_depth, size_box
from ..project.model import Game
from .findings import PASS, Finding


def state_boxes(game: Game) -> list[Finding]:
    """One finding per box: the arithmetic behind its depth, so a designer can check it against the deck."""
    findings = []
    for component in game.components:
        box = component.box
        deck = game.component(box.deck) if box else None
        if deck is None:
            continue
        count = sum(card.copies for card in deck.cards)
        size = size_box(deck.size, count, box.thickness, box.clearance, box.sleeves)
        per_card = card_depth(box.thickness, box.sleeves)
        sleeved = " sleeved" if box.sleeves else ""
        stack = count * per_card + box.clearance
        depth = f"{units.to_mm(size.depth):.1f} mm deep"
        if size.depth > stack + 1e-6:
            depth = f"{units.to_mm(stack):.1f} mm, so {depth} (the least a box folds to)"
        text = (f"box {component.id} holds {deck.id}: {count}{sleeved} cards × {units.to_mm(per_card):.2f} mm "
                f"+ {units.to_mm(box.clearance):g} mm = {depth}; inside "
                f"{units.to_mm(size.width):.1f} × {units.to_mm(size.height):.1f} × {units.to_mm(size.depth):.1f} mm")
        findings.append(Finding(PASS, game.id, text, component.location))
    return findings
