"""Turn the forms a number's phrase takes into what it is about: a bare card value (５の菓子カード), a count of the
values a range names (１〜３の３枚), a total after 計 (計１８トリック), a figure in brackets after its noun."""
from __future__ import annotations

import re
from dataclasses import replace

from .numerals import Number, parse_number
from .vocabulary import Context, Noun

_RANGE_OF = re.compile(r"([0-9０-９]+)\s*[〜～~]\s*([0-9０-９]+)\s*の\s*$")


def names_value(text: str, number: Number, noun: Noun, joins: tuple[str, str]) -> bool:
    """A bare number (no counter) that is one of the values the noun's cards carry names those cards; `joins`: the
    characters after and before it that join values in its language."""
    if number.unit or number.value not in noun.card_values:
        return False
    after, before = text[number.end:number.end + 1], text[number.start - 1:number.start] if number.start else ""
    return bool(after) and after in joins[0] or bool(before) and before in joins[1]


def counts_range(text: str, number: Number) -> bool:
    """「１〜３の３枚」: a count right after a range of values that is the number of values in it."""
    match = _RANGE_OF.search(text[max(0, number.start - 16):number.start])
    return bool(match) and parse_number(match.group(2)) - parse_number(match.group(1)) + 1 == number.value


def with_totals(noun: Noun, nouns: list[Noun], context: Context) -> Noun:
    """The figure's noun that also accepts its value times another figure's (a total over rounds, players)."""
    own = noun.accepts(context)
    others = {v for n in nouns if n.label.startswith("figure ") and n is not noun for v in n.accepts(Context())
              if isinstance(v, int) and not isinstance(v, bool)}
    totals = {a * b for a in own if isinstance(a, int) for b in others} | own
    return replace(noun, accepts=lambda _context: totals)


def find_bracketed_noun(text: str, number: Number, nouns: list[Noun], gap: int, spaced: bool = False) -> Noun | None:
    """英雄カード（各種族１枚、計４枚）: a figure in brackets after a noun is about that noun (`spaced`: a language
    that writes a space before the bracket, Battle cards (24 cards))."""
    opening = max(text.rfind("（", 0, number.start), text.rfind("(", 0, number.start))
    closing = max(text.rfind("）", 0, number.start), text.rfind(")", 0, number.start))
    if opening < 0 or closing > opening:
        return None
    before = text[max(0, opening - gap):opening]
    before = before.rstrip(" ") if spaced else before
    return next((noun for word, noun in sorted(((w, n) for n in nouns for w in n.words), key=lambda p: -len(p[0]))
                 if before.endswith(word)), None)
