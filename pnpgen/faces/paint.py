"""Turn face SVG into FaceArt without svglib: shapes, paths, text and images as PDF operators."""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics

from .art import FaceArt
from .svgpath import NotDrawable, parse_numbers, parse_transform, trace_ellipse, trace_path, trace_points, trace_rect
from .svgvalues import parse_colour, parse_font_size, parse_fraction, parse_length, parse_number

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
INHERITED = ("fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
             "stroke-dasharray", "stroke-dashoffset", "fill-rule", "fill-opacity", "stroke-opacity",
             "font-family", "font-size", "font-weight", "font-style", "text-anchor", "visibility")
OWN = ("opacity", "display")
IGNORED = {"title", "desc", "metadata"}  # what a face may hold that prints nothing
CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}

class Painter:
    """Walks one SVG tree and writes its operators, tracking the graphics state to skip repeats."""

    def __init__(self, measure):
        self.measure = measure  # (family, weight, style) -> reportlab font name, for text-anchor widths
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

    def image(self, href: str) -> int:
        if href not in self.images:
            self.images.append(href)
        return self.images.index(href)


def svg_to_art(root, measure) -> FaceArt:
    """The FaceArt of a parsed <svg> root; NotDrawable when it uses what only svglib draws."""
    if root.tag != SVG + "svg":
        raise NotDrawable("root is not <svg>")
    width, height = parse_length(root.get("width", "")), parse_length(root.get("height", ""))
    box = parse_numbers(root.get("viewBox", "")) if root.get("viewBox") else [0, 0, width / 0.75, height / 0.75]
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0 or width <= 0 or height <= 0:
        raise NotDrawable("viewBox")
    if root.get("preserveAspectRatio") not in (None, "none") and abs(width / box[2] - height / box[3]) > 1e-9 * width:
        raise NotDrawable("preserveAspectRatio on the root")
    sx, sy = width / box[2], height / box[3]
    painter = Painter(measure)
    painter.emit(f"{fp_str(sx, 0, 0, -sy, -sx * box[0], height + sy * box[1])} cm")
    style = {"fill": "#000", "stroke": "none", "stroke-width": "1", "font-size": "16", "font-weight": "normal",
             "font-style": "normal", "font-family": "", "text-anchor": "start"}
    paint_children(painter, root, style)
    return FaceArt(width, height, painter.finish(), painter.fonts, painter.images)


def paint_children(painter: Painter, element, style: dict) -> None:
    for child in element:
        if isinstance(child.tag, str):
            paint(painter, child, style)


def cascade(element, inherited: dict) -> dict:
    style = dict(inherited)
    for name in ("opacity", "display"):
        style.pop(name, None)
    for name in INHERITED + OWN:
        value = element.get(name)
        if value is not None:
            style[name] = value.strip()
    declarations = element.get("style")
    if declarations:
        for declaration in declarations.split(";"):
            name, colon, value = declaration.partition(":")
            name = name.strip()
            if not colon or not name:
                continue
            if name not in INHERITED + OWN:
                raise NotDrawable(f"style {name}")
            style[name] = value.strip()
    for name, value in style.items():
        if value == "inherit":
            raise NotDrawable("inherit")
    return style


def paint(painter: Painter, element, inherited: dict) -> None:
    tag = element.tag
    if not tag.startswith(SVG):
        raise NotDrawable(f"element {tag}")
    name = tag[len(SVG):]
    if name in IGNORED or name == "defs":  # what defs hold is drawn only where it is referenced, below
        return
    for attribute in ("clip-path", "mask", "filter", "marker-start", "marker-mid", "marker-end"):
        if attribute in element.attrib:
            raise NotDrawable(attribute)
    style = cascade(element, inherited)
    if style.get("display") == "none":
        return
    transform = element.get("transform")
    if name in ("g", "text"):
        if transform:
            painter.push()
            painter.emit(f"{fp_str(*parse_transform(transform))} cm")
        if name == "g":
            paint_children(painter, element, style)
        else:
            paint_text(painter, element, style)
        if transform:
            painter.pop()
        return
    if name == "image":
        paint_image(painter, element, transform)
        return
    geometry = trace_shape(name, element)
    if geometry is None:
        return
    fill, stroke = choose_paint(style)
    if stroke is not None and parse_number(style.get("stroke-width", "1"), 1) <= 0:
        stroke = None  # SVG draws no stroke of width 0; PDF would draw the thinnest line it can
    if style.get("visibility") in ("hidden", "collapse") or (fill is None and stroke is None):
        return
    if transform:
        painter.push()
        painter.emit(f"{fp_str(*parse_transform(transform))} cm")
    opacity = parse_fraction(style.get("opacity", "1"))
    if fill is not None:
        painter.set("fill", fill, f"{fp_str(*fill)} rg")
        painter.alpha("ca", round(opacity * parse_fraction(style.get("fill-opacity", "1")), 6))
    if stroke is not None:
        set_stroke(painter, style, stroke)
        painter.alpha("CA", round(opacity * parse_fraction(style.get("stroke-opacity", "1")), 6))
    even_odd = style.get("fill-rule") == "evenodd"
    if fill is not None and stroke is not None:
        operator = "B*" if even_odd else "B"
    elif fill is not None:
        operator = "f*" if even_odd else "f"
    else:
        operator = "S"
    painter.emit(f"{geometry} {operator}")
    if transform:
        painter.pop()


def trace_shape(name: str, element) -> str | None:
    """The path of a basic shape, None when it draws nothing (zero size), NotDrawable when unknown."""
    get = element.get
    if name == "rect":
        x, y, w, h = (parse_number(get(a), 0) for a in ("x", "y", "width", "height"))
        rx, ry = get("rx"), get("ry")
        rx_value = parse_number(rx if rx is not None else ry, 0)
        ry_value = parse_number(ry if ry is not None else rx, 0)
        return trace_rect(x, y, w, h, rx_value, ry_value) if w > 0 and h > 0 else None
    if name == "circle":
        r = parse_number(get("r"), 0)
        return trace_ellipse(parse_number(get("cx"), 0), parse_number(get("cy"), 0), r, r) if r > 0 else None
    if name == "ellipse":
        rx, ry = parse_number(get("rx"), 0), parse_number(get("ry"), 0)
        return trace_ellipse(parse_number(get("cx"), 0), parse_number(get("cy"), 0), rx, ry) if rx > 0 and ry > 0 else None
    if name == "line":
        x1, y1, x2, y2 = (parse_number(get(a), 0) for a in ("x1", "y1", "x2", "y2"))
        return f"{fp_str(x1, y1)} m {fp_str(x2, y2)} l"
    if name in ("polyline", "polygon"):
        return trace_points(get("points", ""), name == "polygon") or None
    if name == "path":
        return trace_path(get("d", "")) or None
    raise NotDrawable(f"<{name}>")


def choose_paint(style: dict) -> tuple:
    return parse_colour(style.get("fill", "#000")), parse_colour(style.get("stroke", "none"))


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


def paint_text(painter: Painter, element, style: dict) -> None:
    if len(element):
        raise NotDrawable("<tspan> or other elements inside <text>")
    content = element.text or ""
    if element.get(XML_SPACE) == "preserve":
        content = content.replace("\n", " ").replace("\t", " ").replace("\r", " ")
    else:
        content = " ".join(content.split())
    fill = parse_colour(style.get("fill", "#000"))
    if not content or fill is None or style.get("visibility") in ("hidden", "collapse"):
        return
    if element.get("dx") or element.get("dy") or element.get("rotate") or element.get("textLength"):
        raise NotDrawable("text positioning attributes")
    x, y = parse_number(element.get("x"), 0), parse_number(element.get("y"), 0)
    size = parse_font_size(style.get("font-size", "16"))
    selector = (style.get("font-family", ""), style.get("font-weight", "normal"), style.get("font-style", "normal"))
    anchor = style.get("text-anchor", "start")
    if anchor in ("middle", "end"):
        width = pdfmetrics.stringWidth(content, painter.measure(selector), size)
        x -= width / 2 if anchor == "middle" else width
    elif anchor != "start":
        raise NotDrawable(f"text-anchor {anchor}")
    painter.set("fill", fill, f"{fp_str(*fill)} rg")
    opacity = parse_fraction(style.get("opacity", "1"))
    painter.alpha("ca", round(opacity * parse_fraction(style.get("fill-opacity", "1")), 6))
    painter.emit(f"BT 1 0 0 -1 {fp_str(x, y)} Tm")
    painter.special(["T", painter.font(selector), size, content])
    painter.emit("ET")


def paint_image(painter: Painter, element, transform: str | None) -> None:
    """Stretched to its box, as svglib draws it; without a width and height only svglib knows the size."""
    href = element.get(XLINK_HREF) or element.get("href") or ""
    if element.get("width") is None or element.get("height") is None:
        raise NotDrawable("<image> without a size")
    x, y = parse_number(element.get("x"), 0), parse_number(element.get("y"), 0)
    w, h = parse_number(element.get("width"), 0), parse_number(element.get("height"), 0)
    if w <= 0 or h <= 0:
        return
    painter.push()
    if transform:
        painter.emit(f"{fp_str(*parse_transform(transform))} cm")
    painter.emit(f"{fp_str(1, 0, 0, -1, x, y + h)} cm")  # upside up again: the face's y axis points down
    painter.special(["I", painter.image(href), w, h])
    painter.pop()
