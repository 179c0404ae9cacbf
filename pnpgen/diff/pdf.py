"""Turn a comparison into changes.pdf: the same report as changes.html, as printable A4 pages."""
from __future__ import annotations

import io

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from .. import units
from ..faces.font import font_named, reportlab_name
from .report import describe_causes, describe_change, describe_field
from .session import Comparison

PAGE = (units.mm(210), units.mm(297))
MARGIN = units.mm(15)
IMAGE_HEIGHT = units.mm(70)
GAP = units.mm(5)
SIZE, HEAD = 8.5, 11


class Writer:
    """A column of text lines and image rows flowing down A4 pages."""

    def __init__(self, title: str, font: str):
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=PAGE, invariant=1, pageCompression=1,
                             initialFontName=reportlab_name(font))
        self.canvas.setTitle(title)
        self.canvas.setCreator("pnpgen")
        self.font = font
        self.y = PAGE[1] - MARGIN

    def make_room(self, height: float) -> None:
        if self.y - height < MARGIN:
            self.canvas.showPage()
            self.y = PAGE[1] - MARGIN

    def write_line(self, text: str, size: float = SIZE, indent: float = 0.0, grey: bool = False) -> None:
        width = PAGE[0] - 2 * MARGIN - indent
        for part in wrap(text, self.font, size, width):
            self.make_room(size * 1.4)
            self.y -= size * 1.4
            self.canvas.setFillGray(0.45 if grey else 0)
            self.canvas.setFont(self.font, size)
            self.canvas.drawString(MARGIN + indent, self.y, part)

    def draw_images(self, pngs: list[tuple[bytes, str]]) -> None:
        readers = [(ImageReader(io.BytesIO(png)), caption) for png, caption in pngs]
        ratios = [reader.getSize()[0] / reader.getSize()[1] for reader, _ in readers]
        room = PAGE[0] - 2 * MARGIN - GAP * (len(readers) - 1)
        height = min(IMAGE_HEIGHT, room / sum(ratios))  # a row of wide maps shrinks to the page width
        self.make_room(height + SIZE * 2 + GAP)
        x, top = MARGIN, self.y - GAP
        for (reader, caption), ratio in zip(readers, ratios):
            self.canvas.drawImage(reader, x, top - height, height * ratio, height)
            self.canvas.setFont(self.font, SIZE - 1)
            self.canvas.setFillGray(0.45)
            self.canvas.drawString(x, top - height - SIZE * 1.3, caption)
            x += height * ratio + GAP
        self.y = top - height - SIZE * 2

    def close(self) -> bytes:
        self.canvas.showPage()
        self.canvas.save()
        return self.buffer.getvalue()


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Break text into lines no wider than width, at any character (Japanese has no spaces to break at)."""
    lines, current, measure = [], "", font_named(font).width
    for char in text:
        if measure(current + char, size) > width and current:
            lines.append(current)
            current = ""
        current += char
    return lines + [current] if current or not lines else lines


def render_pdf(comparison: Comparison, font: str) -> bytes:
    writer = Writer(f"{comparison.project.name}: changes since {comparison.label}", font)
    writer.write_line(f"{comparison.project.name}: changes since {comparison.label}", HEAD)
    if comparison.files:
        writer.write_line("changed files: " + ", ".join(comparison.files), grey=True)
    if not comparison.cards and not comparison.sections:
        writer.write_line("No card and no rulebook section changed.")
    for change in comparison.cards:
        writer.y -= GAP
        lines = 2 + len(change.fields) + bool(change.because)
        writer.make_room(lines * SIZE * 1.6 + (IMAGE_HEIGHT + SIZE * 2 + GAP if change.faces else 0))  # heading with its pictures
        writer.write_line(describe_change(change), SIZE + 1)
        writer.write_line(str(change.location), indent=units.mm(4), grey=True)
        for field in change.fields:
            writer.write_line(describe_field(field), indent=units.mm(4))
        if change.because:
            writer.write_line(describe_causes(change), indent=units.mm(4))
        for face in change.faces:
            picture = comparison.pictures[face.pair]
            shown = [(png, caption) for png, caption in ((picture.old, f"{face.side} before"),
                                                         (picture.new, f"{face.side} now"),
                                                         (picture.overlay, "changed pixels")) if png]
            writer.draw_images(shown)
    if comparison.sections:
        writer.y -= GAP
        writer.write_line("Rulebooks", SIZE + 1)
        for s in comparison.sections:
            title = s.heading.lstrip("#").strip() or "(before the first heading)"
            writer.write_line(f"{s.game} {s.file}:{s.line}: 「{title}」 {s.status}", indent=units.mm(4))
    return writer.close()
