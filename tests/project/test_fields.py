"""Fields hold a card's values in a tuple and share their names with every card naming the same fields; a loaded
deck's cards share names and repeated text, and its scalars read as safe_load reads them."""
from __future__ import annotations

import datetime
import sys

import pytest
import yaml

from pnpgen.errors import PnpError
from pnpgen.project.load import parse_yaml
from pnpgen.project.model import Fields
from pnpgen.project.validate import load_project


def test_fields_naming_the_same_fields_share_their_names():
    one, two = Fields({"name": "剣", "number": 1}), Fields({"name": "盾", "number": 2})
    assert one._at is two._at
    assert one._values == ("剣", 1) and two._values == ("盾", 2)
    assert one["name"] == "剣" and two.number == 2 and "number" in one and "cost" not in one
    assert list(one) == ["name", "number"] and list(one.items()) == [("name", "剣"), ("number", 1)]
    assert list(two.values()) == ["盾", 2] and len(two) == 2
    assert repr(one) == "Fields({'name': '剣', 'number': 1})"
    with pytest.raises(AttributeError):
        _ = one.cost


def test_fields_compare_as_mappings_whatever_their_order():
    one, other = Fields({"a": 1, "b": (2, 3)}), Fields((("b", (2, 3)), ("a", 1)))
    assert one == other and one == {"a": 1, "b": (2, 3)} and one != Fields({"a": 1})
    assert one == Fields(one) and hash(one) == hash(Fields({"a": 1, "b": (2, 3)}))
    assert one.merged({}) is one and Fields().merged(one) is one
    assert one.merged({"b": 4, "c": 5}) == {"a": 1, "b": 4, "c": 5}


def write_deck(root, cards: int):
    lines = "\n".join(f"          - {{number: {n}, name: \"カード{n}\", type: 攻撃, text: \"山札から{n % 3}枚引く。\"}}"
                      for n in range(1, cards + 1))
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text("<rect/>", encoding="utf-8")
    (root / "cards.yaml").write_text("games:\n  - id: g\n    title: G\n    components:\n      - id: deck\n"
                                     "        name: D\n        size: poker\n        front: front.svg.j2\n"
                                     f"        cards:\n{lines}\n", encoding="utf-8")
    return root


def test_a_loaded_deck_shares_names_and_repeated_values_and_keeps_little_per_card(tmp_path):
    cards = load_project(write_deck(tmp_path / "p", 30)).games[0].components[0].cards
    assert len({id(card.fields._at) for card in cards}) == 1
    assert len({id(card.fields["type"]) for card in cards}) == 1  # 攻撃 once, not once a card
    assert len({id(card.fields["text"]) for card in cards}) == 3
    assert [card.fields["number"] for card in cards] == list(range(1, 31))
    assert not hasattr(cards[0], "__dict__") and not hasattr(cards[0].fields, "__dict__")
    fields = cards[0].fields
    assert sys.getsizeof(fields) + sys.getsizeof(fields._values) < 200  # no pairs, no dict of its own
    assert str(cards[4].location) == "cards.yaml:14:13" and str(cards[4].where("name")) == "cards.yaml:14:31"


WORDS = ["true", "True", "yes", "no", "on", "Off", "y", "n", "~", "null", "", "0", "00", "012", "0x1F", "0b11", "0o7",
         "1_000", "+1", "-1", "1.5", ".5", "1e3", "1.0e+3", "2024-01-01", "2024-01-01 10:00:00", "12:30", "190:20:30",
         "日本語", "12345678901234567890", "１２", "²", "a b", "number", "name", "tbd", "1.", "-0", "1,000", "t", "f"]


@pytest.mark.parametrize("word", WORDS)
def test_a_plain_scalar_reads_as_safe_load_reads_it(word):
    """Text and whole numbers are read without the resolver: each word still means what YAML says it means."""
    expected = yaml.safe_load(f"k: {word}")["k"]
    if isinstance(expected, (datetime.date, datetime.datetime)):
        expected = expected.isoformat()
    found = parse_yaml(f"k: {word}\nlist:\n  - {word}\n".encode("utf-8"), "f.yaml")
    assert (type(found["k"]), found["k"]) == (type(expected), expected) == (type(found["list"][0]), found["list"][0])
    if isinstance(expected, (str, int, float)):  # bool is an int: a key may be any of these
        key = word or "''"
        assert [(type(read), read) for read in parse_yaml(f"{key}: v", "f.yaml")] == [(type(expected), expected)]
    assert [type(quoted) for quoted in parse_yaml(f"['{word}', \"{word}\"]", "f.yaml")] == [str, str]


@pytest.mark.parametrize("word, message", [(".nan", "'.nan' is not a finite number"), ("=", "the tag !!value is not allowed"),
                                           ("123456789012345678901234567890123", "a number of 33 digits")])
def test_a_plain_scalar_yaml_reads_oddly_is_still_refused(word, message):
    with pytest.raises(PnpError, match=message):
        parse_yaml(f"k: {word}\n", "f.yaml")
