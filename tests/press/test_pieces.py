"""A component's pieces read as the list of Items they stand for, and impose the same pages, holding 64 bytes a card."""
from __future__ import annotations

import hashlib

import pytest

from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.press.pieces import Pieces
from pnpgen.project.model import Size
from pnpgen.units import mm

POKER = Size(mm(63), mm(88))


def key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def both(cards: list[tuple[str, str | None, int]], label: str | None = None) -> tuple[Pieces, list[Item]]:
    """The Pieces of (front, back, copies) cards, and the Items they stand for, made one by one."""
    pieces, items = Pieces(POKER, label), []
    for front, back, copies in cards:
        pieces.add(front, back, copies)
        first = len(items)
        items += [Item(front, back, POKER, "" if label is None else f"{label} #{first + copy}")
                  for copy in range(1, copies + 1)]
    return pieces, items


CASES = {
    "a deck with a shared back": [(key(f"f{n}"), key("back"), n % 3 + 1) for n in range(40)],
    "chips without backs": [(key(f"f{n}"), None, 2) for n in range(7)],
    "keys that are not digests": [("front-a", "back-a", 1), (key("x"), "B" * 64, 2), (key("y"), key("z"), 0),
                                  (key("Y").upper(), None, 1), (key("w"), key("v"), 3)],
}


@pytest.mark.parametrize("label", [None, "map"])
@pytest.mark.parametrize("case", CASES)
def test_pieces_read_as_the_items_they_stand_for(case, label):
    pieces, items = both(CASES[case], label)
    assert len(pieces) == len(items) and list(pieces) == items
    assert [pieces[n] for n in range(len(items))] == items and pieces[-1] == items[-1]
    assert pieces[3:11] == items[3:11] and pieces[::4] == items[::4]
    with pytest.raises(IndexError):
        pieces[len(items)]


def test_a_deck_holds_its_digests_once_a_card_and_one_string_for_a_shared_back():
    pieces, _ = both(CASES["a deck with a shared back"])
    assert len(pieces.digests) == 64 * 40 and not pieces.odd
    backs = {id(item.back) for item in pieces}
    assert len(backs) == 1


@pytest.mark.parametrize("duplex", ["long", "none"])
def test_imposed_pieces_make_the_pages_their_items_make(duplex):
    spec = SheetSpec(paper=Size(mm(210), mm(297)), bleed=mm(3), duplex=duplex)
    for cards in CASES.values():
        pieces, items = both(cards)
        assert impose(pieces, spec) == impose(items, spec)
