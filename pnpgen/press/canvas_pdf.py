"""Turn imposed pages and their faces' drawings into a PDF through reportlab's canvas (faces only svglib draws)."""
from __future__ import annotations

import functools
import io
import zlib
from typing import TYPE_CHECKING, Mapping, Sequence

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from ..faces.art import FaceArt
from .face_forms import CompressedForm, declare_form_resources, encode_art
from .impose import Page, Placement, Rect
from .mark_ops import marks_operators
from .pdf_file import form_name
from ..units import mm

if TYPE_CHECKING:  # svglib's drawings; reportlab.graphics is imported only by the builds that draw one
    from reportlab.graphics.shapes import Drawing

GREY = (0.5, 0.5, 0.5)
LABEL_SIZE = 6  # pt


def canvas_pdf_bytes(pages: Sequence[Page], drawings: Mapping[str, Drawing], *, title: str, initial_font: str,
              bleed: float | None, author: str = "pnpgen", subject: str = "", margin: float = mm(6)) -> bytes:
    """The PDF of the pages as bytes, drawn through reportlab (write_pdf's way for svglib drawings)."""
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
        if page.marks:
            canvas.addLiteral(marks_operators(page.marks))
        draw_label(canvas, page, font, margin)
        canvas.showPage()


def _box(rect: Rect) -> tuple[float, float, float, float]:
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def define_form(canvas: Canvas, name: str, drawing: FaceArt | Drawing, font: str) -> None:
    """Record the face once as a Form XObject whose box is the face's extent."""
    if isinstance(drawing, FaceArt) and not drawing.images:
        states: dict = {}
        content = "\n".join(encode_art(canvas, drawing, states)).encode("latin-1")
        canvas._doc.addForm(name, CompressedForm(zlib.compress(content), drawing.width, drawing.height, states))
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
        shadings = dict(canvas._shadingUsed)  # svglib's gradients: endForm forgets them
        canvas.endForm()
        declare_form_resources(canvas, name, shadings)
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


def draw_placement(canvas: Canvas, placement: Placement, name: str, bleed: float) -> None:
    """Show a face's form with its trim at the placement, clipped to the placement's clip.

    Written as literal operators (q, clip rectangle, translation, Do, Q): the same PDF as saveState,
    clipPath, translate and restoreState would make, at a fraction of their cost per card; nothing
    between q and Q changes the state reportlab tracks."""
    p = placement
    canvas.addLiteral(placing(p.x, p.y, p.width, p.height, p.clip, p.clip_path, p.flip, bleed))
    canvas.doForm(name)
    canvas.addLiteral("Q")


@functools.lru_cache(maxsize=4096)
def placing(x: float, y: float, width: float, height: float, clip: Rect, clip_path: tuple, flip: str,
            bleed: float) -> str:
    """The operators that clip to a placement and move a face's form there, up to its Do: the same for the
    same slot on every full sheet, whichever face it holds."""
    region = path_operators(clip_path) if clip_path else f"{fp_str(clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0)} re"
    matrix = face_matrix(Placement("", x, y, width, height, clip, clip_path=clip_path, flip=flip), bleed)
    return f"q {region} W n {fp_str(*matrix)} cm"


def face_matrix(placement: Placement, bleed: float) -> tuple[float, ...]:
    """The matrix putting the form's origin at the placement's bleed corner, mirrored as flip says."""
    x, y = placement.x - bleed, placement.y - bleed
    width, height = placement.width + 2 * bleed, placement.height + 2 * bleed
    if placement.flip == "y":
        return (1, 0, 0, -1, x, y + height)
    if placement.flip == "xy":
        return (-1, 0, 0, -1, x + width, y + height)
    return (1, 0, 0, 1, x, y)


def path_operators(polygons) -> str:
    """Closed polygons as PDF path operators (m, l, h)."""
    parts = []
    for polygon in polygons:
        parts.append(f"{fp_str(*polygon[0])} m " + " ".join(f"{fp_str(*p)} l" for p in polygon[1:]) + " h")
    return " ".join(parts)


def draw_label(canvas: Canvas, page: Page, font: str, margin: float) -> None:
    """Write the page label at the left margin, below (or else above) everything printed, if it fits."""
    where = label_position(page, font, margin)
    if where is not None:
        _show(canvas, page.label, font, *where)


def label_position(page: Page, font: str, margin: float) -> tuple[float, float] | None:
    """Where the page label starts (x, baseline): at the left margin, below (or else above) everything
    printed; None when there is no label or it does not fit."""
    if not page.label:
        return None
    width = pdfmetrics.stringWidth(page.label, font, LABEL_SIZE)
    face = pdfmetrics.getFont(font).face
    ascent, descent = face.ascent * LABEL_SIZE / 1000, -face.descent * LABEL_SIZE / 1000
    x0, x1 = margin, margin + width
    if x1 > page.size.width - margin:
        return None
    printed = [r for r in _printed(page) if r.x0 < x1 + 1 and r.x1 > x0 - 1]
    baseline = margin + descent
    if all(r.y0 >= baseline + ascent + 1 for r in printed):
        return x0, baseline
    baseline = page.size.height - margin - ascent
    if all(r.y1 <= baseline - descent - 1 for r in printed):
        return x0, baseline
    return None


def _show(canvas: Canvas, text: str, font: str, x: float, y: float) -> None:
    canvas.setFillColorRGB(*GREY)
    canvas.setFont(font, LABEL_SIZE)
    canvas.drawString(x, y, text)


def _printed(page: Page) -> list[Rect]:
    """Return the bounding boxes of everything drawn on the page."""
    boxes = [p.clip for p in page.placements]
    for mark in page.marks:
        p = mark.points
        if mark.kind == "cutline" and p:
            boxes.append(Rect(min(p[0::2]), min(p[1::2]), max(p[0::2]), max(p[1::2])))
        elif mark.kind in ("crop", "cut", "fold"):
            boxes.append(Rect(min(p[0], p[2]), min(p[1], p[3]), max(p[0], p[2]), max(p[1], p[3])))
        else:
            rx, ry = (p[2], p[3]) if mark.kind == "circle" else (p[2] / 2, p[2] / 2)
            boxes.append(Rect(p[0] - rx, p[1] - ry, p[0] + rx, p[1] + ry))
    return boxes
