"""Turn paragraph markup into lines broken the Japanese way: a reportlab Paragraph with pnpgen's kinsoku.

reportlab's own CJK wrapping (wordWrap='CJK') hangs one forbidden character into the margin, knows no
line-end prohibitions (「（【 may end a line), misses ！？〜…, and splits Latin words and numbers
anywhere. KinsokuParagraph keeps reportlab's fragments (fonts, colours, links) and replaces only
the choice of breaks, with the rules of `text.break_lines`: CJK characters break on either side;
Latin words and runs of digits (half- or full-width) stay whole unless wider than a line; a line
never starts with a NO_LINE_START character nor ends with a NO_LINE_END one (the offending unit
is pushed to the next line: oidashi, no hanging); spaces at line ends are dropped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.platypus.paragraph import (ParaLines, Paragraph, _handleBulletWidth, cjkU,
                                          makeCJKParaLine)

from ..faces.linebreak import CJK, NO_LINE_END, NO_LINE_START

_EPSILON = 1e-6
_BREAKABLE = re.compile(f"[{CJK}]")
_KEEP_TOGETHER = re.compile("[0-9A-Za-z\uff10-\uff19\uff21-\uff3a\uff41-\uff5a.,%\uff0e\uff05]")


@dataclass
class Piece:
    """Units [start, end) that break as one: a CJK character, a word, a run of spaces."""

    start: int
    end: int
    kind: str  # cjk | word | space
    width: float
    text: str


def classify(char: str) -> str:
    if char in " \t\u00a0":
        return "space"
    if _KEEP_TOGETHER.match(char):
        return "word"  # digits, full-width digits and letters: ２０ and ＶＰ never split
    return "cjk" if _BREAKABLE.match(char) else "word"


def group_pieces(units: list, start: int, end: int) -> list[Piece]:
    """Units start..end as pieces; zero-width units (line breaks, callbacks) join their neighbour."""
    pieces: list[Piece] = []
    texts: list[list[str]] = []  # joined at the end: adding to a string each time is quadratic in a long word
    for index in range(start, end):
        unit = units[index]
        char = str(unit)
        kind = classify(char) if char else "glue"
        last = pieces[-1] if pieces else None
        if last is not None and (kind == "glue" or (kind == last.kind and kind != "cjk")):
            last.end, last.width = index + 1, last.width + unit.width
            texts[-1].append(char)
        else:
            pieces.append(Piece(index, index + 1, "cjk" if kind == "glue" else kind, unit.width, ""))
            texts.append([char])
    for piece, text in zip(pieces, texts):
        piece.text = "".join(text)
    return pieces


def split_piece(pieces: list[Piece], at: int, units: list) -> None:
    """Break an overlong word into single-unit pieces so that it can wrap anywhere."""
    piece = pieces[at]
    pieces[at:at + 1] = [Piece(i, i + 1, "cjk", units[i].width, str(units[i])) for i in range(piece.start, piece.end)]


def fill(pieces: list[Piece], first: int, max_width: float, units: list) -> int:
    """Index after the last piece from `first` that fits on a line of max_width."""
    width = pending = 0.0
    index = first
    while index < len(pieces):
        piece = pieces[index]
        if piece.kind == "space":
            pending += piece.width
        elif width + pending + piece.width <= max_width + _EPSILON:
            width += pending + piece.width
            pending = 0.0
        elif index == first and piece.end - piece.start > 1:
            split_piece(pieces, index, units)
            continue
        elif index == first:
            return index + 1
        else:
            return index
        index += 1
    return index


def skip_spaces(pieces: list[Piece], index: int) -> int:
    while index < len(pieces) and pieces[index].kind == "space":
        index += 1
    return index


def last_solid(pieces: list[Piece], first: int, end: int) -> int:
    return max((i for i in range(first, end) if pieces[i].kind != "space"), default=first)


def apply_kinsoku(pieces: list[Piece], first: int, end: int) -> int:
    """Move the break earlier while the next line would start, or this one end, with a forbidden character."""
    while True:
        following = skip_spaces(pieces, end)
        last = last_solid(pieces, first, end)
        if following >= len(pieces) or last <= first:
            return end
        head, tail = pieces[following].text[:1], pieces[last].text[-1:]
        if head in NO_LINE_START or tail in NO_LINE_END:
            end = last
        else:
            return end


def break_units(units: list, max_widths: list[float]) -> list[tuple[int, int, float, bool]]:
    """(start, end, width, hard break) of each line; units are reportlab cjkU glyphs with .width."""
    lines: list[tuple[int, int, float, bool]] = []
    segment_start = 0
    for index in range(len(units) + 1):
        hard = index < len(units) and hasattr(units[index].frag, "lineBreak")
        if index < len(units) and not hard:
            continue
        segment_end = index + 1 if hard else index
        pieces = group_pieces(units, segment_start, segment_end)
        first = skip_spaces(pieces, 0)
        if first >= len(pieces):
            lines.append((segment_start, segment_end, 0.0, hard))
        while first < len(pieces):
            max_width = max_widths[min(len(lines), len(max_widths) - 1)]
            end = apply_kinsoku(pieces, first, fill(pieces, first, max_width, units))
            last = last_solid(pieces, first, end)
            following = skip_spaces(pieces, end)
            stop = segment_end if following >= len(pieces) else pieces[last].end
            width = sum(units[i].width for i in range(pieces[first].start, pieces[last].end))
            lines.append((pieces[first].start, stop, width, hard and following >= len(pieces)))
            first = following
        segment_start = segment_end
    return lines


class KinsokuParagraph(Paragraph):
    """A Paragraph that breaks lines with pnpgen's kinsoku rules (give its style wordWrap='CJK')."""

    def breakLinesCJK(self, maxWidths):
        if not isinstance(maxWidths, (list, tuple)):
            maxWidths = [maxWidths]
        if hasattr(self, "blPara") and getattr(self, "_splitpara", 0):
            return self.blPara
        style = self.style
        self.height = 0
        maxWidths = list(maxWidths)
        _handleBulletWidth(self.bulletText, style, maxWidths)
        if not self.frags:
            return ParaLines(kind=0, fontSize=style.fontSize, fontName=style.fontName, textColor=style.textColor,
                             lines=[], ascent=style.fontSize, descent=-0.2 * style.fontSize)
        units = []
        for frag in self.frags:
            text = frag.text.decode("utf8") if isinstance(frag.text, bytes) else frag.text
            units.extend([cjkU(char, frag, "utf8") for char in text] if text else [cjkU(text, frag, "utf8")])
        auto = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
        lines = []
        for start, end, width, hard in break_units(units, maxWidths):
            max_width = maxWidths[min(len(lines), len(maxWidths) - 1)]
            lines.append(makeCJKParaLine(units[start:end], max_width, width, max_width - width, hard,
                                         auto not in ("", "off")))
        return ParaLines(kind=1, lines=lines)
