"""Turn English prose into the numbers it states, each with the Japanese counter its noun is read as (3 cards: 枚,
twice: 回, half: 分の), so that one checker holds both editions' figures to the data."""
from __future__ import annotations

import re

from .numerals import Number

_UNITS = (("victory points?|vp", "ＶＰ"),
          ("cards?|chips?|tokens?|tiles?|markers?|pieces?|sheets?|copies|copy|layers?", "枚"),
          ("players?|people|persons?", "人"), ("times?|uses?", "回"), ("points?", "点"), ("rounds?", "ラウンド"),
          ("tricks?", "トリック"), ("turns?", "ターン"), ("hands?", "局"), ("han", "翻"), ("suits?", "スート"),
          ("kinds?|types?", "種"), ("sets?", "セット"), ("places?|spots?|spaces?|locations?", "か所"))
_COUNTER = re.compile(r"\b(?:(" + ")|(".join(words for words, _ in _UNITS) + r"))\b", re.I)
ALIASES = {"ターン": "手番"}  # "turns" counts what the Japanese counts in ターン or in 手番
_WORDS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_TENS = "thirty forty fifty sixty seventy eighty ninety".split()
_WORDS.update({word: 10 * tens for tens, word in enumerate(_TENS, 3)})
_NUMERAL = (r"(?:" + "|".join(sorted(_WORDS, key=len, reverse=True)) +
            r")(?:-(?:one|two|three|four|five|six|seven|eight|nine))?")
# digits (after a lone x, a factor: x2; not inside a name: Box2) or a number in words
_TOKEN = re.compile(r"(?:(?<![A-Za-z0-9_.,])|(?<=(?<![A-Za-z])[xX]))(\d+(?:\.\d+)?)(st|nd|rd|th)?(?![\w])"
                    r"|\b(" + _NUMERAL + r")\b", re.I)
# a number said in words that is no figure's: one of them, one another, in one go, one by one
_IDIOM = re.compile(r"\s+(?:of\b|another\b|by\b|go\b|or\s+(?:two|more)\b|at\s+a\s+time\b)", re.I)
_SPECIAL = re.compile(r"\b(?:(once)|(twice|thrice)|(half)|(a\s+pair\s+of)|(both)|(a\s+single))\b", re.I)
_LEAD = re.compile(r"[ \t]*-[ \t]*|[ \t]+")  # 3 cards, 3-player
_WORD = re.compile(r"[a-z’'-]+[ \t]+", re.I)  # a word between a numeral and its counter noun (3 battle cards)
_BOUND = re.compile(r"\s+or\s+(more|fewer|less)\b", re.I)
# with 3 players, a 3-player game, 4 players: — a player count; even 1 player, the 3 players to your left — people
_PLAYER_COUNT_BEFORE = re.compile(r"\b(?:with|for|at|in)\s+$", re.I)
_PLAYER_COUNT_AFTER = re.compile(r"[ \t]*-[ \t]*players?\b|[ \t]+players?(?:\s*[:)]|\s+games?\b)", re.I)
# round 2, number 3: a label after its noun, not a count; but "the game ends after round 3" states the last round
_LABEL = re.compile(r"\b(?:(rounds?)|(turns?)|(tricks?)|steps?|phases?|pages?|sheets?|stones?|numbers?|no\.|"
                    r"hands?|levels?|areas?|seats?|undressings?)\s+$", re.I)
GAME_END = re.compile(r"\bgame (?:ends|is over)|\bend of the game", re.I)
_ONCE = re.compile(r"\s*(?:(?:per|a|an|each|every|in|only|during|more)\b|$|[.,;:)])", re.I)  # once per turn; not once all
_TWICE_FACTOR = re.compile(r"\s+(?:the|as|that)\b", re.I)  # twice the VP: a factor (倍), not two uses
_TIMES_FACTOR = re.compile(r"\s+times\s+(?:the|as|that)\b", re.I)


def word_value(text: str) -> int:
    """A number in words as a number (seven, twenty-one)."""
    parts = text.lower().split("-")
    return sum(_WORDS[part] for part in parts)


def read_counter(text: str, end: int) -> tuple[str, int]:
    """The counter a numeral's noun is read as (3 battle cards: 枚) and where that noun ends; ("", end) when none of
    its next three words is a counter noun."""
    bound = _BOUND.match(text, end)
    if bound:
        return ("以上" if bound.group(1).lower() == "more" else "以下"), bound.end()
    lead = _LEAD.match(text, end)
    if lead is None:
        return "", end
    at = lead.end()
    for _ in range(3):
        counter = _COUNTER.match(text, at)
        if counter:
            return _UNITS[counter.lastindex - 1][1], counter.end()
        word = _WORD.match(text, at)
        if word is None:
            break
        at = word.end()
    return "", end


def find_english_numbers(text: str) -> list[Number]:
    """Every number English text states: digits, one … ninety before a counter noun, once, twice, three times, half,
    a pair of, both and a single before a counter noun; ordinals (1st, the first player) and idioms state none."""
    found = []
    for match in _TOKEN.finditer(text):
        if match.group(2):
            continue  # 1st, 3rd: an ordinal
        digits = match.group(1)
        if digits is None and _IDIOM.match(text, match.end()):
            continue
        unit, stop = read_counter(text, match.end())
        if digits is None and not unit:
            continue  # "one" without a counter is a word (the one who wins), not a figure
        value = (float(digits) if "." in digits else int(digits)) if digits else word_value(match.group(3))
        label = _LABEL.search(text[max(0, match.start() - 16):match.start()])
        if label and not (label.lastindex and GAME_END.search(text)):
            continue
        if label:
            unit, stop = ("ラウンド", "ターン", "トリック")[label.lastindex - 1], match.end()
        if _TIMES_FACTOR.match(text, match.end()):
            unit = "倍"
        elif unit == "人" and not (_PLAYER_COUNT_BEFORE.search(text[max(0, match.start() - 8):match.start()])
                                  or _PLAYER_COUNT_AFTER.match(text, match.end())):
            unit = "人数"
        found.append(Number(value, match.start(), match.end(), unit, match.group(0), text[match.start():stop]))
    for match in _SPECIAL.finditer(text):
        found.extend(read_special(text, match))
    return sorted(found, key=lambda n: n.start)


def read_special(text: str, match: re.Match) -> list[Number]:
    """once (1 use), twice (2 uses, or ×2 before the/as), half (a divisor of 2), a pair of, both, a single."""
    said = match.group(0)
    if match.group(1):
        return [Number(1, match.start(), match.end(), "回", said, said)] if _ONCE.match(text, match.end()) else []
    if match.group(2):
        value = 2 if said.lower() == "twice" else 3
        unit = "倍" if _TWICE_FACTOR.match(text, match.end()) else "回"
        return [Number(value, match.start(), match.end(), unit, said, said)]
    if match.group(3):
        return [Number(2, match.start(), match.end(), "分の", said, said)]
    unit, stop = read_counter(text, match.end())
    if not unit:
        return []
    value = 1 if match.group(6) else 2
    unit = "人数" if unit == "人" else unit  # both players: two people, not a player count
    return [Number(value, match.start(), match.end(), unit, said, text[match.start():stop])]


def find_players_in_clause(text: str, numbers: list[Number], number: Number, players: tuple,
                           default: int | None) -> int | None:
    """The player count an English phrase ties a number to: in its own clause (3 cards each with 4 players), else
    the last one before it (With 3 players, the … 4 cards), else `default`."""
    counts = [n for n in numbers if n.players and (not players or n.value in players)]
    start = max(text.rfind(mark, 0, number.start) for mark in ",;:()")
    stops = [at for at in (text.find(mark, number.end) for mark in ",;:()") if at >= 0]
    stop = min(stops) if stops else len(text)
    inside = [n for n in counts if start < n.start and n.end <= stop]
    if inside:
        return int(inside[0].value)
    earlier = [n for n in counts if n.end <= number.start]
    return int(earlier[-1].value) if earlier else default


def english_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """A component's English names as prose writes them: as given, in lower case, in the singular (Battle cards:
    battle card, which "battle cards" holds too)."""
    found = []
    for name in names:
        singular = re.sub(r"(?<=[a-z])s$", "", name, flags=re.I) if not name.lower().endswith("ss") else name
        for form in (name, singular):
            found += [form, form.lower(), form[:1].upper() + form[1:].lower()]
    return tuple(dict.fromkeys(found))


# the Japanese words of a figure or setup that English names in one generic word (a counter, a deal)
FIGURE_WORDS = {"トリック": "trick", "ラウンド": "round", "ターン": "turn", "手番": "turn"}
SETUP_WORDS = {"deal": ("hand", "Hand", "deal", "Deal", "dealt", "Dealt", "dealing", "Dealing"),
               "set_aside": ("dead wall", "Dead wall")}
