"""Turn prose (rulebook sentences, hand-written tables, printed card text) into findings: every literal number tied
to a known noun — a component, a setup figure, a rule figure — is held to the data, whatever the phrasing."""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Callable

from ..digests import digest
from ..errors import Location
from ..project.model import Game
from .findings import Finding
from .judging import Claim, judge_span, skipped_mark
from .noun_places import find_last_noun, find_nearest_noun, find_players_before
from .numerals import Number, parse_number
from .phrasing import JAPANESE, Phrasing
from .sentences import ITEM, LEAD, read_condition, split_sentences
from .wording import counts_range, find_bracketed_noun, names_value
from .vocabulary import Context, Noun

_LIST = "・"
_TIMES = ("×", "x", "＊", "*")
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
                    memo: SentenceMemo | None = None) -> list[Finding]:
    """Findings for each number in the sentences of `text` outside its table lines; `locate` turns offsets into places;
    `subject` is what the text is about when no heading says (a card's text: its component); `words`: its language's.
    memo: for a text that `locate` puts at one place whatever the offset (a card's field), what splitting it and
    reading each of its sentences gave before (SentenceMemo)."""
    findings: list[Finding] = []
    spans = (find_spans(text, tables, game.players, subject, words) if memo is None
             else memo.spans(text, tables, game.players, subject, words))
    for span in spans:
        claims = (read_span(game.players, span, nouns, strict, words=words) if memo is None
                  else memo.read(game.players, span, nouns, strict, words))
        findings.extend(judge_span(game, span, claims, locate, nouns, strict, origin, words))
    return findings


def find_spans(text: str, tables: set[int], players: tuple, subject: str, words: Phrasing) -> list[Span]:
    """The sentences of `text` outside its table lines, each with what surrounds it (Span)."""
    spans = []
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
            heading_players = read_condition(sentence, players, words.player_mark)
        elif not item and LEAD.search(sentence):
            lead_players = read_condition(sentence, players, words.player_mark)
        if not item and not sentence.lstrip().startswith("#"):
            lead = sentence
        spans.append(Span(sentence, start, previous, heading, lead_players or heading_players, lead if item else "",
                          subject))
        if not sentence.lstrip().startswith("#"):
            previous = sentence
    return spans


class SentenceMemo:
    """What reading each sentence of a text that one place stands for (a card's field) gave: a sentence read again
    in the same surroundings, for nouns read alike, is not read again, only judged. Reading looks at nouns only
    for their words, labels, counters and card values (their vocabulary); judging asks the data, every build. A
    memo kept across builds (pnpgen watch; a build's cache, checks/kept_claims.py) reads only the sentences a save
    changed."""

    def __init__(self, kept: bool = False, vocabulary: str | None = None, splits: bool = False):
        self.nouns: list[Noun] | None = None  # the nouns (this very list) the vocabulary was taken from
        self.players: tuple | None = None  # the game's player counts, with them
        self.vocabulary = vocabulary  # the digest of what reading looks at (vocabulary_digest)
        self.claims: dict[tuple, list[Claim]] = {}
        self.seen: set[tuple] | None = set() if kept else None  # a kept memo's sentences since forget_unseen
        self.changed = False  # whether it holds what it did not when made: a kept copy of it is out of date
        self.splits = splits and kept  # whether it keeps how each text splits (a process that checks again)
        self.split: dict[tuple, list[Span]] = {}  # (text, player counts, subject, language) -> its sentences
        self.as_read: dict[tuple, bytes] = {}  # each claim's line as a kept file held it (kept_claims.py)
        self.split_seen: set[tuple] = set()

    def read(self, players: tuple, span: Span, nouns: list[Noun], strict: bool, words: Phrasing) -> list[Claim]:
        if nouns is not self.nouns or players != self.players:
            vocabulary = vocabulary_digest(players, nouns)
            self.nouns, self.players = nouns, players
            if vocabulary != self.vocabulary:
                self.vocabulary, self.claims, self.as_read, self.changed = vocabulary, {}, {}, True
        key = (span.text, span.before, span.heading, span.players, span.lead, span.subject, strict, words.lang)
        if self.seen is not None:
            self.seen.add(key)
        found = self.claims.get(key)
        if found is None:
            found = self.claims[key] = read_span(players, span, nouns, strict, words=words)  # offsets: none
            self.changed = True
        return found

    def spans(self, text: str, tables: set[int], players: tuple, subject: str, words: Phrasing) -> list[Span]:
        """find_spans(), once for each text (whose table lines are its own) in a memo that keeps splits; one build's
        texts differ (check_card_text splits each once)."""
        if not self.splits:
            return find_spans(text, tables, players, subject, words)
        key = (text, players, subject, words.lang)
        self.split_seen.add(key)
        found = self.split.get(key)
        if found is None:
            found = self.split[key] = find_spans(text, tables, players, subject, words)
        return found

    def forget_unseen(self) -> None:
        """Drop what no text or sentence read since the last call asked for: a long session keeps only its texts'."""
        if self.seen is not None:
            kept = {key: claims for key, claims in self.claims.items() if key in self.seen}
            self.changed |= len(kept) != len(self.claims)
            self.claims, self.seen = kept, set()
            self.split = {key: spans for key, spans in self.split.items() if key in self.split_seen}
            self.split_seen = set()


def vocabulary_digest(players: tuple, nouns: list[Noun]) -> str:
    """The digest of what reading a sentence looks at besides the sentence: the player counts, and each noun's words,
    label and counters and the card values it knows (sets in sorted order: the same in every process)."""
    return digest(players, [(n.words, n.label, sorted(n.units), sorted(n.near_units), sorted(n.card_values, key=repr))
                            for n in nouns])


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
    claims = read_span(game.players, span, nouns, strict, context, fallback, words)
    return judge_span(game, span, claims, locate, nouns, strict, origin, words, cell=context is not None)


def read_span(players_of_game: tuple, span: Span, nouns: list[Noun], strict: bool, context: Context | None = None,
              fallback: tuple[str, ...] = (), words: Phrasing = JAPANESE) -> list[Claim]:
    """What a sentence (or a table cell, given the `context` of its headers) says of each of its numbers; a number
    tied to no noun is left out unless `strict` lists it (judge says nothing of it otherwise)."""
    text = span.text
    cell = context is not None
    base = context or Context()
    quoted = frozenset(str(parse_number(q)) for q in words.quoted.findall(text)) | base.quoted
    per = base.per or bool(words.per.search(text) or words.one_each.search(text))
    claims = []
    numbers = words.find_numbers(text)
    pairs = {} if cell else find_pairs(text, numbers)
    for number in numbers:
        if skipped(text, number, words) or pairs.get(number.start) == "":
            continue
        if number.players and not cell:
            if words.player_form.match(text, number.end):
                claims.append(Claim(number))
            continue
        players = base.players if cell else (words.players_of or find_players_before)(
            text, numbers, number, players_of_game, span.players)
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
                or find_nearest_noun(text, number, fitting, words))
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
        if noun is None and (not strict or number.value in (0, 1)):
            continue  # judge would say nothing of it
        totals = noun is not None and noun.label.startswith("figure ") and is_total(text, number, words)  # 計１８トリック
        index = None if noun is None else next(i for i, known in enumerate(nouns) if known is noun)
        claims.append(Claim(number, here, index, totals, bool(paired)))
    return claims


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


