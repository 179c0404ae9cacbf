"""Turn prose (rulebook sentences, hand-written tables, printed card text) into findings: every literal number tied
to a known noun — a component, a setup figure, a rule figure — is held to the data, whatever the phrasing."""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Callable

from ..errors import Location
from ..project.model import Game
from .findings import FAIL, PASS, WARN, Finding
from .noun_places import find_last_noun, find_nearest_noun, find_players_before
from .numerals import Number, parse_number
from .phrasing import JAPANESE, Phrasing
from .sentences import ITEM, LEAD, read_condition, split_sentences
from .wording import counts_range, find_bracketed_noun, names_value, with_totals
from .vocabulary import Context, Noun

_LIST = "・"
_TIMES = ("×", "x", "＊", "*")
_LIST_MARK = re.compile(r"^\s*(?:#+\s*)?[0-9０-９]+\s*(?:[.．]\s|[：:])")
_COLON = re.compile(r"\s*[：:]\s*")
_NEWLINE = re.compile("\n")


@dataclass(frozen=True)
class Span:
    """A piece of prose to read: its text, where it starts in the source, and what surrounds it."""

    text: str
    start: int
    before: str = ""  # the previous sentence (of the paragraph, else of the one before), for nouns it leaves out
    heading: str = ""  # the heading above it: the subject of a section whose sentences name none
    players: int | None = None  # the player count its heading or list lead states (### ３人プレイの場合)
    lead: str = ""  # the sentence that introduces the list it is an item of (ロンカードの枚数：)
    subject: str = ""  # what a card's text is about (its component), for the values it names (数字は１２)


def check_sentences(game: Game, text: str, tables: set[int], locate: Callable[[int], Location], nouns: list[Noun],
                    strict: bool, origin: str, subject: str = "", words: Phrasing = JAPANESE,
                    memo: dict | None = None) -> list[Finding]:
    """Findings for each number in the sentences of `text` outside its table lines; `locate` turns offsets into places;
    `subject` is what the text is about when no heading says (a card's text: its component); `words`: its language's.
    memo: for a text that `locate` puts at one place whatever the offset (a card's field), the findings of the
    sentences read before for the same game, nouns and strictness (see check_span_once)."""
    findings: list[Finding] = []
    previous, heading, lead, last_end = "", "", "", 0
    heading_players = lead_players = None
    breaks = [m.start() for m in _NEWLINE.finditer(text)]
    for start, end in split_sentences(text, words.sentence_break):
        gap = text[last_end:start]
        sentence = text[start:end]
        last_end = end
        if bisect_left(breaks, start) in tables:  # the line the sentence starts on
            continue
        item = bool(ITEM.match(sentence))
        if "\n\n" in gap and not item:
            lead_players = None
        if sentence.lstrip().startswith("#"):
            heading, lead_players, previous = sentence, None, ""
            heading_players = read_condition(sentence, game.players, words.player_mark)
        elif not item and LEAD.search(sentence):
            lead_players = read_condition(sentence, game.players, words.player_mark)
        if not item and not sentence.lstrip().startswith("#"):
            lead = sentence
        span = Span(sentence, start, previous, heading, lead_players or heading_players, lead if item else "", subject)
        if memo is None:
            findings.extend(check_span(game, span, locate, nouns, strict, origin, words=words))
        else:
            findings.extend(check_span_once(memo, game, span, locate, nouns, strict, origin, words))
        if not sentence.lstrip().startswith("#"):
            previous = sentence
    return findings


def check_span_once(memo: dict, game: Game, span: Span, locate, nouns: list[Noun], strict: bool,
                    origin: str, words: Phrasing = JAPANESE) -> list[Finding]:
    """check_span of a sentence in a text whose every offset `locate` puts at one place: a sentence read before in
    the same surroundings (the span but for where it starts) and of the same origin has the same findings, here."""
    key = (span.text, span.before, span.heading, span.players, span.lead, span.subject, origin, words.lang)  # all but start
    found = memo.get(key)
    if found is None:
        found = memo[key] = check_span(game, replace(span, start=0), lambda offset: None, nouns, strict, origin,
                                       words=words)
    if not found:
        return found
    where = locate(span.start)
    return [replace(finding, location=where) for finding in found]


def find_pairs(text: str, numbers: list[Number]) -> dict[int, str]:
    """「２：１枚」: the count after a value and a colon, by the count's start, with the value it counts."""
    pairs = {}
    for first, second in zip(numbers, numbers[1:]):
        if not first.unit and _COLON.fullmatch(text, first.end, second.start):
            pairs[second.start] = str(first.value)
            pairs[first.start] = ""
    return pairs


def check_span(game: Game, span: Span, locate, nouns: list[Noun], strict: bool, origin: str,
               context: Context | None = None, fallback: tuple[str, ...] = (),
               words: Phrasing = JAPANESE) -> list[Finding]:
    """Findings for each number of a sentence, or (given the `context` of its headers) of a table cell."""
    text = span.text
    cell = context is not None
    base = context or Context()
    quoted = frozenset(str(parse_number(q)) for q in words.quoted.findall(text)) | base.quoted
    per = base.per or words.is_per(text) or bool(words.one_each.search(text))
    findings = []
    numbers = words.find_numbers(text)
    pairs = {} if cell else find_pairs(text, numbers)
    for number in numbers:
        if skipped(text, number, words) or pairs.get(number.start) == "":
            continue
        where = locate(span.start + number.start)
        if number.players and not cell:
            if words.player_form.match(text, number.end):
                findings.append(check_players(game, number, where, origin))
            continue
        players = base.players if cell else (words.players_of or find_players_before)(
            text, numbers, number, game.players, span.players)
        paired = frozenset({pairs[number.start]}) if number.start in pairs else frozenset()
        part = cell or bool(words.part.search(text)) or bool(paired)
        here = Context(players, per, quoted | paired, base.inputs, part=part,
                       values=bool(words.values.search(text)) and not number.unit, text=text)  # 数字は１２, not 数字が３枚ずつ
        # ×２ＶＰ: a factor, unit or not; English sets a space after its sign (areas × 2 VP)
        factor = (text[:number.start].rstrip(" ") if words.lang != "ja" else text[:number.start])[-1:] in _TIMES
        if factor or text[number.end + len(number.unit):][:1] in _TIMES:  # ５人×３枚: a product's factor is per owner
            here = replace(here, per=True)
        fitting = [n for n in nouns if factor or words.fits(n, number)]
        if is_left(text, number, words) or cell and words.left.search(span.before + "".join(fallback[:1])):
            # 配り、残った３枚 or a row 「配られずに残るカード」: what is left of a component, not a deal
            fitting = [n for n in fitting if n.label.startswith("count ")]
        noun = (find_bracketed_noun(text, number, fitting, words.max_gap, words.lang != "ja")
                or find_nearest_noun(text, number, fitting, words.max_gap, words))
        noun = noun or next((n for n in nouns if n.takes_near(number.unit, text, number.start)), None)  # 磐座 ３か所
        if noun is None and not any(word in text for n in fitting for word in n.words):  # no noun this count can be about
            noun = find_last_noun(span.before[-words.max_gap:], fitting, words)  # 手札を配ります。４人プレイでは３枚ずつ: one phrase back
            far = (span.lead, span.heading) if number.unit or here.values else ()  # a bare 占拠２ far from its noun is a label
            far += (span.subject,) if here.values else ()  # a card's 「数字は１３」, not its 「二枚選んで」
            for other in fallback + far:
                noun = noun or find_last_noun(other, fitting, words)
        if not cell and noun is not None and names_value(text, number, noun, words.joins_values):
            continue  # 「９と１０を抜く」「５の菓子カード」: a value the component's cards have, not a count of them
        if not cell and words.lang == "ja" and counts_range(text, number):
            continue  # 「１〜３の３枚」: as many as the values the range names
        if noun is not None and noun.label.startswith("figure ") and is_total(text, number, words):
            noun = with_totals(noun, nouns, here)  # ３ラウンド（計１８トリック）: the figure times another
        findings.extend(judge(game, noun, number, here, text, where, strict, origin, counted=bool(paired)))
    if not cell and words.remove.search(text):
        findings.extend(check_removal(game, span, numbers, nouns, locate, origin, words))
    if not cell:
        findings.extend(check_value_ranges(game, span, nouns, locate, origin, words))
    return findings


def is_left(text: str, number: Number, words: Phrasing) -> bool:
    """配り、残った３枚, the 3 cards left: what is left of a component, not a deal."""
    if words.lang == "ja":
        return bool(words.left.search(text[max(0, number.start - 6):number.start]))
    return bool(words.left.search(text[max(0, number.start - 12):number.end + 24]))


def is_total(text: str, number: Number, words: Phrasing) -> bool:
    """計１８トリック, a total of 18 tricks, 18 tricks in all: a figure times another."""
    if words.lang == "ja":
        return bool(words.total.search(text[max(0, number.start - 4):number.start]))
    after = text[number.end:number.end + 24].split(",")[0].split(")")[0]
    return bool(words.total.search(text[max(0, number.start - 16):number.start]) or words.total_after.search(after))


def check_value_ranges(game: Game, span: Span, nouns: list[Noun], locate, origin: str,
                       words: Phrasing = JAPANESE) -> list[Finding]:
    """「１〜１１の数字」: the values a component's cards run over, held to the lowest and highest the data gives."""
    findings = []
    for match in words.value_range.finditer(span.text):
        low, high = parse_number(match.group(1)), parse_number(match.group(2))
        candidates = [n for n in nouns if n.ranges]
        at = Number(low, match.start(), match.end(), "", "")
        noun = (find_nearest_noun(span.text, at, candidates, words.max_gap, words)
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


def check_removal(game: Game, span: Span, numbers: list[Number], nouns: list[Noun], locate, origin: str,
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


def skipped(text: str, number: Number, words: Phrasing = JAPANESE) -> bool:
    """Ordinals (２ラウンド目), card values in quotes (「１」), list and step marks (1. , １：)."""
    after = number.end + len(number.unit)
    if (words.ordinal.match(text, after) or words.ordinal.match(text, number.end)) and not words.game_end.search(text):
        return True  # ２ラウンド目以降; but 「３ラウンド目が終わったら、ゲームが終了」 states the last round
    if any(text[number.start - 1:number.start] == left and text[number.end:number.end + 1] == right
           for left, right in words.quotes):
        return True
    following = text[number.end:number.end + 1] or "\n"  # a number that ends the sentence is followed by nothing
    if following in words.ranges or (number.start and text[number.start - 1] in words.ranges):
        return True  # １〜７の数字: card values, not counts
    if words.range_words.search(text[max(0, number.start - 6):number.start]) or \
            words.range_words.match(text[number.end:number.end + 5]):
        return True  # from 1 to 7
    if following in _LIST or (number.start and text[number.start - 1] in _LIST):
        return True  # 1・2・3・down: a list of values
    if skipped_mark(text, number):
        return True
    return text[after:after + 1] in ("%", "％", "mm", "m") or text[number.end:number.end + 2] in ("mm", "cm")


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
