"""Turn validated components into the physical pieces they make: matrices, copies, player-count sets."""
from __future__ import annotations

import functools
import itertools
from typing import Sequence

from .model import Component, Fields, Piece


def expand_matrix(axes: Sequence[tuple[str, Sequence[Fields]]]) -> list[Fields]:
    """The product of the axes, first axis slowest: suit × number gives suit 1's numbers first."""
    return [functools.reduce(Fields.merged, combination, Fields())
            for combination in itertools.product(*(values for _, values in axes))]


def expand_pieces(component: Component) -> list[Piece]:
    """Every physical piece of a component in print order, copies next to each other."""
    copies = ((card, copy) for card in component.cards for copy in range(1, card.copies + 1))
    return [Piece(component, card, index, copy) for index, (card, copy) in enumerate(copies, 1)]
