"""Turn a loaded project into the lines `pnpgen list` shows: its games, components, piece counts and sizes."""
from __future__ import annotations

from collections.abc import Iterator

from .. import units
from .expand import expand_pieces
from .model import Project


def summary_lines(project: Project) -> Iterator[str]:
    for game in project.games:
        players = f"{game.players[0]}–{game.players[-1]} players" if game.players else "players not given"
        yield f"{game.id}: {game.title} ({players})"
        for component in game.components:
            pieces = len(expand_pieces(component))
            w, h = units.to_mm(component.size.width), units.to_mm(component.size.height)
            sides = "front and back" if component.back else "front only"
            yield (f"  {component.id:24} {component.kind:5} {pieces:4} pieces ({len(component.cards)} distinct)  "
                   f"{w:g} × {h:g} mm  {sides}")
