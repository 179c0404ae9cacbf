"""Turn validated components into the physical pieces they make: matrices, copies, player-count sets."""
from __future__ import annotations

import itertools
from typing import Sequence

from .model import Component, Fields, Piece


def expand_matrix(axes: Sequence[tuple[str, Sequence[Fields]]]) -> list[Fields]:
    """The product of the axes, first axis slowest: suit × number gives suit 1's numbers first."""
    rows = []
    for combination in itertools.product(*(values for _, values in axes)):
        merged = Fields()
        for fields in combination:
            merged = merged.merged(fields)
        rows.append(merged)
    return rows


def expand_pieces(component: Component) -> list[Piece]:
    """Every physical piece of a component in print order, copies next to each other."""
    pieces = []
    index = 0
    for card in component.cards:
        for copy in range(1, card.copies + 1):
            index += 1
            pieces.append(Piece(component, card, index, copy))
    return pieces
