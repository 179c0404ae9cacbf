"""Matching cards across two states of a component, and rulebook sections by heading."""
from __future__ import annotations

from pnpgen.diff.compare import pair_cards
from pnpgen.diff.sections import compare_text
from pnpgen.errors import Location
from pnpgen.project.model import Card, Fields

DEFAULTS = {"accent": "#b3262d", "effect": ""}  # every card has them: they say nothing about which card is which


def deck(*cards: tuple[int, int] | tuple[int, int, str]) -> list[Card]:
    return [Card(Fields({**DEFAULTS, "number": c[0], **({"name": c[2]} if len(c) > 2 else {})}), c[1], Location("x", n, 1))
            for n, c in enumerate(cards, 1)]


def statuses(old, new) -> list[tuple]:
    return [(i, j) for i, j in pair_cards(old, new)]


def test_edits_in_place_pair_up_and_unrelated_cards_do_not():
    old = deck((1, 10, "剣"), (2, 6, "盾"), (3, 6, "弓"))
    assert statuses(old, deck((1, 10, "剣"), (2, 5, "盾"), (3, 6, "弓"))) == [(0, 0), (1, 1), (2, 2)]  # copies only
    assert statuses(old, deck((1, 10, "剣"), (9, 6, "盾"), (3, 6, "弓"))) == [(0, 0), (1, 1), (2, 2)]  # renumbered
    # a card replaced by one that shares no telling field is a removal and an addition
    assert statuses(old, deck((1, 10, "剣"), (8, 1, "槍"), (3, 6, "弓"))) == [(0, 0), (1, None), (None, 1), (2, 2)]


def test_insertions_and_removals_anywhere_keep_the_other_cards_paired():
    old = deck((1, 10), (2, 6), (3, 6), (4, 4))
    assert statuses(old, deck((1, 10), (2, 6), (9, 1), (3, 6), (4, 4))) == [(0, 0), (1, 1), (None, 2), (2, 3), (3, 4)]
    assert statuses(old, deck((1, 10), (3, 6), (4, 4))) == [(0, 0), (1, None), (2, 1), (3, 2)]
    assert statuses(old, deck((2, 6), (3, 6), (4, 4))) == [(0, None), (1, 0), (2, 1), (3, 2)]


def test_a_moved_card_is_neither_removed_nor_added():
    old = deck((1, 10), (2, 6), (3, 6), (4, 4))
    assert sorted(statuses(old, deck((2, 6), (3, 6), (4, 4), (1, 10)))) == [(0, 3), (1, 0), (2, 1), (3, 2)]


def test_identical_cards_pair_one_for_one():
    old = deck((1, 1), (1, 1), (2, 1))
    assert statuses(old, deck((1, 1), (2, 1))) in ([(0, 0), (1, None), (2, 1)], [(0, None), (1, 0), (2, 1)])


def test_rulebook_sections_by_heading():
    old = "# Title\nintro\n## 準備\nA\n## 手番\nB\n```\n# not a heading\n```\n## 終了\nC\n"
    new = "# Title\nintro\n## 準備\nA changed\n## 手番\nB\n```\n# not a heading\n```\n## 得点\nD\n"
    changes = [(c.heading, c.status, c.line) for c in compare_text("g", "rules/g.md", old, new)]
    assert changes == [("## 準備", "changed", 3), ("## 得点", "added", 10), ("## 終了", "removed", 10)]
    assert compare_text("g", "rules/g.md", old, old) == []


def test_a_changed_component_setting_is_named_as_the_cause():
    from pnpgen.diff.compare import changed_settings

    before = ("g", "ゲーム", "deck", "デッキ", "card", "rect", (63, 88), 3, "front.svg.j2", "back.svg.j2")
    after = ("g", "新ゲーム", "deck", "デッキ", "card", "rect", (63, 89), 3, "front.svg.j2", "back.svg.j2")
    assert changed_settings(before, after) == ["the game title", "the component's size"]
