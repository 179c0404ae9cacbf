"""Turn text into lines no wider than a measure: Japanese at phrase boundaries (BudouX) where the measure
allows, else between words (faces.words: a compound noun is one), Latin words at spaces, and kinsoku always;
in a Latin edition also after dashes and slashes, and at a word's hyphenation point (faces.hyphenate) where the
line would be too empty without it. Card text and rulebooks share it."""
from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from .hyphenate import Hyphenator, dash_breaks
from .words import word_starts

_EPSILON = 1e-6
MIN_FILL = 0.6  # a line is broken at a phrase boundary only if that leaves it at least this full
# A Latin word is hyphenated only when the line would be less full than this without it: ragged-right text reads
# better with few hyphens, and a line after a hyphenated one takes none unless its first word is wider than it.
HYPHENATE_BELOW = 0.8

# Characters that may break on either side (CJK, kana, full-width forms, CJK punctuation, … ‥);
# the supplementary private use area holds the stand-ins for :icon: tokens while breaking.
CJK = ("\u1100-\u11ff\u2025\u2026\u2e80-\u2fff\u3000-\u9fff\ua000-\ua4cf\uac00-\ud7af"
        "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff\U000f0000-\U000fffff")
_BREAKABLE = re.compile(f"[{CJK}]")
# Digits and letters, half- or full-width, stay together (２０ and ＶＰ never split) unless wider than a line.
_KEEP_TOGETHER = re.compile("[0-9A-Za-z\uff10-\uff19\uff21-\uff3a\uff41-\uff5a.,%\uff0e\uff05]")
SPACES = " \t"  # breakable spaces, dropped at line ends; U+3000 is a full-width character, never dropped
NO_BREAK = "\u00a0\u202f"  # no-break spaces: printed, never dropped, never a place to break ("10\u00a0cm")

NO_LINE_START = frozenset(
    "、。，．・：；？！ー）」』】〕〉》｝］ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々ゝゞヽヾ〜…‥"
    "’”〙〗〟｣･ｰ" ",.)]}!?:;%")
NO_LINE_END = frozenset("（「『【〔〈《｛［‘“〘〖〝｢" "([{")


@dataclass
class Piece:
    """Units [start, end) that break as one. level: 0 a phrase, 1 a word, 2 one character."""

    start: int
    end: int
    space: bool
    width: float
    level: int
    hyphen: bool = False  # the head of a hyphenated word: its width includes the hyphen set after it


@dataclass(frozen=True)
class Latin:
    """How a Latin edition's words break: where they take a hyphen, and how wide one is after a given unit."""

    hyphenator: Hyphenator
    hyphen_width: Callable[[int], float]


@functools.lru_cache(maxsize=2048)  # fitting asks again for each size it tries; a deck's texts are not all kept
def phrase_starts(text: str) -> frozenset[int]:
    """Offsets in text where a Japanese phrase begins (BudouX's model), besides 0."""
    if not _BREAKABLE.search(text):
        return frozenset()
    return frozenset(itertools.accumulate(map(len, _parser().parse(text))))


@functools.cache  # made when a Latin edition first breaks a line: compiling a class this wide takes a moment
def japanese_pattern() -> re.Pattern:
    return re.compile(f"[{CJK.replace(chr(0x2025) + chr(0x2026), '')}]")  # … and ‥ are Latin punctuation too


@functools.lru_cache(maxsize=1)
def _parser():
    import budoux  # loaded on first Japanese text: its model takes a moment

    return budoux.load_default_japanese_parser()


def _fine_kind(char: str) -> str:
    if char == "":
        return "glue"
    if _KEEP_TOGETHER.match(char) or not _BREAKABLE.match(char):
        return "word"
    return "cjk"


def _pieces(chars: Sequence[str], widths: Sequence[float], start: int, end: int, level: int,
            starts: frozenset[int] | None = None) -> list[Piece]:
    """Units start..end grouped at `level`: phrases (0), words (1), characters (2). starts: the units that begin
    a phrase (level 0) or a Japanese word (level 1); None at level 1: the text has no Japanese, its CJK
    characters are words of their own."""
    pieces: list[Piece] = []
    for index in range(start, end):
        char = chars[index]
        space = char != "" and char in SPACES
        last = pieces[-1] if pieces else None
        if last is not None and not last.space and (char in NO_BREAK or chars[index - 1] in NO_BREAK):
            joins = True
        elif level == 0:
            joins = last is not None and not space and not last.space and (char == "" or index not in starts)
        else:
            kind = _fine_kind(char)
            joins = last is not None and not space and (kind == "glue" or (
                level == 1 and not last.space and kind == "word" and _fine_kind(chars[index - 1]) in ("word", "glue")
                and _fine_kind(chars[last.start]) == "word") or (
                level == 1 and not last.space and starts is not None and index not in starts))
        if last is not None and (joins or (space and last.space)):
            last.end, last.width = index + 1, last.width + widths[index]
        else:
            pieces.append(Piece(index, index + 1, space, widths[index], level))
    return pieces


def plan_lines(chars: Sequence[str], widths: Sequence[float], max_widths: Sequence[float] | float,
               min_fill: float = MIN_FILL, latin: Latin | None = None) -> list[tuple[int, int, int, bool]]:
    """Break one paragraph (no hard breaks) given per unit its text (one character, or "" for a zero-width
    unit) and width: (start, end, following, hyphen) per line, where chars[start:end] is the line without spaces
    at either end, `following` is where the next line starts (len(chars) after the last line) and hyphen says
    that the line ends inside a word that takes a hyphen there.

    A line ends at a phrase boundary when that leaves it at least min_fill full; otherwise the phrase that
    does not fit is broken between its words (a compound noun is one), and a word alone wider than a line
    between its characters. Kinsoku holds: no line starts with NO_LINE_START nor ends with NO_LINE_END (the offending
    unit goes down to the next line); a line of a single unit may break it, having nowhere else to go. With
    `latin` (an edition in a Latin language) a line may also end after a dash or slash inside a word, or at
    a hyphenation point of a word that would leave the line less than HYPHENATE_BELOW full."""
    if isinstance(max_widths, (int, float)):
        max_widths = [max_widths]
    alone = _one_line(chars, widths, max_widths[0])
    if alone is not None:
        return [(*line, False) for line in alone]
    text = "".join(chars)
    offsets = list(itertools.accumulate(map(len, chars), initial=0))[:-1]  # where each unit starts in the text
    japanese = _BREAKABLE.search(text) if latin is None else japanese_pattern().search(text)
    words = _units_at(offsets, word_starts(text)) if japanese else None
    phrases = _units_at(offsets, phrase_starts(text)) if japanese or latin is None else frozenset()
    starts = phrases if words is None else phrases & words
    if latin is not None:
        starts |= _units_at(offsets, dash_breaks(text))
    pieces = _pieces(chars, widths, 0, len(chars), 0, starts)
    lines: list[tuple[int, int, int, bool]] = []
    first = _skip_spaces(pieces, 0)
    while first < len(pieces):
        max_width = max_widths[min(len(lines), len(max_widths) - 1)]
        optional = None if lines and lines[-1][3] else latin  # never two hyphenated lines in a row, unless forced
        end = _fill(pieces, first, max_width, min_fill, chars, widths, words, (latin, optional))
        end = _kinsoku(pieces, first, end, chars, widths, words)
        last = _last_solid(pieces, first, end)
        following = _skip_spaces(pieces, end)
        lines.append((pieces[first].start, pieces[last].end,
                      pieces[following].start if following < len(pieces) else len(chars), pieces[last].hyphen))
        first = following
    return lines


def _one_line(chars: Sequence[str], widths: Sequence[float], max_width: float) -> list | None:
    """The one line of a paragraph that fits on its first line, without asking BudouX or the word analyser where
    it could break; None when it may not fit, or holds spaces (dropped at line ends) or no-break spaces."""
    if not chars or any(char != "" and (char in SPACES or char in NO_BREAK) for char in chars):
        return None
    width = 0.0
    for value in widths:
        width += value
    # a margin far above the rounding of summing the same widths phrase by phrase, as the full path does
    return [(0, len(chars), len(chars))] if width <= max_width + _EPSILON - 1e-9 else None


def _units_at(offsets: Sequence[int], starts: frozenset[int]) -> frozenset[int]:
    """The units that begin at the given character offsets."""
    return frozenset(index for index, offset in enumerate(offsets) if offset in starts)


def _split(pieces: list[Piece], at: int, chars: Sequence[str], widths: Sequence[float], alone: bool,
           words: frozenset[int] | None) -> bool:
    """Replace a piece by its finer pieces; False when there are none. Only a piece alone on its line (too
    wide for any line) is broken below its words and CJK characters."""
    piece = pieces[at]
    if piece.level >= 2 or piece.end - piece.start <= 1:
        return False
    finer = _pieces(chars, widths, piece.start, piece.end, piece.level + 1, words)
    if len(finer) == 1 and piece.level == 0 and alone:
        finer = _pieces(chars, widths, piece.start, piece.end, 2)
    if len(finer) == 1 and not alone:
        return False
    pieces[at:at + 1] = finer
    return True


def _fill(pieces: list[Piece], first: int, max_width: float, min_fill: float, chars, widths, words,
          hyphens: tuple[Latin | None, Latin | None] = (None, None)) -> int:
    """Index after the last piece from `first` that goes on a line of max_width. hyphens: how a word wider than the
    line is hyphenated, and how one that would leave the line too empty is (None: it is not)."""
    width = pending = 0.0
    index = first
    while index < len(pieces):
        piece = pieces[index]
        if piece.space:
            pending += piece.width  # spaces count only once something follows them on the line
        elif width + pending + piece.width <= max_width + _EPSILON:
            width += pending + piece.width
            pending = 0.0
        elif index == first and hyphens[0] and _hyphenate(pieces, index, max_width, chars, widths, hyphens[0]):
            continue  # wider than a line alone: its head goes on this line with a hyphen
        elif index == first and _split(pieces, index, chars, widths, True, words):
            continue  # wider than a line alone: break it finer
        elif index == first:
            return index + 1  # one character wider than the line: it goes on the line anyway
        elif piece.level == 0 and width < min_fill * max_width and _split(pieces, index, chars, widths, False, words):
            continue  # breaking before this phrase would leave the line too empty: break inside it
        elif hyphens[1] and width < HYPHENATE_BELOW * max_width and _hyphenate(
                pieces, index, max_width - width - pending, chars, widths, hyphens[1]):
            continue  # breaking before this word would leave the line too empty: its head goes on it
        else:
            return index
        index += 1
    return index


def _hyphenate(pieces: list[Piece], at: int, room: float, chars: Sequence[str], widths: Sequence[float],
               latin: Latin) -> bool:
    """Split pieces[at], a whole word (or what a hyphen left of one), at its last hyphenation point whose head and
    hyphen fit in room; False when it is part of a word cut otherwise, or none fits."""
    piece = pieces[at]
    begin = at
    while begin > 0 and pieces[begin - 1].hyphen:
        begin -= 1  # the word's head went on an earlier line: its points are the whole word's
    if not (_beside_space(chars, pieces[begin].start, -1) and _beside_space(chars, piece.end, 1)):
        return False  # a part of a word (after a dash, or beside Japanese): the word breaks where it was cut
    solid = [index for index in range(pieces[begin].start, piece.end) if chars[index]]
    for point in reversed(latin.hyphenator.points("".join(chars[index] for index in solid))):
        cut = solid[point]
        if cut <= piece.start:
            break
        head = sum(widths[piece.start:cut])
        hyphen = latin.hyphen_width(solid[point - 1])
        if head + hyphen <= room + _EPSILON:
            pieces[at:at + 1] = [Piece(piece.start, cut, False, head + hyphen, piece.level, True),
                                 Piece(cut, piece.end, False, piece.width - head, piece.level)]
            return True
    return False


def _beside_space(chars: Sequence[str], index: int, step: int) -> bool:
    """Whether the first character from index (step -1: before it) is a space or the paragraph's edge."""
    if step < 0:
        index -= 1
    while 0 <= index < len(chars) and chars[index] == "":
        index += step
    return not 0 <= index < len(chars) or chars[index] in SPACES


def _kinsoku(pieces: list[Piece], first: int, end: int, chars: Sequence[str], widths: Sequence[float],
             words: frozenset[int] | None) -> int:
    """Move the break earlier while the next line would start, or this one end, with a forbidden character;
    a line of one phrase is broken inside it for that."""
    while True:
        following = _skip_spaces(pieces, end)
        last = _last_solid(pieces, first, end)
        if following >= len(pieces):
            return end
        head = next((c for c in chars[pieces[following].start:pieces[following].end] if c), "")
        tail = next((c for c in reversed(chars[pieces[last].start:pieces[last].end]) if c), "")
        if head not in NO_LINE_START and tail not in NO_LINE_END:
            return end
        if last > first:
            end = last
            continue
        count = len(pieces)
        if not _split(pieces, first, chars, widths, True, words):
            return end  # a single unit: nowhere earlier to break
        end += len(pieces) - count


def _skip_spaces(pieces: list[Piece], index: int) -> int:
    while index < len(pieces) and pieces[index].space:
        index += 1
    return index


def _last_solid(pieces: list[Piece], first: int, end: int) -> int:
    return max((i for i in range(first, end) if not pieces[i].space), default=first)


def break_lines(text: str, max_width: float, measure: Callable[[str], float], min_fill: float = MIN_FILL,
                hyphenator: Hyphenator | None = None) -> list[str]:
    """Break text into lines no wider than max_width (in measure's unit) where possible; see plan_lines. With a
    hyphenator (a Latin edition's) a line ending inside a word carries its hyphen.

    "\\n" is a hard break (an empty paragraph gives an empty line). Spaces at line starts and ends are
    dropped, a full-width space (U+3000) never. measure must be additive over characters (reportlab's is:
    it does not kern)."""
    widths = {char: measure(char) for char in set(text) | ({"-"} if hyphenator is not None else set())}  # once each
    latin = Latin(hyphenator, lambda _: widths["-"]) if hyphenator is not None else None
    lines = []
    for paragraph in text.split("\n"):
        chars = list(paragraph)
        planned = plan_lines(chars, [widths[c] for c in chars], max_width, min_fill, latin)
        lines += [paragraph[start:end] + ("-" if hyphen else "") for start, end, _, hyphen in planned] or [""]
    return lines
