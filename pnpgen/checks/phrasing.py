"""Turn an edition's language into the phrasing its prose is read by: how it writes numbers, per-owner counts, totals,
removals, ranges, player counts and sentence ends (Japanese, the original; English)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Pattern

from .english import ALIASES, GAME_END, find_english_numbers, find_players_in_clause
from .numerals import Number, find_numbers


@dataclass(frozen=True)
class Phrasing:
    lang: str
    find_numbers: Callable[[str], list[Number]]
    quoted: Pattern  # a card value in quotes (「１」, “1”)
    quotes: tuple[tuple[str, str], ...]  # the marks that open and close a quotation
    per: Pattern  # the phrase says per what (ずつ, 各, each, per)
    one_each: Pattern  # 「１雀士３枚」: a count per one owner
    part: Pattern  # the phrase speaks of a part (このうち, of them)
    values: Pattern  # the phrase speaks of card values (数字, number)
    left: Pattern  # what is left of a component (残った３枚, the 3 cards left), near the number
    total: Pattern  # a total right before the number (計１８トリック, a total of 18 tricks)
    total_after: Pattern  # one right after the number and its noun (18 tricks in all)
    game_end: Pattern
    ordinal: Pattern  # after a number: an ordinal (２ラウンド目)
    remove: Pattern  # the sentence takes cards out (抜く, remove)
    value_range: Pattern  # the values a component's cards run over (１〜１１の数字, numbers 1 to 11)
    player_form: Pattern  # after a player count: the game's player count it must be (３人プレイ, 3-player)
    ranges: str  # characters that join a range of values (１〜７)
    range_words: Pattern  # a range in words around a number (1 to 7)
    sentence_break: Pattern
    player_mark: Pattern  # the one player count a heading or a lead line states (### ３人プレイの場合)
    table_players: Pattern  # a table header that is a player count (３人, 3 players)
    table_players_column: Pattern  # a column header that is one (３人プレイ; not 「１人」, per person)
    value_words: Pattern  # a table column of card values
    qualifier: Pattern  # a column header that counts what the table is about (１人, 全員, 枚数)
    max_gap: int  # characters between a number and its noun in one phrase
    joins_values: tuple[str, str]  # the characters after and before a bare number that name a card value (９と１０)
    players_of: Callable | None = None  # the player count a phrase ties a number to, when not the one before it
    unit_aliases: dict | None = None

    def pattern(self, word: str) -> str:
        """What finds a noun's word in prose: anywhere in Japanese; in English a whole word, or its plural (deal
        and deals, not dealer)."""
        if self.lang == "ja":
            return re.escape(word)
        return r"(?<![A-Za-z])" + re.escape(word) + r"(?:s|es)?(?![A-Za-z])"

    def fits(self, noun, number: Number) -> bool:
        """The noun takes the number's counter (or the other counter English reads the same word as)."""
        alias = (self.unit_aliases or {}).get(number.unit)
        return noun.takes(number.unit) or bool(alias) and noun.takes(alias)


_NEVER = re.compile(r"(?!)")

JAPANESE = Phrasing(
    lang="ja", find_numbers=find_numbers,
    quoted=re.compile(r"「([0-9０-９]+)」"),
    quotes=(("「", "」"),),
    per=re.compile("ずつ|各|あたり|毎|ごと|につき|それぞれ"),
    one_each=re.compile(r"(?<![0-9０-９])[1１][^\s0-9０-９、。「」（）]{1,4}?[0-9０-９]"),
    part=re.compile("うち"),
    values=re.compile(r"数字|番号"),
    left=re.compile("残"),
    total=re.compile(r"計|全部で|全体で"),
    total_after=_NEVER,
    game_end=re.compile(r"ゲーム(?:が|の)?終"),
    ordinal=re.compile(r"\s*(?:目|番目|番|回目|位|段階|章|節)"),
    remove=re.compile(r"抜|除|使用しません|使いません|使わ"),
    value_range=re.compile(r"(?<![0-9０-９])([0-9０-９]+)\s*[〜～~]\s*([0-9０-９]+)\s*の?(?:数字|番号)"),
    player_form=re.compile(r"人(?:プレイ|用)"),
    ranges="〜～~",
    range_words=_NEVER,
    sentence_break=re.compile(r"[。！？!?]|\n"),
    player_mark=re.compile(r"([0-9０-９]+)\s*人(?:プレイ|用)?(?:時|の場合|の時|のとき|なら|では|で|は)"),
    table_players=re.compile(r"^([0-9０-９]+)\s*人(?:プレイ|用|で|時)?(?:の場合|時)?$"),
    table_players_column=re.compile(r"^([0-9０-９]+)\s*人(?:プレイ|用|で|時)(?:の場合|時)?$"),
    value_words=re.compile(r"数字|番号|の値"),
    qualifier=re.compile(r"人|全員|計|枚数|個数|数$"),
    max_gap=20,
    joins_values=("とのを、,や", "とのや、,"),
)

_PLAYERS = r"(\d+)(?:[ \t]*-[ \t]*|[ \t]+)players?"
_TABLE_PLAYERS = re.compile(r"^(?:with\s+)?" + _PLAYERS + r"(?:\s+game)?$", re.I)
ENGLISH = Phrasing(
    lang="en", find_numbers=find_english_numbers,
    quoted=re.compile(r"[“\"‘]([0-9]+)[”\"’]"),
    quotes=(("“", "”"), ('"', '"'), ("‘", "’")),
    per=re.compile(r"\b(?:each|per|apiece|every)\b", re.I),
    one_each=_NEVER,
    part=re.compile(r"\bof (?:them|these|those|which)\b|\bamong\b", re.I),
    values=re.compile(r"\bnumbers?\b|\bvalues?\b|\bnumbered\b", re.I),
    left=re.compile(r"\b(?:left|remaining|remain|rest)\b", re.I),
    total=re.compile(r"\b(?:total(?: of)?|in all|altogether)\s*$", re.I),
    total_after=re.compile(r"\b(?:in all|in total|altogether)\b", re.I),
    game_end=GAME_END,
    ordinal=_NEVER,  # 1st, 3rd: never read as numbers
    remove=re.compile(r"\b(?:remove|take out|leave out|not used|are not used|out of the game)", re.I),
    value_range=re.compile(r"\b(?:numbers?|values?|numbered)\s+(?:from\s+)?(\d+)\s*(?:–|—|-|~|to)\s*(\d+)", re.I),
    player_form=re.compile(""),  # every player count English writes (with 3 players, 3-player) is the game's
    ranges="〜～~–—",
    range_words=re.compile(r"\d\s*(?:-|to)\s*$|^\s*(?:-|to)\s*\d"),
    # a full stop before a space ends a sentence; the one of a list mark (2. Play…) does not
    sentence_break=re.compile(r"[.!?](?<!^\d\.)(?<!^\d\d\.)(?<!^  \d\.)(?<!^   \d\.)(?=[\s”’\"]|$)|\n", re.M),
    player_mark=re.compile(r"(?<![–—~\-0-9])" + _PLAYERS + r"\b", re.I),
    table_players=_TABLE_PLAYERS,
    table_players_column=_TABLE_PLAYERS,  # English writes a row's and a column's player count alike
    value_words=re.compile(r"\bnumbers?\b|\bvalues?\b", re.I),
    qualifier=re.compile(r"\bplayers?\b|\ball\b|\btotal\b|\bcount\b|\bcards\b|\beach\b", re.I),
    max_gap=30,
    joins_values=(",", ","),
    players_of=find_players_in_clause,
    unit_aliases=ALIASES,
)

PHRASINGS = {"ja": JAPANESE, "en": ENGLISH}


def phrasing(lang: str | None) -> Phrasing | None:
    """The phrasing of an edition's language (Japanese for None, the original); None for a language pnpgen does
    not read numbers in."""
    return PHRASINGS.get(lang or "ja")
