"""Turn a number's place in a phrase into the noun it counts: the nearest of the nouns' words within a phrase, or
the one written last a phrase before; and the player count a phrase states before it."""
from __future__ import annotations

import re

from .numerals import Number
from .phrasing import JAPANESE, Phrasing
from .vocabulary import Noun


def find_players_before(text: str, numbers: list[Number], number: Number, players: tuple,
                        default: int | None) -> int | None:
    """The game's player count the phrase states before the number (４人なら各自３枚), else `default`."""
    earlier = [n for n in numbers if n.players and n.end <= number.start and (not players or n.value in players)]
    return int(earlier[-1].value) if earlier else default


def find_nearest_noun(text: str, number: Number, nouns: list[Noun], words: Phrasing) -> Noun | None:
    best, distance, best_word = None, None, ""
    for noun in nouns:
        for word in noun.words:
            for start, end in find_occurrences(word, text, words):
                gap = number.start - end if end <= number.start else start - number.end
                if gap < 0 or gap > words.max_gap:
                    continue
                if distance is None or gap < distance or (gap == distance and len(word) > len(best_word)):
                    best, distance, best_word = noun, gap, word
    return best


def find_occurrences(word: str, text: str, words: Phrasing):
    """(start, end) of each occurrence of word in text, none overlapping: those re.finditer(words.pattern(word))
    finds; in Japanese, where a word is found anywhere, found faster."""
    if words is not JAPANESE:
        yield from (match.span() for match in re.finditer(words.pattern(word), text))
        return
    if not word:
        yield from ((at, at) for at in range(len(text) + 1))
        return
    at = text.find(word)
    while at >= 0:
        yield at, at + len(word)
        at = text.find(word, at + len(word))


def find_last_noun(text: str, nouns: list[Noun], words: Phrasing) -> Noun | None:
    """The noun written last in a neighbouring phrase (手札を配ります。４人プレイでは３枚ずつ)."""
    if words is JAPANESE:
        spots = [(text.rfind(word), noun) for noun in nouns for word in noun.words if word in text]
    else:  # a whole word (deal, not dealer)
        spots = [(found[-1].start(), noun) for noun in nouns for word in noun.words
                 for found in [list(re.finditer(words.pattern(word), text))] if found]
    return max(spots, key=lambda spot: spot[0])[1] if spots else None  # the first noun of those written last
