"""Turn drawing steps into a face's form: PDF operators, tracking the graphics state to skip repeats."""
from __future__ import annotations

import math
import struct
import zlib

from reportlab.lib.rl_accel import fp_str

from .font import font_named
from .form import FaceForm, shape_of
from .paint_refs import style_rules
from .svgpath import IDENTITY, NotDrawable, multiply, parse_numbers
from .svgvalues import Ink, parse_number

CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}


class Painter:
    """Walks one SVG tree and writes its operators, tracking the graphics state to skip repeats.

    While painting, a stream is a list of parts: operator text, or what is named only once the face is
    done: ["T", font, size, text] (text in self.fonts[font]), ["I", image, w, h] (self.images[image] filling
    the unit square scaled to w × h), ["A", "ca" or "CA", alpha], ["S", shading], ["X", group] (self.groups
    [group] painted as a transparency group) and ["M", group] (that group as the soft mask, by luminosity, of
    what follows until the state is restored). form() encodes them."""

    def __init__(self, measure, root):
        self.measure = measure  # (family, weight, style) -> reportlab font name, for text-anchor widths
        self.ids = {e.get("id"): e for e in root.iter() if isinstance(e.tag, str) and e.get("id")}
        self.rules = style_rules(root)
        self.painted = 0
        self.depth = 0  # of the element being painted, <use> expanded
        self.using: list = []  # the <use> elements being expanded, innermost last
        self.shadings: list = []
        self.groups: list = []
        self.parts: list = []
        self.ops: list[str] = []
        self.fonts: list[tuple] = []
        self.images: list[str] = []
        self.state: dict = {}
        self.saved: list[dict] = []
        self.inks: dict[str, tuple] = {}  # fill and stroke operands -> the CMYK a template gave them in (see Ink)
        self.thinnest = 1.0  # the thinnest line width set (PDF's own to start with)

    def emit(self, text: str) -> None:
        self.ops.append(text)

    def special(self, part: list) -> None:
        self.finish().append(part)

    def finish(self) -> list:
        if self.ops:
            self.parts.append(" ".join(self.ops))
            self.ops = []
        return self.parts

    def push(self) -> None:
        self.emit("q")
        self.saved.append(dict(self.state))

    def pop(self) -> None:
        self.emit("Q")
        self.state = self.saved.pop()

    def mark(self, element) -> None:
        """Where an element's drawing starts: nothing to note here; an inspecting painter notes its line."""

    def set(self, key: str, value, op: str) -> None:
        known = self.state.get(key)
        if known != value or (value.__class__ is Ink) is not (known.__class__ is Ink):  # an ink is noted once set
            self.state[key] = value
            self.emit(op)
            if value.__class__ is Ink:
                self.inks[op.rsplit(" ", 1)[0]] = value.cmyk

    def alpha(self, key: str, value: float) -> None:
        if self.state.get(key, 1.0) != value:
            self.state[key] = value
            self.special(["A", key, value])

    def group(self, paint_inside, opacity: float) -> None:
        """What paint_inside() draws, as a transparency group shown at opacity: SVG's group opacity."""
        parts, ops, state = self.parts, self.ops, dict(self.state)
        self.parts, self.ops = [], []
        self.state.update(ca=1.0, CA=1.0)  # a group starts opaque (PDF resets the alpha constants)
        paint_inside()
        inside = self.finish()
        self.parts, self.ops, self.state = parts, ops, state
        self.push()
        self.alpha("ca", opacity)
        self.alpha("CA", opacity)
        self.groups.append(inside)
        self.special(["X", len(self.groups) - 1])
        self.pop()

    def form(self, width: float, height: float) -> FaceForm:
        """The face painted: its text in glyph IDs of the font files self.measure names, its opacities and
        masks named in the order the groups, then the face's own parts, use them."""
        names = [self.measure(selector) for selector in self.fonts]
        files = [font_named(name).file for name in names]
        glyphs: list[dict[int, str]] = [{} for _ in files]
        states: dict[tuple, int] = {}
        streams = [zlib.compress(encode_parts(parts, files, glyphs, states)) for parts in self.groups]
        content = zlib.compress(encode_parts(self.finish(), files, glyphs, states)) + b"".join(streams)
        shape = shape_of(width, height, self.fonts, [font_named(name).digest for name in names], list(states),
                         self.images, self.shadings, [len(s) for s in streams],
                         [(operands, *cmyk) for operands, cmyk in sorted(self.inks.items())])
        return FaceForm.of_shape(shape, content, [(struct.pack(f">{len(shown)}H", *sorted(shown)),
                                                   "".join(shown[g] for g in sorted(shown))) for shown in glyphs],
                                 resolved_fonts=tuple(names), least=self.least_sizes())

    def least_sizes(self) -> tuple | None:
        """(the smallest text size, the thinnest line width) at print size, in points, computed from the operands
        the content states just as reading its marks back computes each mark's (marking.py), so that a form whose
        least sizes print needs none read back (size_marks.py); None for a form with an image, or with a transform
        besides the face's own (its marks are read from it)."""
        streams = [self.parts, *self.groups]
        if self.images or sum(part.count("cm") for parts in streams for part in parts if part.__class__ is str) != 1:
            return None
        first = self.parts[0] if self.parts and self.parts[0].__class__ is str else ""
        numbers = first.split(maxsplit=7)[:7]
        if len(numbers) != 7 or numbers[6] != "cm":
            return None
        a, b, c, d, _, _ = multiply(IDENTITY, tuple(float(n) for n in numbers[:6]))
        scale = math.sqrt(abs(a * d - b * c))
        # (the least of the operands as the content states them: rounding them keeps their order)
        size = min((part[2] for parts in streams for part in parts if part.__class__ is list and part[0] == "T"),
                   default=None)
        return (math.inf if size is None else float(fp_str(size))) * scale, float(fp_str(self.thinnest)) * scale


def index_in(items: list, item) -> int:
    """item's place in items (a font, image or shading a stream names by number), added at the end if new."""
    if item not in items:
        items.append(item)
    return items.index(item)


def encode_parts(parts: list, files: list, glyphs: list[dict[int, str]], states: dict[tuple, int]) -> bytes:
    """One stream's operators, its text as glyph IDs (noted in glyphs), its opacities named in states."""
    code: list[str] = []
    for part in parts:
        if part.__class__ is str:
            code.append(part)
        elif part[0] == "T":
            index, text = part[1], part[3]
            ids = files[index].glyph_ids(text)
            shown = glyphs[index]
            for gid, char in zip(ids, text):
                shown.setdefault(gid, char if gid else "\0")
            code.append(f"/F{index} {fp_str(part[2])} Tf <{struct.pack(f'>{len(ids)}H', *ids).hex()}> Tj")
        elif part[0] == "I":
            code.append(f"q {fp_str(part[2], 0, 0, part[3], 0, 0)} cm /I{part[1]} Do Q")
        elif part[0] == "S":
            code.append(f"/Sh{part[1]} sh")
        elif part[0] == "X":
            code.append(f"/X{part[1]} Do")
        else:  # a graphics state: ["M", group] a soft mask, ["A", "ca" or "CA", alpha] an opacity
            state = ("SMask", part[1]) if part[0] == "M" else (part[1], part[2])
            code.append(f"/G{states.setdefault(state, len(states))} gs")
    return "\n".join(code).encode("latin-1")


def set_stroke(painter: Painter, style: dict, stroke: tuple) -> None:
    painter.set("stroke", stroke, f"{fp_str(*stroke)} RG")
    width = parse_number(style.get("stroke-width", "1"), 1)
    painter.set("width", width, f"{fp_str(width)} w")
    painter.thinnest = min(painter.thinnest, width)
    cap = CAPS.get(style.get("stroke-linecap", "butt"), 0)
    painter.set("cap", cap, f"{cap} J")
    join = JOINS.get(style.get("stroke-linejoin", "miter"), 0)
    painter.set("join", join, f"{join} j")
    miter = parse_number(style.get("stroke-miterlimit", "4"), 4)
    painter.set("miter", miter, f"{fp_str(miter)} M")
    dashes = style.get("stroke-dasharray", "none")
    pattern = [] if dashes.strip() == "none" else parse_numbers(dashes)
    if any(v < 0 for v in pattern):
        raise NotDrawable("negative dash")
    if len(pattern) % 2:
        pattern = pattern * 2
    if pattern and not any(pattern):
        pattern = []
    offset = parse_number(style.get("stroke-dashoffset", "0"), 0) if pattern else 0
    dash = f"[{fp_str(*pattern) if pattern else ''}] {fp_str(offset)} d"
    painter.set("dash", dash, dash)
