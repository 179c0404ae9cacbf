"""Turn a loaded project into the lines `pnpgen list` shows: its games, components, piece counts and sizes."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import units

if TYPE_CHECKING:  # an up-to-date build counts its pieces with counted() and reads no model
    from .model import Component, Game, Project


def summary_lines(project: Project) -> Iterator[str]:
    from .expand import expand_pieces

    for game in project.games:
        players = f"{game.players[0]}–{game.players[-1]} players" if game.players else "players not given"
        yield f"{game.id}: {game.title} ({players})"
        for component in game.components:
            pieces = len(expand_pieces(component))
            sides = "front and back" if component.back else "front only"
            yield (f"  {component.id:24} {component.kind:5} {counted(pieces, 'piece', 4)} "
                   f"({len(component.cards)} distinct)  {describe_size(game, component)}  {sides}")


def describe_size(game: Game, component: Component) -> str:
    """A piece's trim size; a tuck box's inside (width × height × depth), which its deck decides."""
    if component.kind == "box" and component.box is not None:
        from .box_size import size_deck_box

        deck, box = size_deck_box(game, component)
        inside = " × ".join(f"{units.to_mm(v):.1f}".rstrip("0").rstrip(".") for v in (box.width, box.height, box.depth))
        return f"{inside} mm inside, for {deck.id}"
    return f"{units.to_mm(component.size.width):g} × {units.to_mm(component.size.height):g} mm"


def counted(count: int, noun: str, width: int = 0) -> str:
    """A count and its noun as they read together: "1 piece", "2 pieces" (the number right-aligned in width)."""
    return f"{count:{width}} {noun if count == 1 else noun + 's'}"
