"""Turn rules written in words (rounding down, clockwise, at random, the smallest first, only once, all of them) into
findings: a `kind:` figure's word held to its quote, and every sentence of the rulebooks and printed card text that
speaks of the figure (one of its `words`) held to that word."""
from __future__ import annotations

import re
from ..errors import Location
from ..project.model import Figure, Game
from .findings import FAIL, PASS, Finding

# Each axis: the word a rule takes (its canonical form) and the ways prose writes it, longest first when matched
# so that 反時計回り is never read as 時計回り.
AXES: dict[str, dict[str, tuple[str, ...]]] = {
    "rounding": {"切り捨て": ("切り捨て", "切捨て", "切捨", "切り下げ"), "切り上げ": ("切り上げ", "切上げ", "切上"),
                 "四捨五入": ("四捨五入",)},
    "direction": {"時計回り": ("時計回り", "時計まわり", "右回り", "左隣"),  # seated round a table, the left
                  "反時計回り": ("反時計回り", "反時計まわり", "左回り", "右隣")},  # neighbour is next clockwise
    "choice": {"ランダム": ("ランダム", "無作為"),
               "好きな": ("好きな", "すきな", "任意の", "自由に")},  # not 選んで: ランダムに選んで is random
    "size": {"大きい": ("大きい", "最大", "多い", "高い", "降順"), "小さい": ("小さい", "最小", "少ない", "低い", "昇順")},
    "distance": {"近い": ("近い",), "遠い": ("遠い",)},
    "limit": {"まで": ("しか", "のみ", "だけ", "まで", "限り", "以内", "いずれか", "どれか"), "以上": ("以上", "何回でも", "何度でも", "いくつでも", "無制限"),
              "全て": ("全て", "すべて")},  # not 全部: 全部で４枚 is a total
}
KIND_AXES = {"rounding": ("rounding",), "direction": ("direction",), "choice": ("choice",), "order": ("size",),
             "tie-break": ("size", "distance"), "limit": ("limit",)}
GAME_WIDE = ("rounding", "direction")  # a game rounds one way and turns one way: every such word is held to it
_PATTERNS = {axis: re.compile("|".join(sorted((re.escape(w) for ws in words.values() for w in ws), key=len, reverse=True)))
             for axis, words in AXES.items()}
_CANONICAL = {axis: {w: c for c, ws in words.items() for w in ws} for axis, words in AXES.items()}
_SENTENCE = re.compile(r"[^。！？!?\n]{1,1000}")  # bounded, so a text without full stops stays linear


def read_rule(figure: Figure) -> tuple[str, str] | None:
    """(axis, canonical word) of a `kind:` figure's value, or None when the value is no word of its kind."""
    for axis in KIND_AXES.get(figure.kind or "", ()):
        match = _PATTERNS[axis].search(figure.value)
        if match:
            return axis, _CANONICAL[axis][match.group(0)]
    return None


def check_rule_figure(game: Game, figure: Figure) -> Finding:
    """The figure's word must be one of its kind, and the word its quote states."""
    name = f"figure {figure.name}: {figure.kind} as the document states"
    rule = read_rule(figure)
    if rule is None:
        words = "、".join(c for axis in KIND_AXES[figure.kind] for c in AXES[axis])
        return Finding(FAIL, game.id, name, figure.location, words, figure.value,
                       f"'{figure.value}' is no {figure.kind} word; expected one of {words}", figure.source, figure="value")
    axis, word = rule
    if figure.source is None:
        return Finding(FAIL, game.id, name, figure.location, "a quote", figure.value,
                       "a rule in words needs the document's phrase that states it (quote:)", figure="value")
    stated = [_CANONICAL[axis][m.group(0)] for m in _PATTERNS[axis].finditer(figure.source.quote)]
    if word in stated:
        return Finding(PASS, game.id, name, figure.location, word, figure.value, "", figure.source, figure="value")
    said = "、".join(dict.fromkeys(stated)) or f"no {figure.kind} word"
    return Finding(FAIL, game.id, name, figure.location, said, figure.value,
                   f"the quote states {said}, not {figure.value}; the data and the document disagree", figure.source,
                   figure="value")


def find_rules(game: Game) -> list:
    """(figure, (axis, word)) for each rule in words of the game that has a quote."""
    rules = [(f, read_rule(f)) for f in game.figures if f.kind]
    return [(f, r) for f, r in rules if r is not None and f.source is not None]


def check_text(game: Game, text: str, locate, rules, origin: str) -> list[Finding]:
    """Each sentence of `text` that speaks of a rule in words held to the document's word."""
    if not rules:
        return []
    return [f for sentence in _SENTENCE.finditer(text)
            for f in check_sentence(game, sentence.group(0), sentence.start(), locate, rules, origin)]


def check_sentence(game: Game, sentence: str, start: int, locate, rules, origin: str) -> list[Finding]:
    findings = []
    held: set[str] = set()
    found = {axis: list(_PATTERNS[axis].finditer(sentence)) for axis in {axis for _, (axis, _) in rules}}
    for figure, (axis, word) in rules:
        phrases = found[axis]
        if not phrases or not any(w in sentence for w in figure.words):
            continue
        spots = [m for w in figure.words for m in re.finditer(re.escape(w), sentence)]
        held.add(axis)
        phrase = min(phrases, key=lambda p: min(distance(p, s) for s in spots))
        findings.append(judge(game, figure, word, axis, phrase, sentence, locate(start + phrase.start()), origin))
    for axis in GAME_WIDE:
        words = {word for f, (a, word) in rules if a == axis}
        if axis in held or len(words) != 1:
            continue
        figure = next(f for f, (a, _) in rules if a == axis)
        for phrase in found.get(axis, ()):
            if _CANONICAL[axis][phrase.group(0)] not in words:
                findings.append(judge(game, figure, next(iter(words)), axis, phrase, sentence,
                                      locate(start + phrase.start()), origin))
    return findings


def distance(phrase: re.Match, spot: re.Match) -> int:
    if phrase.start() >= spot.end():
        return phrase.start() - spot.end()
    return max(0, spot.start() - phrase.end())


def judge(game: Game, figure: Figure, word: str, axis: str, phrase: re.Match, sentence: str, where: Location,
          origin: str) -> Finding:
    found = _CANONICAL[axis][phrase.group(0)]
    snippet = sentence.strip()[:60]
    check = f"{origin} rule {figure.name}"
    if found == word:
        return Finding(PASS, game.id, check, where, figure.value, phrase.group(0), f"「{snippet}」 agrees with the document")
    return Finding(FAIL, game.id, check, where, figure.value, phrase.group(0),
                   f"「{snippet}」 says {phrase.group(0)} but the document's {figure.kind} rule is {figure.value} "
                   f"(games: figure {figure.name})", figure.source)
