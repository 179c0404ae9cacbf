"""A big `cards:` list is spilled while it is read (project/spilled.py): the loaded values, the validated model and
every message with its file:line:col are the same as when every card is held, for cards of every YAML shape."""
from __future__ import annotations

import datetime
import gc
import sys
import tracemalloc
from pathlib import Path

import pytest
import yaml

from pnpgen.errors import Location, PnpError
from pnpgen.project import spilled
from pnpgen.project.load import LList, LMap, parse_yaml
from pnpgen.project.spilled import SpilledList
from pnpgen.project.validate import load_project

HELD = 8  # small, so that a test deck of a few dozen cards spills most of them
LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if getattr(yaml, "__with_libyaml__", False) else [])

SHAPES = """\
          - &twin {number: 9, name: Twin, effect: "a: b"}
          - {<<: *base, number: 10}
          - <<: [*base, *more]
            number: 11
          - *twin
          - {number: 12, stats: {atk: 2, def: [1, 2, {x: y}]}, tags: [a, b, [c]]}
          - number: 13
            effect: |
              Draw two.
              Discard one.
            flavor: >
              Folded
              text.
          - {number: 14, cost: 1.5, debt: -3, hex: 0x1F, big: 1e3, yes: true, no: false, none: ~, made: 2024-02-29}
          - {number: 15, copies: 3, tbd: [name], name: Later}
          - {number: 16, name: Soon, tbd: true, 1: one, "quoted key": 2}
          - {}
          - {number: 17, empty: [], nothing: {}}
          - {number: 18, cards: [a, b]}
"""
FIRST = 11 + HELD  # the line of the first spilled card


def project_text(cards: str, extra: str = "") -> str:
    """A deck of HELD plain cards and then `cards`: past HELD every one is spilled."""
    plain = "".join(f"          - {{number: {n}, name: カード{n}, effect: \"山札から{n}枚引く。\", type: 攻撃}}\n"
                    for n in range(HELD))
    return ("games:\n  - id: g\n    title: G\n    defaults: &more {back: red}\n    components:\n      - id: deck\n"
            "        front: f.svg.j2\n        defaults: &base {rarity: common, type: 防御}\n        copies: 1\n"
            "        cards:\n" + plain + cards + extra)


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "templates").mkdir(exist_ok=True)
    (tmp_path / "templates" / "f.svg.j2").write_text("<rect/>", encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def spelled(value) -> object:
    """A loaded value with every place it reports, spelled out for comparison."""
    if isinstance(value, LMap):
        packed = value.packed()
        return ("map", str(value.loc), packed and (packed[0].names, packed[1]), list(value.fields_at("tbd")),
                [(key, str(value.where_key(key)), str(value.where(key)), str(value.key_locs[key]),
                  str(value.value_locs[key]), spelled(item)) for key, item in value.items()])
    if isinstance(value, LList):
        return ("list", str(value.loc), [(str(value.where(i)), str(value.item_locs[i]), spelled(item))
                                         for i, item in enumerate(value)])
    return (type(value).__name__, value)


def spelled_project(project) -> object:
    return [(component.id, [(card.fields, card.copies, card.tbd, str(card.location),
                             [(name, str(place)) for name, place in card.cells]) for card in component.cards],
             [(name, str(place)) for name, place in component.field_locations])
            for game in project.games for component in game.components]


def both(monkeypatch, read):
    """What `read` gives with every card held (HELD past any deck here), then with the cards past HELD spilled."""
    monkeypatch.setattr(spilled, "HELD", 10 ** 9)
    held = read()
    monkeypatch.setattr(spilled, "HELD", HELD)
    return held, read()


def cards_of(data) -> LList:
    return data["games"][0]["components"][0]["cards"]


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_spilled_cards_read_back_as_the_cards_held_with_every_place(monkeypatch, loader):
    text = project_text(SHAPES)
    held, spilt = both(monkeypatch, lambda: parse_yaml(text, "cards.yaml", loader))
    cards = cards_of(spilt)
    assert type(cards) is SpilledList and cards.spill is not None and len(cards.spill) == 1  # the test is not vacuous
    assert not cards.kept  # every card's record carries it
    assert type(cards_of(held)) is SpilledList and cards_of(held).spill is None
    assert spelled(spilt) == spelled(held)
    assert cards == cards_of(held) and len(cards) == HELD + 12
    merged = cards[HELD + 2]
    assert merged == {"rarity": "common", "type": "防御", "back": "red", "number": 11}
    assert [str(merged.where(key)) for key in merged] == ["cards.yaml:8:34", "cards.yaml:8:48", "cards.yaml:4:28",
                                                          f"cards.yaml:{FIRST + 3}:21"]  # merged: the anchors'
    assert cards[HELD + 3] == cards[HELD] == {"number": 9, "name": "Twin", "effect": "a: b"}
    assert str(cards.where(HELD + 3)) == str(cards[HELD].loc) == f"cards.yaml:{FIRST}:13"  # where its anchor is
    deep = cards[HELD + 4]["stats"]["def"]
    assert deep[2] == {"x": "y"} and str(deep.where(2)) == f"cards.yaml:{FIRST + 5}:54"
    assert str(deep[2].where("x")) == f"cards.yaml:{FIRST + 5}:58"
    assert cards[HELD + 5]["effect"] == "Draw two.\nDiscard one.\n" and cards[HELD + 5]["flavor"] == "Folded text.\n"
    assert cards[HELD + 6] == {"number": 14, "cost": 1.5, "debt": -3, "hex": 31, "big": "1e3", True: True, False: False,
                               "none": None, "made": "2024-02-29"}
    assert [type(value) for value in cards[HELD + 6].values()] == [int, float, int, int, str, bool, bool, type(None),
                                                                   str]
    assert cards[HELD + 8][1] == "one" and cards[HELD + 9] == {} and cards[HELD + 10] == {"number": 17, "empty": [],
                                                                                           "nothing": {}}
    keys = [key for card in cards for key in card if type(key) is str]
    assert all(key is sys.intern(key) for key in keys)  # the builder's own names: the cards share them


def test_a_spilled_list_answers_as_a_list_does(monkeypatch):
    monkeypatch.setattr(spilled, "HELD", HELD)
    text = project_text("".join(f"          - {{number: {n}}}\n" for n in range(HELD, 40)))
    cards = cards_of(parse_yaml(text, "cards.yaml"))
    plain = [{"number": n, **({"name": f"カード{n}", "effect": f"山札から{n}枚引く。", "type": "攻撃"} if n < HELD else {})}
             for n in range(40)]
    assert isinstance(cards, LList) and isinstance(cards, list) and cards and len(cards) == 40
    assert list(cards) == plain and cards == plain and plain == cards and not cards != plain and cards != plain[:-1]
    assert tuple(cards) == tuple(plain) and list(reversed(cards)) == plain[::-1]
    assert cards[-1] == plain[-1] and cards[HELD + 3] == plain[HELD + 3] and cards[5:30:7] == plain[5:30:7]
    assert {"number": 33} in cards and {"number": 99} not in cards and cards.index({"number": 33}) == 33
    assert cards.count({"number": 20}) == 1 and cards.copy() == plain and cards + [1] == plain + [1]
    assert [1] + cards == [1] + plain and sorted(card["number"] for card in cards) == list(range(40))
    with pytest.raises(IndexError):
        cards[40]
    with pytest.raises(IndexError):
        cards[-41]
    assert [str(cards.where(i)) for i in (0, HELD, 39, 40)] == \
        ["cards.yaml:11:13", f"cards.yaml:{FIRST}:13", "cards.yaml:50:13", "cards.yaml:11:11"]
    assert [str(place) for place in cards.item_locs] == [str(cards.where(i)) for i in range(40)]
    assert str(cards[39].loc) == "cards.yaml:50:13" and str(cards[39].where_key("number")) == "cards.yaml:50:14"
    assert cards[39] is not cards[39]  # made again each time it is read


def test_what_an_alias_may_replay_is_not_spilled(monkeypatch):
    monkeypatch.setattr(spilled, "HELD", 2)
    items = "".join(f"      - {{n: {n}}}\n" for n in range(6))
    text = ("anchored:\n  cards: &all\n" + items + "inside: &box\n  cards:\n" + items +
            "again:\n  cards: *all\nboxed: *box\nfree:\n  cards:\n" + items + "other:\n" + items)
    data = parse_yaml(text, "f.yaml")
    assert [type(data[key]["cards"]) for key in ("anchored", "inside", "again", "boxed")] == [LList] * 4
    assert type(data["free"]["cards"]) is SpilledList and type(data["other"]) is LList  # only a `cards:` list
    assert data["free"]["cards"] == data["anchored"]["cards"] == data["boxed"]["cards"] == [{"n": n} for n in range(6)]


def test_a_component_of_spilled_cards_validates_as_one_held(monkeypatch, tmp_path: Path):
    text = project_text(SHAPES, "      - id: child\n        extends: deck\n        name: Child\n"
                                "      - id: grandchild\n        extends: child\n        copies: 2\n")
    write(tmp_path, text)
    held, spilt = both(monkeypatch, lambda: load_project(tmp_path))
    assert spilt == held and spelled_project(spilt) == spelled_project(held)
    deck, child, grandchild = spilt.games[0].components
    assert len(deck.cards) == len(child.cards) == len(grandchild.cards) == HELD + 12
    assert child.cards == deck.cards and grandchild.cards != deck.cards  # copies: 2 where a card gives none
    assert [card.copies for card in grandchild.cards][HELD + 6:HELD + 9] == [2, 3, 2]
    assert str(child.cards[HELD + 4].location) == f"cards.yaml:{FIRST + 5}:13"
    assert child.cards[HELD + 4].fields["stats"]["def"][2]["x"] == "y"
    for model in (held, spilt):  # a card's own `cards:` field is frozen as any list is
        assert type(model.games[0].components[0].cards[HELD + 11].fields["cards"]) is tuple
    assert dict(grandchild.field_locations)["hex"] == Location("cards.yaml", FIRST + 13, 47)


ERRORS = """\
          - 5
          - {number: 20, copies: -2}
          - {number: 21, copies: 20000}
          - {number: 22, tbd: [nope]}
          - {number: 23, tbd: 5}
          - [a, list]
"""


def test_bad_cards_past_the_held_ones_are_reported_at_the_same_places(monkeypatch, tmp_path: Path):
    write(tmp_path, project_text(ERRORS))

    def message() -> str:
        with pytest.raises(PnpError) as caught:
            load_project(tmp_path)
        return str(caught.value)
    held, spilt = both(monkeypatch, message)
    assert spilt == held
    assert [line.split(": expected")[0].split("; ")[0] for line in spilt.splitlines()] == [
        f"cards.yaml:{FIRST}:13",
        f"cards.yaml:{FIRST + 1}:34: 'copies' must be a whole number of 0 or more",
        f"cards.yaml:{FIRST + 2}:34: copies: 20000 is absurd",
        f"cards.yaml:{FIRST + 3}:31: tbd names 'nope', which is not a field of this card",
        f"cards.yaml:{FIRST + 4}:31: tbd must be true or a list of field names",
        f"cards.yaml:{FIRST + 5}:13"]


@pytest.mark.parametrize("card, message", [
    ("{number: !!int x}", "{row}:22: 'x' is not a valid whole number; expected a whole number such as 12"),
    ("{a: 1, a: 2}", "{row}:20: duplicate key 'a' (first at line {row}); expected each key once"),
    ("{a: *nope}", "{row}:17: YAML syntax error: found undefined alias 'nope' (an alias (*name) with no anchor "
                   "(&name) before it)"),
    ("{a: !custom 1}", "{row}:17: the tag !custom is not allowed; expected plain YAML values"),
])
def test_a_bad_value_in_a_spilled_card_is_the_same_message(monkeypatch, card: str, message: str):
    text = project_text(f"          - {card}\n", "          - {number: 99}\n" * 3)

    def read() -> str:
        with pytest.raises(PnpError) as caught:
            parse_yaml(text, "cards.yaml")
        return str(caught.value)
    held, spilt = both(monkeypatch, read)
    assert spilt == held == "cards.yaml:" + message.replace("{row}", str(FIRST))


def test_an_item_records_cannot_carry_stays_in_memory_at_its_index(monkeypatch):
    data = parse_yaml("a: [1, {b: 2}]\nx: {n: 2}\ny: {on: 1}\nz: {deep: {n: 1}}\n", "f.yaml")
    dated = data["y"]
    dated["when"] = datetime.date(2024, 2, 29)  # of no type a scalar reads as
    made = LMap({"n": 1})  # made by hand: its place is its own
    made.loc = Location("g.yaml", 3, 4)
    placed = data["z"]
    placed["deep"].value_locs = {"n": Location("h.yaml", 5, 6)}  # a value's places set by hand
    other = parse_yaml("x: {n: 3}\n", "f.yaml")["x"]  # another file's
    monkeypatch.setattr(spilled, "HELD", 1)
    items = SpilledList(data.marks)
    for item in (0, made, dated, data["x"], data["a"], placed, other, "text", None, [1]):
        items.append(item)
    items.close()
    assert set(items.kept) == {1, 2, 5, 6, 9}
    assert [items[index] is item for index, item in ((1, made), (2, dated), (5, placed), (6, other))] == [True] * 4
    assert list(items) == [0, made, dated, {"n": 2}, [1, {"b": 2}], placed, other, "text", None, [1]]
    assert items[3] is not data["x"] and spelled(items[3]) == spelled(data["x"])
    assert spelled(items[4]) == spelled(data["a"]) and str(items[5]["deep"].where("n")) == "h.yaml:5:6"
    assert list(items.samples()) == [0, made, dated, placed]  # the first mapping of each set of keys


def test_a_real_size_deck_holds_less_and_loads_the_same(tmp_path: Path):
    assert spilled.HELD >= 1000  # a small deck is held as it always was
    text = project_text("".join(f"          - {{number: {n}, name: カード{n}, effect: \"山札から{n}枚引く。\", "
                                f"tags: [t{n % 3}], stats: {{atk: {n % 7}}}}}\n" for n in range(3000 + spilled.HELD)))
    write(tmp_path, text)
    parse_yaml(text, "cards.yaml")
    found = []
    for held in (10 ** 9, spilled.HELD):
        default, spilled.HELD = spilled.HELD, held
        try:
            gc.collect()
            tracemalloc.start()
            data = parse_yaml(text, "cards.yaml")
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            found.append((peak, spelled(data), spelled_project(load_project(tmp_path))))
        finally:
            spilled.HELD = default
    (held_peak, held_values, held_model), (peak, values, model) = found
    assert type(cards_of(data)) is SpilledList and len(cards_of(data).spill) > 40
    assert values == held_values and model == held_model
    assert peak < held_peak * 0.6  # 3,000 and more of the cards are records in a file while the file is read
    gc.collect()
    parse_yaml(text, "cards.yaml")
    assert gc.collect() == 0  # nothing of a spilled list waits for the cycle collector
