"""Turn a story of flowables into paged PDF bytes: frames, running heads and numbers, contents, outline, booklet."""
from __future__ import annotations

import io
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from .. import units
from ..faces.hyphenate import hyphenator_for
from .flowables import GREY, RULE, Heading2, Look, pad_cells, text_size


@dataclass(frozen=True)
class PageSpec:
    """A page size and the margins around a text frame whose width is a whole number of body characters."""

    name: str
    width: float
    height: float
    top: float
    bottom: float
    side: float
    size: float  # body text size in pt

    @property
    def frame_width(self) -> float:
        raw = self.width - 2 * self.side
        return int(raw / self.size + 1e-6) * self.size  # a line of full-width characters fills it exactly

    @property
    def frame_left(self) -> float:
        return (self.width - self.frame_width) / 2


# name: (width, height) mm, (top, bottom, side) margins mm, body size pt. The page number sits half-way
# down the bottom margin: at least 7 mm from the edge, clear of the 6 mm home printers cannot print.
RULE_PAGES = {
    "a4": ((210.0, 297.0), (20, 20, 20), 10.0),
    "letter": ((215.9, 279.4), (20, 20, 20), 10.0),
    "a5": ((148.0, 210.0), (15, 17, 14), 9.0),
    "half-letter": ((139.7, 215.9), (15, 17, 14), 9.0),
}


def make_page_spec(name: str, size: float | None = None) -> PageSpec:
    """The rulebook's page: a4 or letter (10 pt body), a5 or half-letter (9 pt body)."""
    if name not in RULE_PAGES:
        raise ValueError(f"page '{name}' is not a rulebook page size; expected one of {', '.join(RULE_PAGES)}")
    (width, height), (top, bottom, side), body = RULE_PAGES[name]
    return PageSpec(name, units.mm(width), units.mm(height), units.mm(top), units.mm(bottom), units.mm(side),
                    size or body)


class RulebookDoc(BaseDocTemplate):
    """Pages with a running head and a page number; headings become bookmarks, outline and contents entries."""

    def __init__(self, target, spec: PageSpec, look: Look, *, title: str, subject: str, head: str,
                 numbered: bool = True, note: str = "", page_limit: int | None = None, **kwargs):
        super().__init__(target, pagesize=(spec.width, spec.height), invariant=1, pageCompression=1,
                         title=title, author="pnpgen", creator="pnpgen", subject=subject, lang=look.language or "ja",
                         initialFontName=look.regular, leftMargin=spec.frame_left, rightMargin=spec.frame_left,
                         topMargin=spec.top, bottomMargin=spec.bottom, **kwargs)
        self.spec, self.look, self.head, self.numbered, self.note = spec, look, head, numbered, note
        frame = Frame(spec.frame_left, spec.bottom, spec.frame_width, spec.height - spec.top - spec.bottom,
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id="text")
        self.addPageTemplates([PageTemplate("page", [frame], onPage=self.decorate)])
        self.page_count = 0
        self.page_limit = page_limit

    def beforeDocument(self):
        self.outline_levels: list[int] = []
        self.canv.showOutline()

    def decorate(self, canvas: Canvas, doc) -> None:
        """Running head (from page 2) and the page number at the foot."""
        spec, look = self.spec, self.look
        self.page_count = doc.page
        if self.page_limit is not None and doc.page > self.page_limit:
            raise PageLimit  # the caller wants no more pages: typesetting the rest would be thrown away
        canvas.saveState()
        small = text_size(look, 0.78)
        if doc.page > 1 and self.head:
            y = spec.height - spec.top + small * 1.6
            canvas.setFont(look.regular, small)
            canvas.setFillColor(GREY)
            canvas.drawString(spec.frame_left, y, self.head)
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(0.4)
            canvas.line(spec.frame_left, y - small * 0.6, spec.frame_left + spec.frame_width, y - small * 0.6)
        if self.numbered:
            canvas.setFont(look.regular, text_size(look, 0.85))
            canvas.setFillColor(colors.HexColor("#3a3430"))
            canvas.drawCentredString(spec.width / 2, spec.bottom / 2 - look.size * 0.3, str(doc.page))
        if self.note and doc.page == 1:  # a printing note where the cover has no running head
            canvas.setFont(look.regular, text_size(look, 0.7))
            canvas.setFillColor(GREY)
            canvas.drawCentredString(spec.width / 2, spec.height - spec.top * 0.65, self.note)  # the cover's head
        canvas.restoreState()

    def afterFlowable(self, flowable):
        if not isinstance(flowable, Heading2):
            return
        # A level may not jump by more than one below the previous entry (PDF outline rule).
        level = min(flowable.outline_level, (self.outline_levels[-1] + 1) if self.outline_levels else 0)
        self.outline_levels.append(level)
        self.canv.bookmarkPage(flowable.key)
        self.canv.addOutlineEntry(flowable.plain, flowable.key, level, closed=False)
        self.notify("TOCEntry", (level, escape(flowable.plain), self.page, flowable.key))


def make_contents(look: Look) -> TableOfContents:
    """The table of contents: sections bold, subsections indented, dot leaders to the page numbers. Its entries are
    reportlab's own paragraphs: a Latin edition's wrap at spaces, as CJK wrapping would cut its words anywhere."""
    s = look.size
    wrap = None if hyphenator_for(look.language) else "CJK"
    level0 = ParagraphStyle("toc0", fontName=look.bold, fontSize=s, leading=s * 1.6, wordWrap=wrap,
                            spaceBefore=s * 0.2, rightIndent=s * 3)
    level1 = ParagraphStyle("toc1", parent=level0, fontName=look.regular, fontSize=text_size(look, 0.95),
                            leading=s * 1.45, leftIndent=s * 2, spaceBefore=0)
    rows = TableStyle([("FONT", (0, 0), (-1, -1), look.regular, s), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                       *pad_cells(0, 0, 0, 0)])
    return TableOfContents(levelStyles=[level0, level1], dotsMinLevel=0, tableStyle=rows)


def order_booklet(pages: int) -> list[tuple[int | None, int | None]]:
    """Saddle-stitch imposition: (left, right) 1-based page numbers of each sheet side, front then back; the
    page count is padded to a multiple of four with blanks (None)."""
    n = max(4, -(-pages // 4) * 4)
    sides = [side for k in range(n // 4) for side in ((n - 2 * k, 2 * k + 1), (2 * k + 2, n - 2 * k - 1))]
    return [tuple(number if number <= pages else None for number in side) for side in sides]


class BookletCanvas(Canvas):
    """A canvas that keeps each A5 page as a form and, on save, imposes them two-up on A4 landscape sheets."""

    flip = "short"  # or "long": the back sides turned 180°, for a printer flipping on the long edge
    sheet = (units.mm(297), units.mm(210))  # the landscape sheet (width, height)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorded: list[str] = []
        self.marks: dict[int, list[str]] = {}  # page index (0-based) -> bookmark keys on it

    def showPage(self):
        width, height = self._pagesize
        name = f"BookletPage{len(self.recorded) + 1}"
        form = pdfdoc.PDFFormXObject(lowerx=0, lowery=0, upperx=width, uppery=height)
        form.compression = self._pageCompression
        form.setStreamList([self._preamble] + self._code)
        self._setColorSpace(form)
        self._setExtGState(form)
        self._setXObjects(form)
        self._doc.addForm(name, form)
        self.recorded.append(name)
        self._startPage()

    def bookmarkPage(self, key, **kwargs):
        self.marks.setdefault(len(self.recorded), []).append(key)

    def linkRect(self, *args, **kwargs):  # links inside imposed pages would point at sheets: leave them out
        return None

    def linkAbsolute(self, *args, **kwargs):
        return None

    def save(self):
        if self._code:
            self.showPage()
        width, height = self._pagesize
        sheet_width, sheet_height = max(self.sheet[0], 2 * width), max(self.sheet[1], height)
        x0, y0 = (sheet_width - 2 * width) / 2, (sheet_height - height) / 2  # A5 is 148 mm: 0.5 mm to spare
        for side, (left, right) in enumerate(order_booklet(len(self.recorded))):
            self.setPageSize((sheet_width, sheet_height))
            turned = self.flip == "long" and side % 2 == 1
            if turned:
                self.saveState()
                self.translate(sheet_width, sheet_height)
                self.rotate(180)
            for slot, number in enumerate((left, right)):
                if number is None:
                    continue
                self.saveState()
                self.translate(x0 + slot * width, y0)
                self.doForm(self.recorded[number - 1])
                self.restoreState()
            if turned:
                self.restoreState()
            for number in (left, right):
                for key in self.marks.get((number or 0) - 1, []):
                    Canvas.bookmarkPage(self, key)
            Canvas.showPage(self)
        # Print dialogs that read it preselect the flip edge the imposition was made for.
        self.setViewerPreference("Duplex", "DuplexFlipShortEdge" if self.flip == "short" else "DuplexFlipLongEdge")
        self._doc.SaveToFile(self._filename, self)


def make_booklet_canvas(flip: str, sheet: str = "a4"):
    """A BookletCanvas class for a duplex flip edge and a sheet paper (a4 or letter)."""
    if flip not in ("short", "long"):
        raise ValueError(f"flip '{flip}' is not a duplex edge; expected short or long")
    width, height = units.PAPER_SIZES_MM[sheet]
    return type("BookletCanvas" + flip.title(), (BookletCanvas,),
                {"flip": flip, "sheet": (units.mm(max(width, height)), units.mm(min(width, height)))})


def typeset(story: list, spec: PageSpec, look: Look, *, title: str, subject: str, head: str, numbered: bool = True,
            booklet: str | None = None, sheet: str = "a4", note: str = "", page_limit: int | None = None
            ) -> tuple[bytes, int]:
    """PDF bytes and the page count (before imposition) of the story; booklet: None, "short" or "long"
    (the flip edge), imposed on `sheet` paper; note: a printing note at the foot of the first page.
    page_limit: a story that needs more pages is given up at the first page beyond (no bytes, that page)."""
    buffer = io.BytesIO()
    doc = RulebookDoc(buffer, spec, look, title=title, subject=subject, head=head, numbered=numbered, note=note,
                      page_limit=page_limit)
    foresee_contents(story)
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        doc.multiBuild(list(story), canvasmaker=make_booklet_canvas(booklet, sheet) if booklet else Canvas)
    except PageLimit:
        return b"", doc.page_count
    finally:
        rl_config.useA85 = saved
    return buffer.getvalue(), doc.page_count


class PageLimit(Exception):
    """A story ran beyond the pages it may take."""


def foresee_contents(story: list) -> None:
    """Fill the contents with their entries (page numbers yet unknown) before the first pass: it then lays the
    contents out at their final size and finds the final page numbers, which the second pass prints and
    confirms. Empty contents would take a third pass, to set the numbers that moved when they were filled."""
    headings = list(find_headings(story))
    levels: list[int] = []
    for level in (heading.outline_level for heading in headings):  # as RulebookDoc.afterFlowable levels them
        levels.append(min(level, levels[-1] + 1 if levels else 0))
    entries = [(level, escape(h.plain), 0, h.key) for level, h in zip(levels, headings)]
    for flowable in story:
        if isinstance(flowable, TableOfContents) and not flowable._entries:
            flowable._entries = list(entries)


def find_headings(flowables: list):
    for flowable in flowables:
        if isinstance(flowable, Heading2):
            yield flowable
        yield from find_headings(getattr(flowable, "_content", None) or [])
