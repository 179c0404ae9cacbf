"""Turn the text printed on cards (limits such as 「１手番に１回」, map captions, skill texts) into findings:
each number tied to a component or figure is held to the data, like the rulebook's prose."""
from __future__ import annotations

import re

from ..project.model import Game
from .findings import Finding
from .tables import check_prose
from .vocabulary import Noun


def check_card_text(game: Game, nouns: list[Noun], strict: bool = False) -> list[Finding]:
    findings = []
    seen: set[tuple[str, str]] = set()
    for component in game.components:
        places = dict(component.field_locations)
        for card in component.cards:
            for name, text in texts(card.fields):
                top = name.split(".")[0]
                if top == "figures" or top in card.tbd or (top, text) in seen:
                    continue
                seen.add((top, text))
                where = places.get(top, card.location)
                findings.extend(check_prose(game, text, lambda offset, where=where: where, nouns, strict,
                                            f"card text {component.id}.{name}"))
    return findings


def texts(fields, prefix: str = ""):
    """(field path, text) for every string in a card's fields, nested lists and mappings included."""
    items = fields.items() if hasattr(fields, "items") else enumerate(fields)
    for key, value in items:
        name = f"{prefix}{key}"
        if isinstance(value, str):
            if not re.fullmatch(r"#[0-9a-fA-F]{3,8}", value) and any(c.isdigit() or c in "一二三四五六七八九十" for c in value):
                yield name, value
        elif isinstance(value, (tuple, list)) or hasattr(value, "items"):
            yield from texts(value, name + ".")
