"""Turn what reading a sentence found of its numbers (claims: a player count, or a count tied to a noun in its
context) into findings: each held to the data of this build, as are the card values and removals it states."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import Location
from ..project.model import Game
from .findings import FAIL, PASS, WARN, Finding
from .noun_places import find_last_noun, find_nearest_noun, find_players_before
from .numerals import Number, parse_number
from .phrasing import JAPANESE, Phrasing
from .wording import with_totals
from .vocabulary import Context, Noun

_LIST_MARK = re.compile(r"^\s*(?:#+\s*)?[0-9０-９]+\s*(?:[.．]\s|[：:])")


@dataclass(frozen=True)
class Claim:
    """What reading says of one number of a sentence, before the data judges it: a player count (no context), or
    a count tied to nouns[noun] (None: to none) in its context."""

    number: Number
    context: Context | None = None
    noun: int | None = None
    totals: bool = False  # 計１８トリック: the figure times another (with_totals)
    counted: bool = False  # 「２：１枚」: a count paired with the value it counts


def judge_span(game: Game, span, claims: list[Claim], locate, nouns: list[Noun], strict: bool, origin: str,
               words: Phrasing = JAPANESE, cell: bool = False) -> list[Finding]:
    """The findings of a sentence (or a table cell) whose numbers reading claimed `claims`; `locate` turns offsets
    into places."""
    findings = []
    for claim in claims:
        where = locate(span.start + claim.number.start)
        if claim.context is None:
            findings.append(check_players(game, claim.number, where, origin))
            continue
        noun = None if claim.noun is None else nouns[claim.noun]
        if claim.totals:
            noun = with_totals(noun, nouns, claim.context)
        findings.extend(judge(game, noun, claim.number, claim.context, span.text, where, strict, origin,
                              counted=claim.counted))
    if not cell:
        if words.remove.search(span.text):
            findings.extend(check_removal(game, span, words.find_numbers(span.text), nouns, locate, origin, words))
        findings.extend(check_value_ranges(game, span, nouns, locate, origin, words))
    return findings


def check_value_ranges(game: Game, span, nouns: list[Noun], locate, origin: str,
                       words: Phrasing = JAPANESE) -> list[Finding]:
    """「１〜１１の数字」: the values a component's cards run over, held to the lowest and highest the data gives."""
    findings = []
    for match in words.value_range.finditer(span.text):
        low, high = parse_number(match.group(1)), parse_number(match.group(2))
        candidates = [n for n in nouns if n.ranges]
        at = Number(low, match.start(), match.end(), "", "")
        noun = (find_nearest_noun(span.text, at, candidates, words)
                or find_last_noun(span.before[-words.max_gap:], candidates, words)
                or find_last_noun(span.heading, candidates, words))
        if noun is None:
            continue
        check = f"{origin} values {noun.label.removeprefix('count ')}"
        shown = "、".join(f"{a}〜{b}" for a, b in sorted(noun.ranges))
        where = locate(span.start + match.start())
        if (low, high) in noun.ranges:
            findings.append(Finding(PASS, game.id, check, where, f"{low}〜{high}", f"{low}〜{high}"))
        else:
            findings.append(Finding(FAIL, game.id, check, where, shown, f"{low}〜{high}",
                                    f"「{span.text.strip()[:60]}」 gives the values {low}〜{high} but the cards "
                                    f"({noun.location.file}:{noun.location.line}) run {shown}"))
    return findings


def check_removal(game: Game, span, numbers: list[Number], nouns: list[Noun], locate, origin: str,
                  words: Phrasing = JAPANESE) -> list[Finding]:
    """「３人プレイ時は、エリアカードの１０と１１を抜き」: the card values a sentence takes out at a player count are
    the ones the data's removal takes out there."""
    text = span.text
    noun = next((n for n in nouns if n.removed and any(w in text for w in n.words)), None)
    if noun is None and not any(w in text for n in nouns for w in n.words):
        noun = next((n for n in nouns if n.removed and any(w in span.before + span.heading for w in n.words)), None)
    players = find_players_before(text, numbers, numbers[-1], game.players, span.players) if numbers else span.players
    if noun is None or players is None:
        return []
    named = [n for n in numbers if not n.players and not n.unit and n.value in noun.card_values and not skipped_mark(text, n)]
    removed = {v for count, values in noun.removed if count == players for v in values}
    if not named or not removed and not any(count == players for count, _ in noun.removed):
        return []
    stated = {n.value for n in named}
    check = f"{origin} removal {noun.label.removeprefix('count ')} at {players} players"
    where = locate(span.start + named[0].start)
    shown = "、".join(str(v) for v in sorted(removed)) or "none"
    if stated == removed:
        return [Finding(PASS, game.id, check, where, shown, shown, f"「{text.strip()[:60]}」 agrees with the data")]
    said = "、".join(str(v) for v in sorted(stated))
    return [Finding(FAIL, game.id, check, where, shown, said,
                    f"「{text.strip()[:60]}」 takes out {said} but the data's setup at {players} players "
                    f"({noun.location.file}:{noun.location.line}) removes {shown}")]


def skipped_mark(text: str, number: Number) -> bool:
    """A list or step mark (1. , １：) rather than a value the sentence names."""
    return number.start < 6 and bool(_LIST_MARK.match(text)) and _LIST_MARK.match(text).end() > number.start


def judge(game: Game, noun: Noun | None, number: Number, context: Context, text: str, where: Location, strict: bool,
          origin: str, counted: bool = False) -> list[Finding]:
    snippet = text.strip()[:60]
    accepted = noun.accepts(context) if noun else set()
    if noun is None or (number.value in (0, 1) and number.value not in accepted and not counted):  # 「１枚引く」「０もあり」
        if not strict or number.value in (0, 1):  # 「１枚引いて」 counts one thing; it states no figure of the game
            return []
        return [Finding(WARN, game.id, f"{origin} number not tied to the data", where, "a component or figure", number.value,
                        f"「{snippet}」: {spell(number)} names no component or figure; write an expression or "
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
                    f"「{snippet}」 states {spell(number)} but the data{at} gives {shown}{per}; "
                    f"write {noun.hint.replace('players=N', f'players={context.players or 3}')} instead of the number")]


def check_players(game: Game, number: Number, where: Location, origin: str) -> Finding:
    ok = number.value in game.players
    shown = f"{min(game.players)}–{max(game.players)}" if game.players else "none"
    return Finding(PASS if ok else FAIL, game.id, f"{origin} player count", where, shown, number.value,
                   "" if ok else f"{number.text}人 is not a player count of this game ({shown})")


def spell(number: Number) -> str:
    """The number as the prose writes it (２枚, 半分, 三倍, 3 cards)."""
    if number.said:
        return number.said
    return number.text if number.unit in number.text else number.text + number.unit
