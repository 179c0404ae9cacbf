"""Turn the text cards print from their data (limits such as 「１手番に１回」, map captions, skill texts) into
findings: each number tied to a component or figure is held to the data."""
from __future__ import annotations

import re

from ..project.model import Game
from .findings import Finding
from .phrasing import Phrasing
from .prose import SentenceMemo
from .tables import check_prose
from .templatetext import PRINTED
from .vocabulary import Noun
from .wordrules import check_text, find_rules

_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}")
KANJI_DIGITS = frozenset("一二三四五六七八九十")


def check_card_text(game: Game, nouns: list[Noun], strict: bool = False,
                    memo: SentenceMemo | None = None) -> list[Finding]:
    """Numbers in the printed texts held to the data, and the rules they state in words to the document's word.
    memo: what reading the game's sentences gave, kept by a process that checks the game again (pnpgen watch)."""
    findings = []
    read = memo or SentenceMemo()  # cards repeat their sentences: each is read once
    rules = find_rules(game)
    printed = lambda value: states_number(value) or bool(rules) and PRINTED.search(value)  # noqa: E731
    for component, card, name, text, where in find_card_texts(game, printed):
        origin = f"card text {component.id}.{name}"
        if states_number(text):
            findings.extend(check_prose(game, text, lambda offset, where=where: where, nouns, strict, origin,
                                        component.name, memo=read))
        findings.extend(check_text(game, text, lambda offset, where=where: where, rules, origin))
    if memo is not None:
        memo.forget_unseen()  # what a kept memo holds is what the game's texts read now, no more
    return findings


def check_edition_card_text(game: Game, nouns: list[Noun], words: Phrasing, strict: bool = False) -> list[Finding]:
    """Numbers in an edition's printed texts (its language's words for them) held to the data, at the cell of the
    translation when it has one of its own (effect@en), else at the field."""
    findings = []
    read = SentenceMemo()  # as in check_card_text
    for component, card, name, text, place in find_card_texts(game, lambda value: bool(words.find_numbers(value))):
        cells, top = dict(card.cells), name.split(".")[0]
        where = cells.get(f"{top}@{words.lang}") or cells.get(top) or place
        findings.extend(check_prose(game, text, lambda offset, where=where: where, nouns, strict,
                                    f"card text ({words.lang}) {component.id}.{name}", component.name, words, read))
    return findings


def find_card_texts(game: Game, states):
    """(component, card, field path, text, where its top field is written) of each card text `states` says may state
    a figure, once per top field and text: no rule figures, no placeholder."""
    seen: set[tuple[str, str]] = set()
    for component in game.components:
        places = dict(component.field_locations)
        for card in component.cards:
            for name, text in find_texts(card.fields, states):
                top = name.split(".")[0]
                if top == "figures" or top in card.tbd or (top, text) in seen:
                    continue
                seen.add((top, text))
                yield component, card, name, text, places.get(top, card.location)


def find_texts(fields, states, prefix: str = ""):
    """(field path, text) for every string in a card's fields that `states` says may state a figure (a colour never),
    nested lists and mappings included."""
    items = fields.items() if hasattr(fields, "items") else enumerate(fields)
    for key, value in items:
        name = f"{prefix}{key}"
        if isinstance(value, str):
            if not _COLOUR.fullmatch(value) and states(value):
                yield name, value
        elif isinstance(value, (tuple, list)) or hasattr(value, "items"):
            yield from find_texts(value, states, name + ".")


def states_number(text: str) -> bool:
    """Whether a text holds a digit (of any script) or a kanji numeral: one that may state a figure."""
    return any(map(str.isdigit, text)) or not KANJI_DIGITS.isdisjoint(text)
