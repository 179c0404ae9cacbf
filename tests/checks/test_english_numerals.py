"""English prose read as the numbers it states: each numeral with the Japanese counter its noun is read as, so that
"3 cards", "three cards" and 「３枚」 are the same figure; ordinals and idioms state none."""
from __future__ import annotations

import random

import pytest

from pnpgen.checks.english import find_english_numbers
from pnpgen.checks.numerals import find_numbers

READINGS = [
    ("Shuffle the 5 wind cards into a deck.", [(5, "枚", "5 wind cards")]),
    ("Deal each player 3", [(3, "", "3")]),
    ("3 cards each with 4 players", [(3, "枚", "3 cards"), (4, "人", "4 players")]),
    ("a 3-player game", [(3, "人", "3-player")]),
    ("even 1 player", [(1, "人数", "1 player")]),
    ("the 3 players to your left", [(3, "人数", "3 players")]),
    ("three battle cards", [(3, "枚", "three battle cards")]),
    ("Twenty-one points", [(21, "点", "Twenty-one points")]),
    ("gain 3 victory points", [(3, "ＶＰ", "3 victory points")]),
    ("3 VP", [(3, "ＶＰ", "3 VP")]),
    ("2 of your chips", [(2, "枚", "2 of your chips")]),
    ("after 6 tricks", [(6, "トリック", "6 tricks")]),
    ("for 3 rounds", [(3, "ラウンド", "3 rounds")]),
    ("2 turns", [(2, "ターン", "2 turns")]),
    ("undressed 3 times", [(3, "回", "3 times")]),
    ("twice per turn", [(2, "回", "twice")]),
    ("up to twice.", [(2, "回", "twice")]),
    ("twice the VP", [(2, "倍", "twice")]),
    ("3 times the stake", [(3, "倍", "3 times")]),
    ("Connected areas x2 VP", [(2, "ＶＰ", "2 VP")]),
    ("once per game", [(1, "回", "once")]),
    ("half the VP", [(2, "分の", "half")]),
    ("a pair of chips", [(2, "枚", "a pair of chips")]),
    ("both cards", [(2, "枚", "both cards")]),
    ("both players", [(2, "人数", "both players")]),
    ("a single card", [(1, "枚", "a single card")]),
    ("20 or more", [(20, "以上", "20 or more")]),
    ("5 or fewer", [(5, "以下", "5 or fewer")]),
    ("1.5 cards", [(1.5, "枚", "1.5 cards")]),
    ("After round 3, the game ends.", [(3, "ラウンド", "3")]),
]

NOTHING = ["the first player", "one of the cards", "one another", "in one go", "one by one", "the 3rd undressing",
           "Once all players have passed", "no one", "round 2 begins", "the one who wins",
           "both its speed and its danger", "someone", "an hour", "Box2"]


@pytest.mark.parametrize("text, expected", READINGS, ids=[text for text, _ in READINGS])
def test_each_english_numeral_is_read_with_its_counter(text, expected):
    assert [(n.value, n.unit, n.said) for n in find_english_numbers(text)] == expected


@pytest.mark.parametrize("text", NOTHING)
def test_ordinals_idioms_and_labels_state_no_number(text):
    assert find_english_numbers(text) == []


WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
NOUNS = [("cards", "枚"), ("chips", "枚"), ("markers", "枚"), ("points", "点"), ("rounds", "ラウンド"),
         ("tricks", "トリック"), ("times", "回")]
JAPANESE = {"枚": "枚", "点": "点", "ラウンド": "ラウンド", "トリック": "トリック", "回": "回"}


def test_digits_words_and_the_japanese_state_the_same_figure_in_any_sentence():
    """Randomised: a count written in digits, in words or in Japanese reads as the same value and counter, wherever
    it stands in a sentence and whatever words stand between it and its noun."""
    rng = random.Random(31)
    for _ in range(300):
        value = rng.randint(1, 12)
        noun, unit = rng.choice(NOUNS)
        adjective = rng.choice(["", "wind ", "face-down ", "spare score "])
        lead = rng.choice(["Take", "After", "Each player gets", "You may use up to", "With 4 players, deal"])
        tail = rng.choice([".", ", then pass.", " each.", " in the first round."])
        for numeral in (str(value), WORDS[value - 1]):
            said = f"{numeral} {adjective}{noun}"
            found = find_english_numbers(f"{lead} {said}{tail}")
            assert [(n.value, n.unit, n.said) for n in found if n.unit != "人"] == [(value, unit, said)]
        japanese = find_numbers(f"{'０１２３４５６７８９'[value] if value < 10 else value}{JAPANESE[unit]}")
        assert [(n.value, n.unit) for n in japanese] == [(value, unit)]
