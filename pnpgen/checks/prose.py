"""Turn prose (rulebook sentences, hand-written tables, printed card text) into findings: every literal number tied
to a known noun — a component, a setup figure, a rule figure — is held to the data, whatever the phrasing."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable

from ..errors import Location
from ..project.model import Game
from .findings import FAIL, PASS, WARN, Finding
from .numerals import Number, find_numbers, parse_number
from .vocabulary import PER_WORDS, Context, Noun

_SENTENCE = re.compile(r"[^。！？!?\n]+")
_QUOTED = re.compile(r"「([0-9０-９]+)」")
_ORDINAL = re.compile(r"\s*(?:目|番目|番|回目|位|段階|章|節)")
_PLAYER_FORM = re.compile(r"人(?:プレイ|用)")
MAX_GAP = 20  # characters between a number and its noun in one phrase (エリアカードをよくシャッフルし、…８枚)
_RANGE = "〜～~"
_LIST = "・"
_VALUES = re.compile(r"数字|番号")
_LIST_MARK = re.compile(r"^\s*(?:#+\s*)?[0-9０-９]+\s*(?:[.．]\s|[：:])")


@dataclass(frozen=True)
class Span:
    """A piece of prose to read: its text, where it starts in the source, and what surrounds it."""

    text: str
    start: int
    before: str = ""  # the previous sentence of the same paragraph, for nouns the sentence leaves out


def check_sentences(game: Game, text: str, tables: set[int], locate: Callable[[int], Location], nouns: list[Noun],
                    strict: bool, origin: str) -> list[Finding]:
    """Findings for each number in the sentences of `text` outside its table lines; `locate` turns offsets into places."""
    findings: list[Finding] = []
    previous, last_end = "", 0
    for match in _SENTENCE.finditer(text):
        if text.count("\n", 0, match.start()) in tables:
            continue
        if "\n\n" in text[last_end:match.start()]:
            previous = ""
        span = Span(match.group(0), match.start(), previous)
        findings.extend(check_span(game, span, locate, nouns, strict, origin))
        previous, last_end = match.group(0), match.end()
    return findings


def check_span(game: Game, span: Span, locate, nouns: list[Noun], strict: bool, origin: str,
               context: Context | None = None, fallback: tuple[str, ...] = ()) -> list[Finding]:
    text = span.text
    quoted = frozenset(str(parse_number(q)) for q in _QUOTED.findall(text))
    per = any(word in text for word in PER_WORDS)
    findings = []
    numbers = find_numbers(text)
    for number in numbers:
        if skipped(text, number):
            continue
        where = locate(span.start + number.start)
        if number.players and _PLAYER_FORM.match(text, number.end) and context is None:
            findings.append(check_players(game, number, where, origin))
            continue
        if number.players and context is None:
            continue
        players = context.players if context else find_players_before(numbers, number)
        here = Context(players, per or (context.per if context else False), quoted | (context.quoted if context else frozenset()),
                       context.inputs if context else {}, part=context is not None or "うち" in text,
                       values=bool(_VALUES.search(text)))
        factor = text[number.start - 1:number.start] in ("×", "x", "＊", "*")  # ×２ＶＰ: a factor, unit or not
        fitting = [n for n in nouns if factor or n.takes(number.unit)]
        noun = find_nearest_noun(text, number, fitting)
        if noun is None and not any(word in text for n in nouns for word in n.words):
            noun = find_last_noun(span.before[-MAX_GAP:], fitting)  # 手札を配ります。４人プレイでは３枚ずつ: one phrase back
            for other in fallback:
                noun = noun or find_last_noun(other, fitting)
        findings.extend(judge(game, noun, number, here, text, where, strict, origin))
    return findings


def skipped(text: str, number: Number) -> bool:
    """Ordinals (２ラウンド目), card values in quotes (「１」), list and step marks (1. , １：)."""
    after = number.end + len(number.unit)
    if _ORDINAL.match(text, after) or _ORDINAL.match(text, number.end):
        return True
    if text[number.start - 1:number.start] == "「" and text[number.end:number.end + 1] == "」":
        return True
    if text[number.end:number.end + 1] in _RANGE or (number.start and text[number.start - 1] in _RANGE):
        return True  # １〜７の数字: card values, not counts
    if text[number.end:number.end + 1] in _LIST or (number.start and text[number.start - 1] in _LIST):
        return True  # 1・2・3・down: a list of values
    if number.start < 6 and _LIST_MARK.match(text) and _LIST_MARK.match(text).end() > number.start:
        return True
    return text[after:after + 1] in ("%", "％", "mm", "m") or text[number.end:number.end + 2] in ("mm", "cm")


def find_players_before(numbers: list[Number], number: Number) -> int | None:
    earlier = [n for n in numbers if n.players and n.end <= number.start]
    return int(earlier[-1].value) if earlier else None


def find_nearest_noun(text: str, number: Number, nouns: list[Noun]) -> Noun | None:
    best, distance, best_word = None, None, ""
    for noun in nouns:
        for word in noun.words:
            for match in re.finditer(re.escape(word), text):
                gap = number.start - match.end() if match.end() <= number.start else match.start() - number.end
                if gap < 0 or gap > MAX_GAP:
                    continue
                if distance is None or gap < distance or (gap == distance and len(word) > len(best_word)):
                    best, distance, best_word = noun, gap, word
    return best


def find_last_noun(text: str, nouns: list[Noun]) -> Noun | None:
    """The noun written last in a neighbouring phrase (手札を配ります。４人プレイでは３枚ずつ)."""
    best, position = None, -1
    for noun in nouns:
        for word in noun.words:
            spot = text.rfind(word)
            if spot > position:
                best, position = noun, spot
    return best


def judge(game: Game, noun: Noun | None, number: Number, context: Context, text: str, where: Location, strict: bool,
          origin: str) -> list[Finding]:
    snippet = text.strip()[:60]
    accepted = noun.accepts(context) if noun else set()
    if noun is None or (number.value in (0, 1) and number.value not in accepted):  # 「１枚引く」「０もあり」
        if not strict or number.value in (0, 1):  # 「１枚引いて」 counts one thing; it states no figure of the game
            return []
        return [Finding(WARN, game.id, f"{origin} number not tied to the data", where, "a component or figure", number.value,
                        f"「{snippet}」: {number.text}{number.unit} names no component or figure; write an expression or "
                        "name what it counts", figure="untied")]
    check = f"{origin} {noun.label}"
    if number.value in accepted:
        return [Finding(PASS, game.id, check, where, number.value, number.value,
                        f"「{snippet}」 agrees with the data; prefer {noun.hint} so that the text follows the data")]
    shown = "、".join(str(v) for v in sorted(accepted, key=str)) or "nothing"
    data = noun.location
    at = f" ({data.file}:{data.line})" if data is not None else ""
    per_owner = not context.per and number.value in noun.accepts(replace(context, per=True))
    per = "; a count per owner needs the phrase to say per what (ずつ, 各, １人あたり)" if per_owner else ""
    expected = next(iter(accepted)) if len(accepted) == 1 else shown
    return [Finding(FAIL, game.id, check, where, expected, number.value,
                    f"「{snippet}」 states {number.text}{number.unit} but the data{at} gives {shown}{per}; "
                    f"write {noun.hint.replace('players=N', f'players={context.players or 3}')} instead of the number")]


def check_players(game: Game, number: Number, where: Location, origin: str) -> Finding:
    ok = number.value in game.players
    shown = f"{min(game.players)}–{max(game.players)}" if game.players else "none"
    return Finding(PASS if ok else FAIL, game.id, f"{origin} player count", where, shown, number.value,
                   "" if ok else f"{number.text}人 is not a player count of this game ({shown})")
