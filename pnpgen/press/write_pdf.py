"""Turn imposed pages and their faces' drawings into one PDF file, written atomically."""
from __future__ import annotations

import hashlib
import io
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase import pdfdoc
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfgen.canvas import Canvas

from ..atomic import write_atomically
from ..faces.art import FaceArt
from .impose import Mark, Page, Placement, Rect
from ..units import mm

if TYPE_CHECKING:  # svglib's drawings; reportlab.graphics is imported only by the builds that draw one
    from reportlab.graphics.shapes import Drawing

WHITE, BLACK, GREY = (1, 1, 1), (0, 0, 0), (0.5, 0.5, 0.5)
LABEL_SIZE = 6  # pt


def write_pdf(pages: Sequence[Page], drawings: Mapping[str, Drawing], path: Path, *, title: str,
              initial_font: str, bleed: float | None, author: str = "pnpgen", subject: str = "",
              margin: float = mm(6)) -> None:
    """Write the pages to path, replacing it only once the whole PDF is on disk.

    bleed: the bleed every face drawing carries on each side; None reads it per placement from the
    drawing's size (for PDFs that mix components with different bleeds).
    """
    data = pdf_bytes(pages, drawings, title=title, initial_font=initial_font, bleed=bleed, author=author,
                     subject=subject, margin=margin)
    write_atomically(Path(path), data, "PDF")


def pdf_bytes(pages: Sequence[Page], drawings: Mapping[str, Drawing], *, title: str, initial_font: str,
              bleed: float | None, author: str = "pnpgen", subject: str = "", margin: float = mm(6)) -> bytes:
    """Return the PDF of the pages as bytes (what write_pdf writes; exports rasterise it in memory)."""
    saved_a85 = rl_config.useA85
    try:
        rl_config.useA85 = 0  # ASCII85 only slows writing down and grows the file
        canvas = Canvas(io.BytesIO(), invariant=1, pageCompression=1, initialFontName=initial_font)
        canvas.setTitle(title)
        canvas.setAuthor(author)
        canvas.setSubject(subject)
        canvas.setCreator("pnpgen")
        draw_pages(canvas, pages, drawings, bleed, initial_font, margin)
        return canvas.getpdfdata()  # the bytes once, not also copied into a buffer
    finally:
        rl_config.useA85 = saved_a85


def form_name(face: str) -> str:
    """Return the PDF name of a face's Form XObject, stable across runs."""
    return "F" + hashlib.sha1(face.encode("utf-8")).hexdigest()[:16]


def draw_pages(canvas: Canvas, pages: Sequence[Page], drawings: Mapping[str, Drawing],
               bleed: float | None, font: str, margin: float) -> None:
    """Draw every page on the canvas: faces as shared forms, clipped, then marks and the label."""
    widths: dict[str, float] = {}  # form name -> the face's width; a face is fetched only to define its form
    for page in pages:
        canvas.setPageSize((page.size.width, page.size.height))
        canvas.setTrimBox(_box(page.trim_box))
        canvas.setBleedBox(_box(page.bleed_box))
        for placement in page.placements:
            name = form_name(placement.face)
            if name not in widths:
                drawing = drawings[placement.face]
                define_form(canvas, name, drawing, font)
                widths[name] = float(drawing.width)
            face_bleed = bleed if bleed is not None else (widths[name] - placement.width) / 2
            draw_placement(canvas, placement, name, face_bleed)
        draw_crop_marks(canvas, [m.points for m in page.marks if m.kind == "crop"])
        for mark in page.marks:
            if mark.kind != "crop":
                draw_mark(canvas, mark)
        draw_label(canvas, page, font, margin)
        canvas.showPage()


def _box(rect: Rect) -> tuple[float, float, float, float]:
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def define_form(canvas: Canvas, name: str, drawing: FaceArt | Drawing, font: str) -> None:
    """Record the face once as a Form XObject whose box is the face's extent."""
    if isinstance(drawing, FaceArt) and not drawing.images:
        states: dict = {}
        content = "\n".join(encode_art(canvas, drawing, states)).encode("latin-1")
        canvas._doc.addForm(name, FaceForm(zlib.compress(content), drawing.width, drawing.height, states))
        return
    if isinstance(drawing, FaceArt):  # images: reportlab's drawImage embeds and shares them
        canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
        canvas._code.extend(encode_art(canvas, drawing, {}))
        canvas.endForm()
        declare_form_resources(canvas, name)
        return
    # The renderer starts every drawing with its default font (Helvetica), which would put a
    # non-embedded font reference into the PDF; start with our own font instead.
    own = "initialFontName" in drawing.__dict__
    if not own:
        drawing.initialFontName = font
    try:
        canvas.beginForm(name, 0, 0, float(drawing.width), float(drawing.height))
        from ..faces.images import draw_drawing

        draw_drawing(drawing, canvas, 0, 0)
        canvas.endForm()
        declare_form_resources(canvas, name)
    finally:
        if not own:
            del drawing.initialFontName


def place_drawing(canvas: Canvas, drawing: FaceArt | Drawing, x: float, y: float, font: str) -> None:
    """Draw a face straight into the current page with its bottom-left corner at (x, y) (rulebook figures)."""
    if isinstance(drawing, FaceArt):
        canvas.addLiteral(f"q 1 0 0 1 {fp_str(x, y)} cm")
        canvas._code.extend(encode_art(canvas, drawing, {}))
        canvas.addLiteral("Q")
        return
    own = "initialFontName" in drawing.__dict__
    if not own:  # renderPDF would start with Helvetica, a font that is not embedded
        drawing.initialFontName = font
    try:
        from reportlab.graphics import renderPDF

        renderPDF.draw(drawing, canvas, x, y)
    finally:
        if not own:
            del drawing.initialFontName


def encode_art(canvas: Canvas, art: FaceArt, states: dict) -> list[str]:
    """A face's operators, with its text encoded in this document's font subsets, its images as this
    document's shared XObjects and its opacities as graphics states (name -> entry, filled in states)."""
    code, doc = [], canvas._doc
    for part in art.parts:
        if part.__class__ is str:
            code.append(part)
        elif part[0] == "T":
            font = pdfmetrics.getFont(art.resolved_fonts[part[1]])
            size = fp_str(part[2])
            code.append(" ".join(f"{font.getSubsetInternalName(subset, doc)} {size} Tf ({escapePDF(chunk)}) Tj"
                                 for subset, chunk in font.splitString(part[3], doc)))
        elif part[0] == "I":
            saved, canvas._code = canvas._code, code
            try:
                canvas.drawImage(str(art.resolved_images[part[1]]), 0, 0, part[2], part[3], mask="auto")
            finally:
                canvas._code = saved
        else:
            shared = canvas._extgstate._c  # reportlab writes these into the resources of pages and its forms
            name = shared.setdefault((part[1], part[2]), f"gRLs{len(shared)}")
            states[name] = (part[1], part[2])
            code.append(f"/{name} gs")
    return code


class FaceForm(pdfdoc.PDFObject):
    """A face's Form XObject, compressed when defined: formatting it at save time is one join, not the
    generic dictionary walk (which took more time than drawing), and memory holds only the compressed bytes."""

    def __init__(self, data: bytes, width: float, height: float, states: dict):
        self.data, self.width, self.height, self.states = data, width, height, states

    def format(self, document) -> bytes:
        fonts = pdfdoc.format(pdfdoc.PDFObjectReference(pdfdoc.BasicFonts), document)
        states = "".join(f"/{name} << /{key} {fp_str(value)} >> " for name, (key, value) in sorted(self.states.items()))
        resources = (b"<< " + (f"/ExtGState << {states}>> ".encode("ascii") if states else b"") + b"/Font " + fonts
                     + b" /ProcSet [ /PDF /Text ] >>")
        head = (f"<< /BBox [ 0 0 {fp_str(self.width)} {fp_str(self.height)} ] /Filter [ /FlateDecode ] /FormType 1 "
                f"/Length {len(self.data)} /Matrix [ 1 0 0 1 0 0 ] /Resources ").encode("ascii")
        return head + resources + b" /Subtype /Form /Type /XObject >>\nstream\n" + self.data + b"\nendstream\n"


def declare_form_resources(canvas: Canvas, name: str) -> None:
    """Give the form the graphics states (opacity) it uses: reportlab records them but does not write them."""
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    if not form.ExtGState:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources


def draw_placement(canvas: Canvas, placement: Placement, name: str, bleed: float) -> None:
    """Show a face's form with its trim at the placement, clipped to the placement's clip.

    Written as literal operators (q, clip rectangle, translation, Do, Q): the same PDF as saveState,
    clipPath, translate and restoreState would make, at a fraction of their cost per card; nothing
    between q and Q changes the state reportlab tracks."""
    c = placement.clip
    canvas.addLiteral(f"q {fp_str(c.x0, c.y0, c.x1 - c.x0, c.y1 - c.y0)} re W n "
                      f"1 0 0 1 {fp_str(placement.x - bleed, placement.y - bleed)} cm")
    canvas.doForm(name)
    canvas.addLiteral("Q")


def draw_crop_marks(canvas: Canvas, lines: list[tuple[float, ...]]) -> None:
    """All crop marks of a page in two strokes: a white halo, then the black line, so they show on dark bleed."""
    if not lines:
        return
    canvas.saveState()
    for colour, width in ((WHITE, 1.2), (BLACK, 0.25)):
        _stroke(canvas, colour, width)
        canvas.lines(lines)
    canvas.restoreState()


def draw_mark(canvas: Canvas, mark: Mark) -> None:
    """Draw one guide other than a crop mark; align marks get a white halo."""
    p = mark.points
    canvas.saveState()
    if mark.kind == "cut":
        _stroke(canvas, GREY, 0.3)
        canvas.rect(p[0], p[1], p[2] - p[0], p[3] - p[1], stroke=1, fill=0)
    elif mark.kind == "circle":
        _stroke(canvas, GREY, 0.3)
        canvas.ellipse(p[0] - p[2], p[1] - p[3], p[0] + p[2], p[1] + p[3], stroke=1, fill=0)
    elif mark.kind == "align":
        cx, cy, size = p
        for colour, width in ((WHITE, 1.2), (BLACK, 0.25)):
            _stroke(canvas, colour, width)
            canvas.line(cx - size / 2, cy, cx + size / 2, cy)
            canvas.line(cx, cy - size / 2, cx, cy + size / 2)
            canvas.circle(cx, cy, size / 4, stroke=1, fill=0)
    elif mark.kind == "fold":
        _stroke(canvas, GREY, 0.3)
        canvas.setDash(3, 2)
        canvas.line(*p)
    else:
        raise ValueError(f"unknown mark kind '{mark.kind}'")
    canvas.restoreState()


def _stroke(canvas: Canvas, colour: tuple[float, float, float], width: float) -> None:
    canvas.setStrokeColorRGB(*colour)
    canvas.setLineWidth(width)


def draw_label(canvas: Canvas, page: Page, font: str, margin: float) -> None:
    """Write the page label at the left margin, below (or else above) everything printed, if it fits."""
    if not page.label:
        return
    width = pdfmetrics.stringWidth(page.label, font, LABEL_SIZE)
    face = pdfmetrics.getFont(font).face
    ascent, descent = face.ascent * LABEL_SIZE / 1000, -face.descent * LABEL_SIZE / 1000
    x0, x1 = margin, margin + width
    if x1 > page.size.width - margin:
        return
    printed = [r for r in _printed(page) if r.x0 < x1 + 1 and r.x1 > x0 - 1]
    baseline = margin + descent
    if all(r.y0 >= baseline + ascent + 1 for r in printed):
        return _show(canvas, page.label, font, x0, baseline)
    baseline = page.size.height - margin - ascent
    if all(r.y1 <= baseline - descent - 1 for r in printed):
        _show(canvas, page.label, font, x0, baseline)


def _show(canvas: Canvas, text: str, font: str, x: float, y: float) -> None:
    canvas.setFillColorRGB(*GREY)
    canvas.setFont(font, LABEL_SIZE)
    canvas.drawString(x, y, text)


def _printed(page: Page) -> list[Rect]:
    """Return the bounding boxes of everything drawn on the page."""
    boxes = [p.clip for p in page.placements]
    for mark in page.marks:
        p = mark.points
        if mark.kind in ("crop", "cut", "fold"):
            boxes.append(Rect(min(p[0], p[2]), min(p[1], p[3]), max(p[0], p[2]), max(p[1], p[3])))
        else:
            rx, ry = (p[2], p[3]) if mark.kind == "circle" else (p[2] / 2, p[2] / 2)
            boxes.append(Rect(p[0] - rx, p[1] - ry, p[0] + rx, p[1] + ry))
    return boxes
