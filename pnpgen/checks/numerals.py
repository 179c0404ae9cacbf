"""Turn Japanese or English text into the numbers it states: ASCII, full-width and kanji numerals, with their units."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

COUNTERS = ("枚", "個", "人", "回", "つ", "点", "組", "セット", "部", "冊", "本", "種", "名", "局", "手番", "ターン",
            "トリック", "ラウンド", "ＶＰ", "VP", "翻", "か所", "ヶ所", "箇所", "スート", "倍", "以上", "以下", "未満")
_KANJI = "〇一二三四五六七八九十百"
_KANJI_VALUES = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_TOKEN = re.compile(r"[0-9０-９]+(?:[.．][0-9０-９]+)?|[" + _KANJI + "]+")
# Fractions and multiples in words: 半分 (a half), 四分の一 / ３分の１ (a divisor), 倍 alone (twice).
_FRACTION = re.compile(r"半分|([0-9０-９" + _KANJI + r"]+)分の[1１一]")
_TWICE = re.compile(r"(?<![0-9０-９" + _KANJI + r"])倍")
_COUNTER = re.compile(r"\s*(" + "|".join(sorted(map(re.escape, COUNTERS), key=len, reverse=True)) + ")")
_PLAYERS = re.compile(r"\s*人(?:プレイ|用|で|の場合|の時|のとき|時|なら|まで|〜|～|から|、|：|:|\s|$)")
_WIDE = str.maketrans("０１２３４５６７８９．", "0123456789.")
_INTEGER = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")


@dataclass(frozen=True)
class Number:
    value: float | int
    start: int
    end: int  # just after the numeral
    unit: str  # the counter word after it ("" when none)
    text: str
    said: str = ""  # the words as written when they are not its text and unit (English: "3 cards", "twice")

    @property
    def players(self) -> bool:
        """"３人プレイ", "４人：", "３〜４人用": a player count rather than a quantity."""
        return self.unit == "人"


@functools.lru_cache(maxsize=4096)  # a deck's texts state the same few numerals over and over
def parse_number(text: str) -> int | float:
    """ASCII, full-width or kanji digits (三十二, 四十六, 百) as a number."""
    text = text.translate(_WIDE)
    if _INTEGER.fullmatch(text):
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    total, digit = 0, 0
    for char in text:
        if char == "百":
            total, digit = total + (digit or 1) * 100, 0
        elif char == "十":
            total, digit = total + (digit or 1) * 10, 0
        else:
            digit = digit * 10 + _KANJI_VALUES[char]
    return total + digit


def find_numbers(text: str) -> list[Number]:
    """Every number the text states. Kanji numerals count only before a counter word or a bound (二十以上); 一斉
    and 一部 are words. A fraction (半分, 四分の一) states its divisor, a multiple (三倍, 倍) its factor."""
    found = []
    fractions = {m.start(): m for m in _FRACTION.finditer(text)}
    for match in _TOKEN.finditer(text):
        if fractions and (match.start() in fractions
                          or any(f.start() < match.start() < f.end() for f in fractions.values())):
            continue
        counter = _COUNTER.match(text, match.end())
        unit = counter.group(1) if counter else ""
        kanji = match.group(0)[0] in _KANJI
        if kanji and (not unit or text[match.start() - 1:match.start()] == "第"):  # 第三: an ordinal
            continue
        if unit == "人" and not _PLAYERS.match(text, match.end()):
            unit = "人数"  # 子プレイヤー３人: a number of people, not a player count
        found.append(Number(parse_number(match.group(0)), match.start(), match.end(), unit, match.group(0)))
    for match in fractions.values():
        divisor = parse_number(match.group(1)) if match.group(1) else 2
        found.append(Number(divisor, match.start(), match.end(), "分の", match.group(0)))
    for match in _TWICE.finditer(text):
        found.append(Number(2, match.start(), match.end(), "倍", match.group(0)))
    return sorted(found, key=lambda n: n.start)


def numbers_for_players(text: str, players: int | None) -> list[Number]:
    """The numbers (not player counts) a phrase states for a player count: its "４人…" part when it has several."""
    numbers = find_numbers(text)
    marks = [n for n in numbers if n.players]
    mine = [i for i, m in enumerate(marks) if m.value == players]
    if players is None or len({m.value for m in marks}) < 2:
        chosen = numbers
    elif not mine:
        chosen = [n for n in numbers if n.end <= marks[0].start]
    else:
        stops = [marks[i + 1].start if i + 1 < len(marks) else len(text) for i in mine]
        chosen = [n for i, stop in zip(mine, stops) for n in numbers if marks[i].end <= n.start < stop]
    return [n for n in chosen if not n.players]
