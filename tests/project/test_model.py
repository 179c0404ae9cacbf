"""A card read from YAML keeps its places packed (no Location of its own) yet answers as a hand-made card does:
location, cells, where, equality, hash, repr, dataclasses.replace and a pickle round trip."""
from __future__ import annotations

import dataclasses
import gc
import pickle
import tracemalloc
from pathlib import Path

from pnpgen.errors import Location
from pnpgen.project.model import Card, Fields
from pnpgen.project.validate import load_project


def write_deck(root: Path, cards: int, row: str = "number: {n}, name: カード{n}, copies: 2, tbd: [name]") -> Path:
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "f.svg.j2").write_text("<rect/>", encoding="utf-8")
    rows = "".join("          - {" + row.format(n=n) + "}\n" for n in range(cards))
    (root / "cards.yaml").write_text("games:\n  - id: g\n    title: G\n    components:\n      - id: deck\n"
                                     "        front: f.svg.j2\n        cards:\n" + rows, encoding="utf-8")
    return root


def load_measured(project: Path) -> tuple[tuple[Card, ...], int]:
    """The cards of the project's one component, and the bytes its load keeps (measured on a second load)."""
    load_project(project)
    gc.collect()
    tracemalloc.start()
    try:
        cards = load_project(project).games[0].components[0].cards
        return cards, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_a_written_card_answers_as_a_hand_made_one(tmp_path: Path):
    card = load_project(write_deck(tmp_path, 3)).games[0].components[0].cards[1]
    place = Location("cards.yaml", 9, 13)
    cells = (("number", Location("cards.yaml", 9, 22)), ("name", Location("cards.yaml", 9, 31)),
             ("copies", Location("cards.yaml", 9, 45)))
    made = Card(Fields({"number": 1, "name": "カード1"}), 2, place, ("name",), cells)
    assert card.location == place and tuple(card.cells) == cells and card.where("name") == cells[1][1]
    assert card.where("other") == place and card.tbd == ("name",) and card.copies == 2
    assert card == made and hash(card) == hash(made) and repr(card) == repr(made)
    assert "location=Location(file='cards.yaml', line=9, col=13" in repr(card) and "cells" not in repr(card)
    again = pickle.loads(pickle.dumps(card))
    assert again == card and tuple(again.cells) == cells
    fewer = dataclasses.replace(card, copies=1)
    assert (fewer.copies, fewer.location, tuple(fewer.cells), fewer.fields) == (1, place, cells, card.fields)
    assert not hasattr(card, "__dict__")


def test_a_hand_made_card_keeps_what_it_was_given():
    place = Location("deck.csv", 4, 1, "")
    card = Card(Fields({"a": 1}), 3, place)
    assert card.location is place and card.cells == () and card.tbd == () and card.where("a") is place
    assert card != Card(Fields({"a": 1}), 3, Location("deck.csv", 5, 1, ""))


def test_a_loaded_card_holds_no_location_of_its_own(tmp_path: Path):
    cards, kept = load_measured(write_deck(tmp_path, 2000))
    assert len(cards) == 2000 and str(cards[-1].location) == "cards.yaml:2007:13"
    # its name's text, the card, its Fields and values, its offset and packed positions: about 380 bytes a card here;
    # a Location, a Spots and a tbd tuple for each took some 250 more
    assert kept < 2000 * 450


def test_a_wide_card_with_copies_holds_no_location_either(tmp_path: Path):
    """Ten fields and copies: reading copies once made the card's dict of Locations, which its places were then kept
    in (some 1,700 bytes a card more)."""
    row = "number: {n}, cost: 1, kind: attack, rarity: common, power: 2, guard: 3, text: t, flavor: f, art: a, " \
          "set: base, copies: 2"
    cards, kept = load_measured(write_deck(tmp_path, 2000, row))
    assert [(name, str(where)) for name, where in cards[5].cells][-2:] == \
        [("set", "cards.yaml:13:117"), ("copies", "cards.yaml:13:131")]
    assert kept < 2000 * 400
