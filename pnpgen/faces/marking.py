"""Turn a face's SVG, as the painter paints it, into marks: each text run, shape, image and shading placed in mm.

The marks are read from the painter's own steps (its operators and its text, image and shading parts), not
from a second reading of the SVG: what is inspected is what the PDF shows. The inspecting painter notes, as
each element's drawing starts, the element (for its SVG line, and the template line that wrote it) and
whether it or a group around it is marked `data-safe`.
Boxes are in millimetres on the face (origin at the trim's top-left corner, y down, as templates write them),
clipped to the clip paths around them; a shape's box holds its path's points (Bézier control points included).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .font import font_named
from .paint import svg_to_form
from .painter import Painter
from .svgpath import IDENTITY, multiply, parse_numbers

PAINTING = {"f": "fill", "f*": "fill", "B": "both", "B*": "both", "S": "stroke"}
OPERANDS = {"m": 2, "l": 2, "c": 6}  # the numbers each path operator takes


@dataclass(frozen=True)
class Mark:
    """One thing the face draws. kind: text | fill | stroke | image | shading. box: (x0, y0, x1, y1) in mm.
    colour: RGB in 0…1 (a shading's: its stops'). size: a text's size or a stroke's width, in pt at print
    size. text: what a text run shows; image: an image's href, inches: its placed width and height."""

    kind: str
    box: tuple
    source: object  # the SVG element drawn (its sourceline is its line in the face's SVG)
    colour: tuple = ()
    size: float = 0.0
    text: str = ""
    image: str = ""
    inches: tuple = ()
    safe: bool = False  # marked data-safe: held to the safe zone like text
    opaque: bool = True


class MarkingPainter(Painter):
    """The painter, noting where each element's drawing starts (as ["L", element, safe] parts); it makes no form."""

    def mark(self, element) -> None:
        safe = element.get("data-safe") is not None or any(e.get("data-safe") is not None
                                                            for e in element.iterancestors())
        self.special(["L", element, safe])

    def form(self, width: float, height: float):
        self.finish()
        self.size = (width, height)
        return self


def mark_face(root, measure) -> list[Mark]:
    """The marks of a parsed face SVG (its <svg> root as convert.parse_svg makes it), its fonts as measure names."""
    painter = svg_to_form(root, measure, MarkingPainter)
    box = parse_numbers(root.get("viewBox"))
    width, height = painter.size
    reader = MarkReader(painter, (box[0], box[1], box[2] / width, box[3] / height, height))
    reader.read(painter.parts, Graphics())
    return reader.marks


@dataclass
class Graphics:
    """The graphics state the marks depend on."""

    ctm: tuple = IDENTITY
    fill: tuple = (0.0, 0.0, 0.0)
    stroke: tuple = (0.0, 0.0, 0.0)
    width: float = 1.0
    clip: tuple | None = None  # points, (x0, y0, x1, y1)
    fill_alpha: float = 1.0
    stroke_alpha: float = 1.0
    text_at: tuple = IDENTITY


class MarkReader:
    """Walks a painter's parts (and the groups they show), keeping a mark for each thing painted."""

    def __init__(self, painter: MarkingPainter, frame: tuple):
        self.painter = painter
        self.frame = frame  # (viewBox x, y, mm per point across, down, the form's height in points)
        self.marks: list[Mark] = []
        self.source, self.safe = None, False
        self.pending: list[str] = []  # the names and strings an operator takes (form content: form_marks.py)

    def read(self, parts: list, state: Graphics) -> None:
        saved: list[Graphics] = []
        path: list[tuple] = []
        clipping = False
        for part in parts:
            if part.__class__ is not str:
                self.read_special(part, state)
                continue
            operands: list[float] = []
            for token in part.split():
                if token[0] in "-.0123456789[":
                    number = token.strip("[]")
                    if number:
                        operands.append(float(number))
                    continue
                if token.endswith("]"):
                    continue
                if token[0] in "/<":
                    self.pending.append(token)
                    continue
                if token == "q":
                    saved.append(Graphics(**vars(state)))
                elif token == "Q":
                    state = saved.pop() if saved else state
                elif token == "cm":
                    state.ctm = multiply(state.ctm, tuple(operands[-6:]))
                elif token == "rg":
                    state.fill = tuple(operands[-3:])
                elif token == "RG":
                    state.stroke = tuple(operands[-3:])
                elif token == "w":
                    state.width = operands[-1]
                elif token == "Tm":
                    state.text_at = tuple(operands[-6:])
                elif token in ("m", "l", "c"):
                    values = operands[-OPERANDS[token]:]
                    path += list(zip(values[0::2], values[1::2]))
                elif token == "re":
                    x, y, w, h = operands[-4:]
                    path += [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
                elif token in ("W", "W*"):
                    clipping = True
                elif token == "n":
                    if clipping and path:
                        state.clip = intersect(state.clip, self.points_box(path, state.ctm))
                    path, clipping = [], False
                elif token in PAINTING:
                    self.paint_path(PAINTING[token], path, state)
                    path = []
                else:
                    self.operate(token, operands, state)
                operands, self.pending = [], []

    def operate(self, token: str, operands: list, state: Graphics) -> None:
        """An operator only form content holds (the painter's parts give text, images and groups as parts)."""

    def read_special(self, part: list, state: Graphics) -> None:
        kind = part[0]
        if kind == "L":
            self.source, self.safe = part[1], part[2]
        elif kind == "A":
            setattr(state, "fill_alpha" if part[1] == "ca" else "stroke_alpha", part[2])
        elif kind == "T":
            self.paint_text(part, state)
        elif kind == "I":
            index, w, h = part[1], part[2], part[3]
            a, b, c, d = state.ctm[:4]
            box = self.points_box([(0, 0), (w, h), (0, h), (w, 0)], state.ctm)
            inches = (w * math.hypot(a, b) / 72, h * math.hypot(c, d) / 72)
            self.keep("image", box, state, image=self.image_href(index), inches=inches)
        elif kind == "S":
            record = self.shading_record(part[1])
            box = state.clip or self.points_box([(0, 0), (1e4, 1e4)], IDENTITY)
            self.keep("shading", box, state, colour=tuple(tuple(stop[1:]) for stop in record[2]),
                      opaque=state.fill_alpha >= 1)
        elif kind == "X":
            self.read(self.painter.groups[part[1]], Graphics(**vars(state)))

    def paint_path(self, how: str, path: list, state: Graphics) -> None:
        if not path:
            return
        box = self.points_box(path, state.ctm)
        if how in ("fill", "both") and len(path) > 2 and box[2] - box[0] > 1e-9 and box[3] - box[1] > 1e-9:
            # (a line, two points, fills nothing: SVG's default fill on a <line> paints no mark)
            self.keep("fill", box, state, colour=state.fill, opaque=state.fill_alpha >= 1)
        if how in ("stroke", "both"):
            scale = math.sqrt(abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2]))
            half = state.width * scale / 2
            grown = (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
            self.keep("stroke", grown, state, colour=state.stroke, size=state.width * scale,
                      opaque=state.stroke_alpha >= 1)

    def image_href(self, index: int) -> str:
        return self.painter.images[index]

    def shading_record(self, index: int) -> list:
        return self.painter.shadings[index]

    def paint_text(self, part: list, state: Graphics) -> None:
        font = font_named(self.painter.measure(self.painter.fonts[part[1]]))
        self.keep_text(font, part[2], part[3], font.width(part[3], part[2]), state)

    def keep_text(self, font, size: float, text: str, width: float, state: Graphics) -> None:
        """A run of text set in font at size (user units) from the text position, width long."""
        ctm = multiply(state.ctm, state.text_at)
        corners = [(0, font.descent / 1000 * size), (width, font.ascent / 1000 * size)]
        scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
        self.keep("text", self.points_box(corners, ctm), state, colour=state.fill, size=size * scale, text=text,
                  opaque=state.fill_alpha >= 1)

    def points_box(self, points: list, ctm: tuple) -> tuple:
        a, b, c, d, e, f = ctm
        xs = [a * x + c * y + e for x, y in points]
        ys = [b * x + d * y + f for x, y in points]
        return (min(xs), min(ys), max(xs), max(ys))

    def keep(self, kind: str, box: tuple, state: Graphics, **values) -> None:
        if state.clip is not None:
            box = intersect(state.clip, box)
            if box[0] > box[2] or box[1] > box[3]:
                return  # clipped away
        x, y, across, down, height = self.frame
        in_mm = (x + box[0] * across, y + (height - box[3]) * down, x + box[2] * across, y + (height - box[1]) * down)
        self.marks.append(Mark(kind, in_mm, self.source, safe=self.safe, **values))


def intersect(clip: tuple | None, box: tuple) -> tuple:
    if clip is None:
        return box
    return (max(clip[0], box[0]), max(clip[1], box[1]), min(clip[2], box[2]), min(clip[3], box[3]))
