"""Turn a component's distinct faces into a proof sheet: every face at half size on A4 with its bleed edge,
trim and safe zone drawn over it and a caption, for checking a deck at a glance."""
from __future__ import annotations

import io
import math
from itertools import groupby

from reportlab.pdfgen.canvas import Canvas

from .job import Job
from .pieces import ComponentFaces, card_caption
from ..faces.font import font_named, reportlab_name
from ..faces.render import SAFE_MM
from ..units import PAPER_SIZES_MM, mm
from ..press.reportlab_forms import place_form

SCALE = 0.5  # faces at half size; smaller only when one would not fit the page
MARGIN, GAP, HEADER = mm(10), mm(4), mm(10)
CAPTION_SIZE = 5.5  # pt
CAPTION = 2 * CAPTION_SIZE * 1.25 + mm(1)  # two caption lines under each face
BLEED_EDGE, TRIM, SAFE = (0.6, 0.6, 0.6), (0.85, 0.1, 0.1), (0.1, 0.35, 0.85)
PAGE_W, PAGE_H = (mm(v) for v in PAPER_SIZES_MM["a4"])


def write_proofs(job: Job, components: list[ComponentFaces]) -> None:
    """OUTDIR/<game>/proof/<component>.pdf for every component."""
    for done, faces in enumerate(components, 1):
        job.write(job.folder(faces, "proof") / f"{faces.component.id}.pdf", proof_pdf(job, faces), "PDF")
        job.tell("writing", done, len(components), f"{faces.game.id}/{faces.component.id}.pdf")
        job.report.faces += len(faces.distinct())


def plan_cells(faces: ComponentFaces) -> tuple[float, int, int]:
    """(scale, columns, rows) of the grid of faces on an A4 page."""
    c = faces.component
    room_w, room_h = PAGE_W - 2 * MARGIN, PAGE_H - 2 * MARGIN - HEADER - CAPTION
    face_w, face_h = c.size.width + 2 * c.bleed, c.size.height + 2 * c.bleed
    scale = min(SCALE, room_w / face_w, room_h / face_h)
    cols = max(1, int((room_w + GAP) // (face_w * scale + GAP)))
    rows = max(1, int((room_h + CAPTION + GAP) // (face_h * scale + CAPTION + GAP)))
    return scale, cols, rows


def proof_pdf(job: Job, faces: ComponentFaces) -> bytes:
    c = faces.component
    scale, cols, rows = plan_cells(faces)
    distinct = faces.distinct()
    shows = pieces_showing(faces)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1,
                    initialFontName=reportlab_name(job.initial_font))
    canvas.setTitle(f"{faces.game.title} — {c.name} (proof)")
    canvas.setAuthor("pnpgen")
    canvas.setSubject(job.project.name)
    canvas.setCreator("pnpgen")
    per_page = cols * rows
    pages = math.ceil(len(distinct) / per_page)
    cell_w, cell_h = (c.size.width + 2 * c.bleed) * scale, (c.size.height + 2 * c.bleed) * scale
    for number in range(pages):
        draw_header(canvas, job, faces, number + 1, pages, scale)
        for slot, (key, side) in enumerate(distinct[number * per_page:(number + 1) * per_page]):
            row, col = divmod(slot, cols)
            x = MARGIN + col * (cell_w + GAP)
            y = PAGE_H - MARGIN - HEADER - row * (cell_h + CAPTION + GAP) - cell_h
            draw_face(canvas, faces, key, x, y, scale)
            pieces = shows[key]
            cards = len({id(p.card) for p in pieces})
            about = card_caption(pieces[0].card, c) if cards == 1 else f"shared by {cards} different cards"
            caption = [f"{side} #{ranges([p.index for p in pieces])} ({len(pieces)}×)", about]
            draw_caption(canvas, job.initial_font, caption, x, y, cell_w)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def pieces_showing(faces: ComponentFaces) -> dict[str, list]:
    shows: dict[str, list] = {}
    for piece, _, key in faces.shown():
        if piece not in shows.setdefault(key, []):
            shows[key].append(piece)
    return shows


def ranges(indices: list[int]) -> str:
    """1, 2, 3, 5 → "1–3, 5"."""
    runs = [[i for _, i in run] for _, run in groupby(enumerate(sorted(indices)), lambda pair: pair[1] - pair[0])]
    return ", ".join(f"{run[0]}" if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def draw_header(canvas: Canvas, job: Job, faces: ComponentFaces, number: int, pages: int, scale: float) -> None:
    c = faces.component
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(job.initial_font, 9)
    text = (f"{faces.game.title} — {c.name} ({c.id}): {len(faces.distinct())} distinct faces, "
            f"{len(faces.pieces)} pieces — page {number}/{pages}")
    canvas.drawString(MARGIN, PAGE_H - MARGIN - 9, fit(text, job.initial_font, 9, PAGE_W - 2 * MARGIN))
    canvas.setFont(job.initial_font, 6)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    legend = (f"grey: bleed edge · red: trim · blue dashed: safe zone ({SAFE_MM:g} mm inside the trim) · "
              f"faces at {scale:.0%}")
    canvas.drawString(MARGIN, PAGE_H - MARGIN - 17, legend)


def draw_face(canvas: Canvas, faces: ComponentFaces, key: str, x: float, y: float, scale: float) -> None:
    """The face's form at scale with its bleed box at (x, y), then the bleed edge, trim and safe zone over it."""
    c = faces.component
    b, w, h = c.bleed * scale, c.size.width * scale, c.size.height * scale
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    place_form(canvas, key, faces.forms[key])
    canvas.restoreState()
    canvas.saveState()
    outline(canvas, BLEED_EDGE, 0.3, (x, y, w + 2 * b, h + 2 * b), "rect")
    outline(canvas, TRIM, 0.4, (x + b, y + b, w, h), c.shape)
    safe = mm(SAFE_MM) * scale
    canvas.setDash(2, 1.5)
    outline(canvas, SAFE, 0.3, (x + b + safe, y + b + safe, w - 2 * safe, h - 2 * safe), c.shape)
    canvas.restoreState()


def outline(canvas: Canvas, colour, width: float, box: tuple[float, float, float, float], shape: str) -> None:
    x, y, w, h = box
    canvas.setStrokeColorRGB(*colour)
    canvas.setLineWidth(width)
    if shape == "round":
        canvas.ellipse(x, y, x + w, y + h, stroke=1, fill=0)
    else:
        canvas.rect(x, y, w, h, stroke=1, fill=0)


def draw_caption(canvas: Canvas, font: str, lines: list[str], x: float, y: float, width: float) -> None:
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(font, CAPTION_SIZE)
    for n, line in enumerate(lines):
        canvas.drawString(x, y - (n + 1) * CAPTION_SIZE * 1.25, fit(line, font, CAPTION_SIZE, width))


def fit(text: str, font: str, size: float, width: float) -> str:
    """The text, cut with an ellipsis to fit width."""
    text = text.replace("\n", " ")
    measure = font_named(font).width
    if measure(text, size) <= width:
        return text
    while text and measure(text + "…", size) > width:
        text = text[:-1]
    return text + "…"
