"""Turn drawing steps into FaceArt's parts: PDF operators, tracking the graphics state to skip repeats."""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

from .paint_refs import style_rules
from .svgpath import NotDrawable, parse_numbers
from .svgvalues import parse_number

CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}


class Painter:
    """Walks one SVG tree and writes its operators, tracking the graphics state to skip repeats."""

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

    def emit(self, text: str) -> None:
        self.ops.append(text)

    def special(self, part: list) -> None:
        if self.ops:
            self.parts.append(" ".join(self.ops))
            self.ops = []
        self.parts.append(part)

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

    def set(self, key: str, value, op: str) -> None:
        if self.state.get(key) != value:
            self.state[key] = value
            self.emit(op)

    def alpha(self, key: str, value: float) -> None:
        if self.state.get(key, 1.0) != value:
            self.state[key] = value
            self.special(["A", key, value])

    def font(self, selector: tuple) -> int:
        if selector not in self.fonts:
            self.fonts.append(selector)
        return self.fonts.index(selector)

    def shading(self, record: list) -> int:
        if record not in self.shadings:
            self.shadings.append(record)
        return self.shadings.index(record)

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

    def image(self, href: str) -> int:
        if href not in self.images:
            self.images.append(href)
        return self.images.index(href)


def set_stroke(painter: Painter, style: dict, stroke: tuple) -> None:
    painter.set("stroke", stroke, f"{fp_str(*stroke)} RG")
    width = parse_number(style.get("stroke-width", "1"), 1)
    painter.set("width", width, f"{fp_str(width)} w")
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
