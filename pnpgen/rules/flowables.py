"""Turn rulebook blocks into reportlab platypus flowables in the rulebook's type styles."""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from xml.sax.saxutils import escape
from typing import Callable

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import CondPageBreak, HRFlowable, ListFlowable, ListItem, Spacer, Table, TableStyle
from reportlab.platypus.xpreformatted import XPreformatted

from ..faces.font import font_named, pair_family
from ..faces.hyphenate import hyphenator_for
from .figures import PieceFlowable, PieceImage
from .markdown import Code, Figure, Heading, Image, ListBlock, Para, Quote, Rule, Table as TableBlock
from .paragraph import KinsokuParagraph
from .punctuation import squeeze

INK = colors.HexColor("#231f1c")
GREY = colors.HexColor("#6b6560")
RULE = colors.HexColor("#9c948c")
ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Look:
    """Everything the type styles depend on."""

    regular: str  # reportlab font names
    bold: str
    size: float  # body size in pt
    accent: str = "#9b2c2c"
    leading: float = 1.75  # body leading as a multiple of the size
    title_scale: float = 2.1
    half_regular: str | None = None  # half-width punctuation fonts (rules_punctuation), None: no tightening
    half_bold: str | None = None
    language: str | None = None  # the edition's: a Latin one hyphenates (faces.hyphenate), None or ja as Japanese


class Heading2(KinsokuParagraph):
    """A heading that the document template bookmarks and lists in the contents."""

    def __init__(self, text, style, level: int, plain: str, key: str, rule_color=None):
        super().__init__(text, style)
        self.outline_level, self.plain, self.key, self.rule_color = level, plain, key, rule_color

    def draw(self):
        super().draw()
        if self.rule_color is not None:  # a rule under the section heading
            self.canv.saveState()
            self.canv.setStrokeColor(self.rule_color)
            self.canv.setLineWidth(0.9)
            self.canv.line(0, -2.5, self.width, -2.5)
            self.canv.restoreState()


MIN_TEXT = 7.0  # pt: no rulebook text is set smaller, whatever the body size (a rules sheet shrinks to fit)


def text_size(look: Look, factor: float) -> float:
    """A style's size as a factor of the body's, at least MIN_TEXT."""
    return max(MIN_TEXT, look.size * factor)


def make_styles(look: Look) -> dict[str, ParagraphStyle]:
    s, accent = look.size, colors.HexColor(look.accent)
    cell, caption, code = text_size(look, 0.92), text_size(look, 0.8), text_size(look, 0.9)
    body = ParagraphStyle("body", fontName=look.regular, fontSize=s, leading=s * look.leading, textColor=INK,
                          wordWrap="CJK", spaceAfter=s * 0.55, allowOrphans=0, allowWidows=0,
                          hyphenationLang=look.language if hyphenator_for(look.language) else "")
    styles = {
        "body": body,
        "item": ParagraphStyle("item", parent=body, spaceAfter=s * 0.15),
        "lead": ParagraphStyle("lead", parent=body, alignment=TA_CENTER, textColor=GREY, spaceAfter=s * 0.3),
        "title": ParagraphStyle("title", parent=body, fontName=look.bold, fontSize=s * look.title_scale,
                                leading=s * look.title_scale * 1.3, alignment=TA_CENTER, spaceAfter=s * 0.5,
                                textColor=INK),
        "h2": ParagraphStyle("h2", parent=body, fontName=look.bold, fontSize=s * 1.4, leading=s * 1.4 * 1.35,
                             textColor=accent, spaceBefore=s * 1.5, spaceAfter=s * 0.9, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=body, fontName=look.bold, fontSize=s * 1.12, leading=s * 1.12 * 1.4,
                             spaceBefore=s * 1.0, spaceAfter=s * 0.3, keepWithNext=1),
        "h4": ParagraphStyle("h4", parent=body, fontName=look.bold, spaceBefore=s * 0.6, spaceAfter=s * 0.1,
                             keepWithNext=1),
        "cell": ParagraphStyle("cell", parent=body, fontSize=cell, leading=cell * 1.4, spaceAfter=0),
        "caption": ParagraphStyle("caption", parent=body, fontSize=caption, leading=caption * 1.35,
                                  textColor=GREY, alignment=TA_CENTER, spaceAfter=0),
        "code": ParagraphStyle("code", parent=body, fontSize=code, leading=code * 1.5,
                               backColor=colors.HexColor("#f3f0ea"), borderPadding=4),
    }
    styles["cell_head"] = ParagraphStyle("cell_head", parent=styles["cell"], fontName=look.bold)
    return styles


def mix(colour: colors.Color, amount: float) -> colors.Color:
    """The colour mixed into white (no transparency: it must survive forms and every printer)."""
    return colors.Color(*(1 - amount * (1 - c) for c in (colour.red, colour.green, colour.blue)))


def measure_cell(markup: str, font: str, size: float) -> float:
    """Width of a cell's text on one line (tags removed), for column widths."""
    lines = unescape(_TAG.sub("", markup.replace("<br/>", "\n"))).split("\n")
    return max(font_named(font).width(line, size) for line in lines)


def share_widths(natural: list[float], available: float, minimum: float) -> list[float]:
    """Column widths: natural widths when they fit, else water-filling (narrow columns keep theirs)."""
    natural = [max(n, minimum) for n in natural]
    if sum(natural) <= available:
        return natural
    widths, left, order = list(natural), available, sorted(range(len(natural)), key=lambda i: natural[i])
    for rank, index in enumerate(order):  # narrowest first: a column narrower than its share keeps its width
        share = left / (len(order) - rank)
        if natural[index] > share:
            for i in order[rank:]:
                widths[i] = share
            break
        left -= natural[index]
    return widths


def pad_cells(left: float, right: float, top: float, bottom: float) -> list[tuple]:
    """TableStyle commands giving every cell these paddings."""
    return [(f"{side}PADDING", (0, 0), (-1, -1), amount)
            for side, amount in zip(("LEFT", "RIGHT", "TOP", "BOTTOM"), (left, right, top, bottom))]


def interleave(items: list, filler) -> list:
    """items with filler between each two: [a, f, b, f, c]."""
    return [part for item in items for part in (filler, item)][1:]


class Typesetter:
    """Blocks → flowables for a frame `width` points wide."""

    def __init__(self, look: Look, width: float, resolve: Callable[[Image], PieceImage]):
        self.look, self.width, self.resolve = look, width, resolve
        self.styles = make_styles(look)
        pair_family(look.regular, look.bold)
        if look.half_regular and look.half_bold:  # <b> around a tightened mark picks the bold half font
            pair_family(look.half_regular, look.half_bold)
        self.headings = 0

    def tighten(self, markup: str, style: ParagraphStyle) -> str:
        """Markup with consecutive full-width marks tightened (when the look has half-width fonts)."""
        if not self.look.half_regular:
            return markup
        half = self.look.half_bold if style.fontName == self.look.bold else self.look.half_regular
        return squeeze(markup, half)

    def paragraph(self, markup: str, style: ParagraphStyle) -> KinsokuParagraph:
        return KinsokuParagraph(self.tighten(markup, style), style)

    def flowables(self, blocks: list, style: str = "body") -> list:
        out = []
        for index, block in enumerate(blocks):
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            if isinstance(block, Heading) and isinstance(following, Heading) and 2 <= block.level < following.level:
                out.extend(self.heading(block, self.heading_room(following)))  # a section opening on a subsection
            else:
                out.extend(self.flowable(block, style))
        return out

    def flowable(self, block, style: str = "body") -> list:
        if isinstance(block, Heading):
            return self.heading(block)
        if isinstance(block, Para):
            return [self.paragraph(block.markup, self.styles[style])]
        if isinstance(block, ListBlock):
            return [self.listing(block)]
        if isinstance(block, TableBlock):
            return [self.table(block), Spacer(1, self.look.size * 0.7)]
        if isinstance(block, Figure):
            return [self.figure(block), Spacer(1, self.look.size * 0.6)]
        if isinstance(block, Quote):
            return self.quote(block)
        if isinstance(block, Code):
            return [XPreformatted(escape(block.text), self.styles["code"])]
        if isinstance(block, Rule):
            return [HRFlowable(width="100%", thickness=0.5, color=RULE, spaceBefore=4, spaceAfter=8)]
        raise TypeError(f"unknown block {block!r}")

    def heading_room(self, block: Heading) -> float:
        """The height a heading takes with what keeps it company: spacing and two lines."""
        style = self.styles[f"h{min(block.level, 4)}"]
        return style.spaceBefore + style.leading * 2 + style.spaceAfter

    def heading(self, block: Heading, extra: float = 0.0) -> list:
        """extra: the room a heading right after it needs, kept on the same page with it."""
        if block.level == 1:
            return [self.paragraph(block.markup, self.styles["title"])]
        self.headings += 1
        key = f"h{self.headings}"
        if block.level >= 4:
            return [self.paragraph(block.markup, self.styles["h4"])]
        style = self.styles[f"h{block.level}"]
        rule = colors.HexColor(self.look.accent) if block.level == 2 else None
        # Room for the heading and three lines of what follows, or the heading moves to the next page.
        need = self.heading_room(block) + self.look.size * self.look.leading * 3 + extra
        return [CondPageBreak(need), Heading2(self.tighten(block.markup, style), style, block.level - 2, block.text,
                                              key, rule)]

    def listing(self, block: ListBlock) -> ListFlowable:
        s = self.look.size
        items = [ListItem(self.flowables(list(item), "item") or [Spacer(1, 0)]) for item in block.items]
        common = dict(leftIndent=s * 1.8, bulletColor=colors.HexColor(self.look.accent), spaceAfter=s * 0.5)
        if block.ordered:
            return ListFlowable(items, bulletType="1", start=block.start, bulletFormat="%s.",
                                bulletFontName=self.look.bold, bulletFontSize=s, **common)
        return ListFlowable(items, bulletType="bullet", start="•", bulletFontName=self.look.regular,
                            bulletFontSize=text_size(self.look, 0.9), bulletOffsetY=0, **common)

    def table(self, block: TableBlock):
        s = self.look.size
        pad = s * 0.5
        head, cell = self.styles["cell_head"], self.styles["cell"]
        columns = len(block.header)
        rows = [(list(row) + [""] * columns)[:columns] for row in [block.header, *block.rows]]
        natural = [max(measure_cell(row[c], head.fontName if r == 0 else cell.fontName, cell.fontSize)
                       for r, row in enumerate(rows)) + 2 * pad + 1 for c in range(columns)]
        widths = share_widths(natural, self.width, s * 2.5)
        aligns = [ALIGN.get(block.align[c] if c < len(block.align) else "left", TA_LEFT) for c in range(columns)]
        styles = [[ParagraphStyle(f"{base.name}-{c}", parent=base, alignment=aligns[c]) for c in range(columns)]
                  for base in (head, cell)]
        data = [[self.paragraph(text, styles[min(r, 1)][c]) for c, text in enumerate(row)] for r, row in enumerate(rows)]
        accent = colors.HexColor(self.look.accent)
        tint = mix(accent, 0.12)
        table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), self.look.regular, s),  # Table's default would be Helvetica
            ("BACKGROUND", (0, 0), (-1, 0), tint),
            ("LINEABOVE", (0, 0), (-1, 0), 0.9, accent),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, accent),
            ("LINEBELOW", (0, 1), (-1, -1), 0.35, RULE),
            ("LINEBELOW", (0, -1), (-1, -1), 0.9, accent),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            *pad_cells(pad, pad, s * 0.3, s * 0.45),
        ]))
        return table

    def figure(self, block: Figure):
        """A row of pieces, bottoms aligned, each caption centred under its piece."""
        images = [self.resolve(image) for image in block.images]
        gap = self.look.size * 1.2
        total = sum(i.width for i in images) + gap * (len(images) - 1)
        scale = min(1.0, self.width / total)
        pictures = [PieceFlowable(i, i.width * scale, self.look.regular) for i in images]
        captions = [self.paragraph(escape(i.caption), self.styles["caption"]) for i in images]
        rows = [interleave(pictures, ""), *([interleave(captions, "")] if any(i.caption for i in images) else [])]
        widths = interleave([p.width for p in pictures], gap)
        table = Table(rows, colWidths=widths, hAlign="CENTER")
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), self.look.regular, self.look.size),
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
            *pad_cells(0, 0, 0, 0),
            ("BOTTOMPADDING", (0, 0), (-1, 0), self.look.size * 0.3),
            ("NOSPLIT", (0, 0), (-1, -1)),  # a caption never leaves its picture at a page break
        ]))
        return table

    def quote(self, block: Quote) -> list:
        inner = Typesetter(self.look, self.width - self.look.size * 2.2, self.resolve)
        inner.headings = self.headings
        content = inner.flowables(list(block.blocks), "item")
        self.headings = inner.headings
        accent = colors.HexColor(self.look.accent)
        table = Table([[content]], colWidths=[self.width])
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), self.look.regular, self.look.size),
            ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f5f1ea")),
            ("LINEBEFORE", (0, 0), (0, -1), 2.2, accent),
            *pad_cells(self.look.size, self.look.size, self.look.size * 0.6, self.look.size * 0.5),
        ]))
        return [table, Spacer(1, self.look.size * 0.8)]
