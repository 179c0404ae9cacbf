"""Turn a game's data into the nouns prose may state a number about: components (and their short names), setup
figures (手札, 王牌, 手番) per player count, and rule figures by their words — each with the values it accepts."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable

from ..project.expand import expand_pieces
from ..project.model import Component, Expectation, Game, Piece
from .expression_tree import read_fields
from .english import FIGURE_WORDS, SETUP_WORDS as ENGLISH_SETUP_WORDS, english_names
from .expressions import select_cards
from .figures import evaluate_figure
from .numerals import find_numbers
from .setups import pieces_used

PIECE_UNITS = frozenset({"", "枚", "個", "組", "セット", "部", "冊", "本"})
THING_COUNTERS = frozenset({"つ", "個", "か所", "ヶ所", "箇所"})  # the counters of a count of things or places
_SAME_UNIT = {"VP": "ＶＰ", "以上": "", "以下": "", "未満": "", "人数": "人"}


def normalise_unit(unit: str) -> str:
    """Units that say the same thing compare equal (VP and ＶＰ; ２０以上 states a plain number)."""
    return _SAME_UNIT.get(unit, unit)
_RUN = re.compile(r"[ァ-ヶー一-龥]{4,}")  # a word of a subset's quote that prose may name it by
SETUP_WORDS = {"deal": ("手札", "配"), "set_aside": ("王牌",), "turns": ("手番",)}


@dataclass(frozen=True)
class Context:
    players: int | None = None  # the player count the phrase speaks of (３人プレイでは, a table column)
    per: bool = False  # the phrase says per what (ずつ, 各, １人あたり)
    quoted: frozenset = frozenset()  # card values the phrase names in 「」 (「１」, 「10」)
    inputs: dict = field(default_factory=dict, hash=False)  # an expression figure's inputs (row and column headers)
    part: bool = False  # the phrase speaks of a part (このうち, a table row): counts of `where:` subsets may apply
    values: bool = False  # the phrase speaks of card values (数字は１２): a field's values may apply
    text: str = field(default="", compare=False)  # the phrase itself, for the subsets it names (クイックドローのチップ)


@dataclass(frozen=True)
class Noun:
    words: tuple[str, ...]
    label: str  # what the finding names: "battle-cards", "figure tricks", "setup deal"
    accepts: Callable[[Context], set]  # the values a number tied to this noun may have
    hint: str  # the expression that keeps the text in step with the data
    location: object = None
    units: frozenset = PIECE_UNITS  # the counter words a number about this noun carries
    card_values: frozenset = frozenset()  # the numbers its cards carry (数字 1–11): a bare one names cards, not a count
    removed: tuple = ()  # (player count, the card values its setup takes out) for a component with a `remove:`
    ranges: frozenset = frozenset()  # (lowest, highest) of each numeric field of its cards (数字 1〜11)
    near_units: frozenset = frozenset()  # counters it takes only right after one of its words (磐座 ３か所)

    def takes(self, unit: str) -> bool:
        return normalise_unit(unit) in self.units

    def takes_near(self, unit: str, text: str, start: int) -> bool:
        """「磐座 ３か所」「磐座は４つ」: a counter its quote does not write, right after its word and a particle."""
        if unit not in self.near_units:
            return False
        before = text[max(0, start - 16):start].rstrip(" 　：:・がはをの")
        return any(before.endswith(word) for word in self.words)


def build_vocabulary(game: Game, lang: str = "ja") -> list[Noun]:
    """The nouns prose in `lang` may state a number about: English names components by the edition's names and
    setups and figures by the English of their generic words (hand, round, trick)."""
    nouns = [component_noun(game, c) for c in game.components] + setup_nouns(game) + figure_nouns(game)
    if lang == "ja":
        return nouns
    given = {f"figure {f.name}": dict(f.translated_words).get(lang, ()) for f in game.figures}
    translated = [(noun, translate_words(noun, given.get(noun.label, ()))) for noun in nouns]
    return [replace(noun, words=words, hint=noun.hint.replace("|zen", ""))  # digits as English writes them
            for noun, words in translated if words]


def translate_words(noun: Noun, given: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A noun's words in English: a component's names (in the edition's language already) as English prose writes
    them; a setup's generic words translated; a figure's its words@en, and the English of its generic words."""
    if noun.label.startswith("count "):
        return english_names(noun.words)
    if noun.label.startswith("setup "):
        return ENGLISH_SETUP_WORDS.get(noun.label.removeprefix("setup "), ())
    found = [*given, *(FIGURE_WORDS[word] for word in noun.words if word in FIGURE_WORDS)]
    return english_names(tuple(dict.fromkeys(found)))


def list_names(component: Component) -> tuple[str, ...]:
    bare = re.sub(r"[（(][^）)]*[）)]$", "", component.name)  # 英雄カード（４種）: also 英雄カード
    return (component.name, bare) if bare and bare != component.name else (component.name,)


def component_noun(game: Game, component: Component) -> Noun:
    pieces = expand_pieces(component)
    narrowed = [e for e in game.expectations if e.component == component.id and e.where]
    subsets = [pieces] + [select_cards(e.where, e, pieces) for e in narrowed]
    names = list_names(component)
    named = [(words, len(chosen)) for e, chosen in zip(narrowed, subsets[1:]) if e.source
             for words in [set(_RUN.findall(e.source.quote)) - set(names)] if words]
    setups = [e for e in game.expectations if e.kind == "setup" and e.component == component.id]
    tallies = [counts for chosen in subsets for counts in count_by_field(chosen).values()]
    numbers = {v for p in pieces for v in p.card.fields.values() if isinstance(v, int) and not isinstance(v, bool)}
    used: dict = {}

    def accepts(context: Context) -> set:
        values = {len(s) for s in subsets} if context.part else {len(pieces)}
        values |= {size for words, size in named if any(w in context.text for w in words)}  # クイックドローのチップは７枚
        if context.values:
            values |= numbers
        if context.per:
            if "each" not in used:
                used["each"] = count_each_owner(pieces)
            values |= used["each"]
        for counts in tallies:
            if context.per and len(set(counts.values())) == 1:
                values |= set(counts.values())
            values |= {n for v, n in counts.items() if v in context.quoted}
        if context.players is None:  # pieces used at a player count only when the phrase names one
            return values
        if context.players not in used:
            used[context.players] = count_used(setups, pieces, context.players)
        return values | used[context.players]

    return Noun(names, f"count {component.id}", accepts, f"{{{{ count('{component.id}')|zen }}}}", component.location,
                card_values=frozenset(numbers), removed=find_removed(setups, pieces), ranges=find_ranges(pieces))


def find_ranges(pieces: list[Piece]) -> frozenset:
    """(lowest, highest) of each field whose values are all numbers."""
    return frozenset((min(values), max(values)) for values in field_values(pieces).values()
                     if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values))


def find_removed(setups: list[Expectation], pieces: list[Piece]) -> tuple:
    """(players, the numbers the removed cards carry in the fields the removal reads), per removal setup."""
    found = []
    for expectation in (e for e in setups if e.setup.remove):
        fields = read_fields(expectation.setup.remove)
        for players in expectation.players:
            kept = {id(p) for p in pieces_used(expectation, pieces, players)}
            values = {p.card.fields.get(f) for p in pieces if id(p) not in kept for f in fields}
            found.append((players, frozenset(v for v in values if isinstance(v, int) and not isinstance(v, bool))))
    return tuple(found)


def count_each_owner(pieces: list[Piece]) -> set:
    """What every owner has of one value of another field, when all have the same (プレイヤー色ごとに…チップ６枚)."""
    fields = count_by_field(pieces)
    owners = [name for name, counts in fields.items() if len(counts) > 1 and len(set(counts.values())) == 1]
    found = set()
    for owner in owners:
        for other in fields:
            if other == owner:
                continue
            pairs = Counter((str(p.card.fields.get(owner)), str(p.card.fields.get(other))) for p in pieces)
            for value in fields[other]:
                each = {pairs.get((o, value), 0) for o in fields[owner]}
                if len(each) == 1:
                    found |= each
    return found


def field_values(pieces: list[Piece]) -> dict[str, list]:
    """Each field any card has, with its value on every piece (None where a card lacks it)."""
    names = dict.fromkeys(k for p in pieces for k in p.card.fields)
    return {name: [p.card.fields.get(name) for p in pieces] for name in names}


def count_by_field(pieces: list[Piece]) -> dict[str, Counter]:
    return {name: Counter(map(str, values)) for name, values in field_values(pieces).items()
            if not any(isinstance(v, (tuple, list)) or hasattr(v, "items") for v in values)}


def count_used(setups: list[Expectation], pieces: list[Piece], players: int) -> set:
    """Pieces used at a player count, as the setups say (使うエリアカード at 3 players: 27)."""
    found = set()
    for expectation in (e for e in setups if players in e.players):
        used = pieces_used(expectation, pieces, players)
        found |= {len(used), len(pieces) - len(used)} if len(used) < len(pieces) else {len(used)}  # 計６枚を抜き
        setup = expectation.setup
        if setup.deal or setup.set_aside:  # 配られずに残るカード: what is neither dealt, drawn nor set aside
            found.add(len(used) - players * (setup.deal + setup.turns) - setup.set_aside)
        if expectation.by:
            each = set(Counter(str(p.card.fields.get(expectation.by)) for p in used).values())
            found |= each | {n * players for n in each}  # 全員: every player's set
    return found


def setup_nouns(game: Game) -> list[Noun]:
    nouns = []
    for figure, words in SETUP_WORDS.items():
        setups = [e for e in game.expectations if e.kind == "setup" and getattr(e.setup, figure)]
        if not setups:
            continue

        def accepts(context: Context, setups=setups, figure=figure) -> set:
            return {getattr(e.setup, figure) for e in setups if context.players in (None, *e.players)}

        nouns.append(Noun(words, f"setup {figure}", accepts, f"{{{{ setup('{figure}', players=N)|zen }}}}", setups[0].location,
                          frozenset({"", "枚"})))
    return nouns


def figure_nouns(game: Game) -> list[Noun]:
    nouns = []
    for figure in game.figures:
        if not figure.words or figure.kind:  # a rule in words ties no number
            continue

        def accepts(context: Context, figure=figure) -> set:
            if not isinstance(figure.value, str):
                return {figure.value}
            inputs = dict(context.inputs)
            if context.players is not None:
                inputs.setdefault("players", context.players)
            rest = [name for name in figure.inputs if name not in inputs]
            if "*" in inputs and len(rest) == 1:  # a table's column header gives the one input its row does not
                inputs[rest[0]] = inputs.pop("*")
            if set(figure.inputs) <= set(inputs):
                return {evaluate_figure(figure, {k: inputs[k] for k in figure.inputs})}
            return {ex_value for _, ex_value in figure.examples}

        units = find_figure_units(figure)
        nouns.append(Noun(figure.words, f"figure {figure.name}", accepts, f"{{{{ figure('{figure.name}')|zen }}}}",
                          figure.location, units, near_units=THING_COUNTERS if units == {""} else frozenset()))
    return nouns


def find_figure_units(figure) -> frozenset:
    """The counter word the document writes after this figure (６トリック, ３ＶＰ, １回), from its quote."""
    if figure.source is None:
        return frozenset({""})
    values = {figure.value} if not isinstance(figure.value, str) else {v for _, v in figure.examples}
    quote = figure.source.quote
    numbers = find_numbers(quote)
    units = {normalise_unit(n.unit) for n in numbers if n.value in values} or {normalise_unit(n.unit) for n in numbers}
    if any(n.value in values and quote[n.start - 1:n.start] in "×x＊*" and n.start for n in numbers):
        units.add("倍")  # ×２: a factor, which prose may write as ２倍 or 倍
    return frozenset(units or {""})  # the units of every number when the data no longer agrees with the quote
