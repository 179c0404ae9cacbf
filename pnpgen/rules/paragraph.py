"""Turn paragraph markup into lines broken the Japanese way: a reportlab Paragraph with pnpgen's line breaking.

reportlab's own CJK wrapping (wordWrap='CJK') hangs one forbidden character into the margin, knows no
line-end prohibitions (「（【 may end a line), misses ！？〜…, and splits Latin words and numbers
anywhere. KinsokuParagraph keeps reportlab's fragments (fonts, colours, links) and replaces only
the choice of breaks, with the rules card text uses (`faces.linebreak.plan_lines`): Japanese lines
end at phrase boundaries where the measure allows, else between words (compound nouns whole); Latin words and runs
of digits (half- or full-width) stay whole unless wider than a line; kinsoku holds (oidashi, no
hanging); spaces at line ends are dropped. Lines are set ragged right, all alike. A paragraph whose style
names a Latin language in reportlab's `hyphenationLang` (an English edition's) breaks as card text of that
edition does: at spaces, after dashes and slashes, and at hyphenation points where a line would be too empty
(reportlab's own hyphenation takes any point that fits, on line after line).
"""
from __future__ import annotations

from itertools import groupby

from reportlab.platypus.paragraph import (ParaLines, Paragraph, _handleBulletWidth, cjkU,
                                          makeCJKParaLine)

from ..faces.font import font_named
from ..faces.hyphenate import Hyphenator, hyphenator_for
from ..faces.linebreak import Latin, plan_lines
from .markdown import STAND_IN

HYPHEN = "-"


def break_units(units: list, max_widths: list[float],
                hyphenator: Hyphenator | None = None) -> list[tuple[int, int, float, bool, bool]]:
    """(start, end, width, hard break, hyphen) of each line; units are reportlab cjkU glyphs with .width. Lines
    are planned by faces.linebreak (phrases, kinsoku; with a Latin edition's hyphenator, hyphens) between the
    hard breaks; a line's width includes the hyphen it ends with."""
    lines: list[tuple[int, int, float, bool, bool]] = []
    segment_start = 0
    for index in range(len(units) + 1):
        hard = index < len(units) and hasattr(units[index].frag, "lineBreak")
        if index < len(units) and not hard:
            continue
        segment_end = index + 1 if hard else index
        segment = units[segment_start:segment_end]
        latin = None if hyphenator is None else Latin(hyphenator, lambda at: hyphen_width(segment[at]))
        planned = plan_lines([str(u) for u in segment], [u.width for u in segment],
                             max_widths[len(lines):] or max_widths[-1:], latin=latin)
        if not planned:
            lines.append((segment_start, segment_end, 0.0, hard, False))
        for start, end, following, hyphen in planned:
            last = following >= len(segment)
            width = sum(u.width for u in segment[start:end]) + (hyphen_width(segment[end - 1]) if hyphen else 0.0)
            lines.append((segment_start + start, segment_end if last else segment_start + end, width, hard and last,
                          hyphen))
        segment_start = segment_end
    return lines


def hyphen_width(unit) -> float:
    """The width of a hyphen set in the font and size of the unit it follows."""
    return font_named(unit.frag.fontName).width(HYPHEN, unit.frag.fontSize)


IDEOGRAPHIC_SPACE = "\u3000"


class KinsokuParagraph(Paragraph):
    """A Paragraph that breaks lines with pnpgen's line breaking (give its style wordWrap='CJK'); full-width
    spaces (U+3000) keep their full width, at a line start too (an indent)."""

    def __init__(self, text, style=None, *args, **kwargs):
        super().__init__(text.replace(IDEOGRAPHIC_SPACE, STAND_IN) if isinstance(text, str) else text, style,
                         *args, **kwargs)

    def getPlainText(self, identify=None):
        return super().getPlainText(identify).replace(STAND_IN, IDEOGRAPHIC_SPACE)

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
        if getattr(self, "_units_of", None) is not self.frags:  # every pass of a document wraps it again
            self._units_of, self._units, self._plans = self.frags, make_units(self.frags), {}
        plan = self._plans.get(tuple(maxWidths))
        if plan is None:
            hyphenator = hyphenator_for(getattr(style, "hyphenationLang", None) or None)
            plan = self._plans[tuple(maxWidths)] = break_units(self._units, maxWidths, hyphenator)
        auto = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
        lines = []
        for start, end, width, hard, hyphen in plan:  # fresh lines each time: splitting a paragraph edits its lines
            max_width = maxWidths[min(len(lines), len(maxWidths) - 1)]
            runs = join_runs(self._units[start:end]) + ([Run(HYPHEN, self._units[end - 1].frag)] if hyphen else [])
            lines.append(makeCJKParaLine(runs, max_width, width, max_width - width, hard, auto not in ("", "off")))
        return ParaLines(kind=1, lines=lines)


class Run(str):
    """Glyphs of one frag side by side, as makeCJKParaLine reads them: their text and the frag."""

    def __new__(cls, text: str, frag):
        run = super().__new__(cls, text)
        run.frag = frag
        return run


def join_runs(units: list) -> list[Run]:
    """The units with each run of one frag made one: makeCJKParaLine then makes the same line, comparing
    frags and measuring fonts once a run instead of once a character (frags compare by identity)."""
    return [Run("".join(run), frag) for frag, run in groupby(units, key=lambda unit: unit.frag)]


def make_units(frags: list) -> list:
    """One reportlab cjkU glyph (with its frag and width) per character of the frags."""
    units = []
    for frag in frags:
        text = frag.text.decode("utf8") if isinstance(frag.text, bytes) else frag.text
        text = text.replace(STAND_IN, IDEOGRAPHIC_SPACE)
        units.extend([cjkU(char, frag, "utf8") for char in text] if text else [cjkU(text, frag, "utf8")])
    return units
