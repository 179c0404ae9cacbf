"""Turn a `component:` image reference into the component, card and side it names (rulebook pictures; the checker
holds a rulebook's references to the data without drawing them)."""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote

from ..errors import PnpError
from ..project.expand import expand_pieces
from ..project.model import Card, Component, Game

_REFERENCE = re.compile(r"^component:([a-z0-9-]+)(?:#(\d+)|\?([^/#]*))?(?:/(front|back))?$")


def resolve_reference(src: str, game: Game) -> tuple[Component, Card, str]:
    """The component, card and side a `component:` reference names; PnpError when it names nothing."""
    src = unquote(src.strip())
    match = _REFERENCE.match(src)
    if not match:
        raise PnpError(f"image '{src}' is not a component reference; expected component:ID, component:ID#N, "
                       "component:ID?field=value, optionally ending in /back (pictures come from the game's components)")
    component_id, number, query, side = match.group(1), match.group(2), match.group(3), match.group(4) or "front"
    component = game.component(component_id)
    if component is None:
        known = ", ".join(c.id for c in game.components)
        raise PnpError(f"image '{src}': game '{game.id}' has no component '{component_id}'; expected one of: {known}")
    if side == "back" and not component.back:
        raise PnpError(f"image '{src}': {component_id} has no back template")
    return component, pick_piece(src, component, int(number) if number else None, query), side


def pick_piece(src: str, component: Component, number: int | None, query: str | None) -> Card:
    """The card of the N-th piece, or of the first piece whose fields match the query."""
    pieces = expand_pieces(component)
    if number is not None:
        if not 1 <= number <= len(pieces):
            raise PnpError(f"image '{src}': {component.id} has {len(pieces)} pieces; expected #1 to #{len(pieces)}")
        return pieces[number - 1].card
    wanted = dict(parse_qsl(query or "", keep_blank_values=True))
    for piece in pieces:
        if all(shown_value(piece.card.fields.get(k)) == v for k, v in wanted.items()):
            return piece.card
    raise PnpError(f"image '{src}': no piece of {component.id} has {', '.join(f'{k}={v}' for k, v in wanted.items())}; "
                   f"expected field values as the data writes them")


def shown_value(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
