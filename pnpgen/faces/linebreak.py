"""Turn text into lines no wider than a measure: Latin words at spaces, CJK anywhere kinsoku allows."""
from __future__ import annotations

import re
from typing import Callable

_EPSILON = 1e-6

# Characters that may break on either side (CJK, kana, full-width forms, CJK punctuation, … ‥);
# the supplementary private use area holds the stand-ins for :icon: tokens while breaking.
CJK = ("\u1100-\u11ff\u2025\u2026\u2e80-\u2fff\u3000-\u9fff\ua000-\ua4cf\uac00-\ud7af"
        "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff\U000f0000-\U000fffff")
_UNIT = re.compile(f"[ \\t]+|[{CJK}]|[^ \\t{CJK}]+")

NO_LINE_START = frozenset(
    "、。，．・：；？！ー）」』】〕〉》｝］ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々ゝゞヽヾ〜…‥"
    "’”〙〗〟｣･ｰ" ",.)]}!?:;%")
NO_LINE_END = frozenset("（「『【〔〈《｛［‘“〘〖〝｢" "([{")


def break_lines(text: str, max_width: float, measure: Callable[[str], float]) -> list[str]:
    """Break text into lines no wider than max_width (in measure's unit) where possible.

    "\\n" is a hard break (an empty paragraph gives an empty line). Latin words wrap at spaces and
    are split by characters only when a word alone is wider than a line. CJK characters may break
    anywhere except where kinsoku forbids: a line never starts with a NO_LINE_START character nor
    ends with a NO_LINE_END one; the offending last unit of a line is pushed down to the next line
    (oidashi; no hanging punctuation). Spaces at line starts and ends are dropped. measure must be
    additive over pieces of text (reportlab's is: it does not kern)."""
    widths: dict[str, float] = {}

    def width_of(piece: str) -> float:
        return widths[piece] if piece in widths else widths.setdefault(piece, measure(piece))

    lines = []
    for paragraph in text.split("\n"):
        pieces = _UNIT.findall(paragraph)
        start = skip_spaces(pieces, 0)
        if start >= len(pieces):
            lines.append("")
        while start < len(pieces):
            end = fill_line(pieces, start, max_width, width_of)
            end = apply_kinsoku(pieces, start, end)
            lines.append("".join(pieces[start:end]).strip(" \t"))
            start = skip_spaces(pieces, end)
    return lines


def fill_line(pieces: list[str], start: int, max_width: float, width_of: Callable[[str], float]) -> int:
    """End index (exclusive) of the longest run of pieces from start that fits; splits an overlong word."""
    width = pending = 0.0
    index = start
    while index < len(pieces):
        piece = pieces[index]
        if piece[0] in " \t":
            pending += width_of(piece)  # spaces count only once something follows them on the line
        elif width + pending + width_of(piece) <= max_width + _EPSILON:
            width += pending + width_of(piece)
            pending = 0.0
        elif index == start and len(piece) > 1:
            pieces[index:index + 1] = list(piece)  # a word wider than the line: break it anywhere
            continue
        elif index == start:
            return index + 1  # one character wider than the line: it goes on the line anyway
        else:
            return index
        index += 1
    return index


def apply_kinsoku(pieces: list[str], start: int, end: int) -> int:
    """Move the break earlier while the next line would start (or this one end) with a forbidden character."""
    while True:
        following = skip_spaces(pieces, end)
        last = max((i for i in range(start, end) if pieces[i][0] not in " \t"), default=start)
        if following >= len(pieces) or last <= start:
            return end
        if pieces[following][0] in NO_LINE_START or pieces[last][-1] in NO_LINE_END:
            end = last
        else:
            return end


def skip_spaces(pieces: list[str], index: int) -> int:
    while index < len(pieces) and pieces[index][0] in " \t":
        index += 1
    return index
