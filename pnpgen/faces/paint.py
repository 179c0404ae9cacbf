"""Turn face SVG into its form: shapes, paths, text, images, gradients, clips and groups as PDF operators."""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

from .form import FaceForm
from .paint_refs import SVG, clip_operators, gradient_shading, href_of, referenced, shape_box, viewport
from .paint_text import paint_text
from .painter import Painter, index_in, set_stroke
from .svgpath import NotDrawable, multiply, parse_numbers, parse_transform, trace_ellipse, trace_path, trace_points, trace_rect
from .svgvalues import parse_colour, parse_declarations, parse_fraction, parse_length, parse_number

INHERITED = ("fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
             "stroke-dasharray", "stroke-dashoffset", "fill-rule", "fill-opacity", "stroke-opacity",
             "font-family", "font-size", "font-weight", "font-style", "text-anchor", "visibility")
OWN = ("opacity", "display")
NAMES = frozenset(INHERITED + OWN)
REFUSED = frozenset(("mask", "filter", "marker-start", "marker-mid", "marker-end"))
IGNORED = {"title", "desc", "metadata", "style", "defs", "symbol", "clipPath", "linearGradient", "radialGradient"}
MAX_PAINTED = 20_000  # elements drawn, <use> expanded: as many as lint allows a face to hold
MAX_DEPTH = 100  # elements inside one another, <use> expanded: a face nests a few; Python's stack holds this many

def svg_to_form(root, measure, painter_type=Painter) -> FaceForm:
    """The form of a parsed <svg> root, its text in the fonts measure((family, weight, style)) names (reportlab
    font names); NotDrawable (with the line of the element) for what it does not draw. painter_type: a Painter
    that notes more as it goes (an inspector's; see Painter.mark)."""
    if root.tag != SVG + "svg":
        raise NotDrawable("root is not <svg>")
    width, height = parse_length(root.get("width", "")), parse_length(root.get("height", ""))
    box = parse_numbers(root.get("viewBox", "")) if root.get("viewBox") else [0, 0, width / 0.75, height / 0.75]
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0 or width <= 0 or height <= 0:
        raise NotDrawable("viewBox")
    if root.get("preserveAspectRatio") not in (None, "none") and abs(width / box[2] - height / box[3]) > 1e-9 * width:
        raise NotDrawable("preserveAspectRatio on the root")
    sx, sy = width / box[2], height / box[3]
    painter = painter_type(measure, root)
    painter.emit(f"{fp_str(sx, 0, 0, -sy, -sx * box[0], height + sy * box[1])} cm")
    style = {"fill": "#000", "stroke": "none", "stroke-width": "1", "font-size": "16", "font-weight": "normal",
             "font-style": "normal", "font-family": "", "text-anchor": "start"}
    paint_children(painter, root, style)
    return painter.form(width, height)


def paint_children(painter: Painter, element, style: dict) -> None:
    for child in element:
        if isinstance(child.tag, str):
            paint(painter, child, style)


def cascade(element, inherited: dict, rules: dict) -> dict:
    """The element's style: what it inherits, then its attributes, its <style> rules, its style="…"."""
    style = {name: value for name, value in inherited.items() if name not in OWN}
    for name, value in element.attrib.items():
        if name in NAMES:
            style[name] = value.strip()
        elif name in REFUSED:
            raise NotDrawable(name)
    chosen = [("<style> ", rules[element].items())] if rules and element in rules else []
    if element.get("style"):
        chosen.append(("style ", (parse_declarations(element.get("style")) or {}).items()))
    for where, found in chosen:
        for name, value in found:
            name = name.strip()
            if name and name not in NAMES:
                raise NotDrawable(f"{where}{name}")
            if name:
                style[name] = value.strip()
    if "inherit" in style.values():
        raise NotDrawable("inherit")
    return style


def paint(painter: Painter, element, inherited: dict, grouped: bool = False) -> None:
    painter.depth += 1
    try:
        if painter.depth > MAX_DEPTH:
            raise NotDrawable(f"elements nested more than {MAX_DEPTH} deep once <use> is expanded")
        painter.mark(element)
        paint_element(painter, element, inherited, grouped)
    except NotDrawable as err:
        if err.args and not getattr(err, "line", None):
            err.line = element.sourceline  # the innermost element: where the message points
        raise
    finally:
        painter.depth -= 1


def paint_element(painter: Painter, element, inherited: dict, grouped: bool) -> None:
    """grouped: inside the transparency group its own opacity makes."""
    tag = element.tag
    if not tag.startswith(SVG):
        raise NotDrawable(f"element {tag}")
    name = tag[len(SVG):]
    if name in IGNORED:  # what defs hold is drawn only where it is referenced
        return
    painter.painted += 1
    if painter.painted > MAX_PAINTED:
        raise NotDrawable(f"more than {MAX_PAINTED:,} elements to draw once <use> is expanded")
    style = cascade(element, inherited, painter.rules)
    if style.get("display") == "none":
        return
    transform = element.get("transform")
    clip = element.get("clip-path", "none").strip()
    opacity = parse_fraction(style.get("opacity", "1"))
    if name in ("g", "svg", "use") and opacity < 1 and not grouped:
        painter.painted -= 1  # counted once, when painted inside the group
        painter.group(lambda: paint_element(painter, element, inherited, True), opacity)
        return
    wrapped = bool(transform) or clip != "none"
    if wrapped:
        painter.push()
        if transform:
            painter.emit(f"{fp_str(*parse_transform(transform))} cm")
        if clip != "none":
            paint_clip(painter, clip)
    if name == "g":
        paint_children(painter, element, style)
    elif name == "text":
        paint_text(painter, element, style, lambda child, inherited: cascade(child, inherited, painter.rules))
    elif name == "use":
        paint_use(painter, element, style)
    elif name == "svg":
        paint_viewport(painter, element, style, element.get("width"), element.get("height"))
    elif name == "image":
        paint_image(painter, element)
    else:
        paint_shape(painter, name, element, style)
    if wrapped:
        painter.pop()


def paint_clip(painter: Painter, value: str) -> None:
    clip, rest = referenced(painter.ids, value)
    if clip is None or clip.tag != SVG + "clipPath":
        raise NotDrawable(f'clip-path="{value[:40]}" (expected url(#id) of a <clipPath>)')
    painter.emit(clip_operators(clip, lambda name, child: trace_shape(name, child) or ""))


def paint_use(painter: Painter, element, style: dict) -> None:
    href = href_of(element)
    target = painter.ids.get(href[1:]) if href.startswith("#") else None
    if target is None:
        raise NotDrawable(f'<use href="{href[:60]}"> (expected the id of an element of the same face)')
    if element in painter.using or target is element or target in element.iterancestors():
        raise NotDrawable(f'<use href="{href[:60]}"> shows itself')
    x, y = parse_number(element.get("x"), 0), parse_number(element.get("y"), 0)
    painter.using.append(element)
    painter.push()
    if x or y:
        painter.emit(f"{fp_str(1, 0, 0, 1, x, y)} cm")
    if target.tag == SVG + "symbol":
        paint_viewport(painter, target, cascade(target, style, painter.rules),
                       element.get("width") or target.get("width"), element.get("height") or target.get("height"))
    else:
        paint(painter, target, style)
    painter.pop()
    painter.using.pop()


def paint_viewport(painter: Painter, element, style: dict, width: str | None, height: str | None) -> None:
    """A nested <svg> (or a used <symbol>): its children in its viewBox, clipped to its width × height."""
    width, height = (parse_number(size, 0) if size else None for size in (width, height))
    boxed, nested = element.get("viewBox") is not None, element.tag == SVG + "svg"
    if boxed and (width is None or height is None):
        raise NotDrawable(f"<{element.tag[len(SVG):]} viewBox> without a width and height (expected both, in user units)")
    if boxed and (width <= 0 or height <= 0):
        return
    x, y = (parse_number(element.get("x"), 0), parse_number(element.get("y"), 0)) if nested else (0, 0)
    painter.push()
    if boxed:
        painter.emit(f"{fp_str(x, y, width, height)} re W n")
        painter.emit(f"{fp_str(*multiply((1.0, 0.0, 0.0, 1.0, x, y), viewport(element, width, height)))} cm")
    elif nested and (element.get("x") or element.get("y")):
        painter.emit(f"{fp_str(1, 0, 0, 1, x, y)} cm")
    paint_children(painter, element, style)
    painter.pop()


def paint_shape(painter: Painter, name: str, element, style: dict) -> None:
    geometry = trace_shape(name, element)
    if geometry is None:
        return
    fill, stroke = choose_paint(painter, style)
    if stroke is not None and parse_number(style.get("stroke-width", "1"), 1) <= 0:
        stroke = None  # SVG draws no stroke of width 0; PDF would draw the thinnest line it can
    if style.get("visibility") in ("hidden", "collapse") or (fill is None and stroke is None):
        return
    opacity = parse_fraction(style.get("opacity", "1"))
    even_odd = style.get("fill-rule") == "evenodd"
    if fill is not None and not isinstance(fill, tuple):  # a gradient: shaded inside the shape as a clip
        record, matrix, alpha, mask = gradient_shading(painter.ids, fill, shape_box(geometry))
        painter.push()
        painter.emit(f"{geometry} {'W* n' if even_odd else 'W n'}")
        if mask is not None:
            painter.groups.append([f"{fp_str(*matrix)} cm", ["S", index_in(painter.shadings, mask)]])
            painter.special(["M", len(painter.groups) - 1])
        painter.emit(f"{fp_str(*matrix)} cm")
        painter.alpha("ca", round(opacity * alpha * parse_fraction(style.get("fill-opacity", "1")), 6))
        painter.special(["S", index_in(painter.shadings, record)])
        painter.pop()
        fill = None
        if stroke is None:
            return
    if fill is not None:
        painter.set("fill", fill, f"{fp_str(*fill)} rg")
        painter.alpha("ca", round(opacity * parse_fraction(style.get("fill-opacity", "1")), 6))
    if stroke is not None:
        set_stroke(painter, style, stroke)
        painter.alpha("CA", round(opacity * parse_fraction(style.get("stroke-opacity", "1")), 6))
    operator = "S" if fill is None else ("B" if stroke is not None else "f") + ("*" if even_odd else "")
    painter.emit(f"{geometry} {operator}")


def trace_shape(name: str, element) -> str | None:
    """The path of a basic shape, None when it draws nothing (zero size), NotDrawable when unknown."""
    get = element.get
    if name == "rect":
        x, y, w, h = (parse_number(get(a), 0) for a in ("x", "y", "width", "height"))
        rx, ry = get("rx", get("ry")), get("ry", get("rx"))  # one radius given is both
        return trace_rect(x, y, w, h, parse_number(rx, 0), parse_number(ry, 0)) if w > 0 and h > 0 else None
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


def choose_paint(painter: Painter, style: dict) -> tuple:
    """(fill, stroke): each an RGB tuple, a gradient element (fills only) or None."""
    chosen = []
    for name, default in (("fill", "#000"), ("stroke", "none")):
        server, rest = referenced(painter.ids, style.get(name, default))
        if server is not None and server.tag in (SVG + "linearGradient", SVG + "radialGradient"):
            if name == "stroke":
                raise NotDrawable("a gradient on a stroke (expected a colour)")
            chosen.append(server)
        else:  # a paint server that is not there: its fallback colour, else nothing (as SVG viewers do)
            chosen.append(parse_colour(rest or "none"))
    return tuple(chosen)


def paint_image(painter: Painter, element) -> None:
    """Stretched to its box; one without a width and height is refused (its size would be the file's)."""
    href = href_of(element)
    if element.get("width") is None or element.get("height") is None:
        raise NotDrawable("<image> without a size")
    x, y = parse_number(element.get("x"), 0), parse_number(element.get("y"), 0)
    w, h = parse_number(element.get("width"), 0), parse_number(element.get("height"), 0)
    if w <= 0 or h <= 0:
        return
    painter.push()
    painter.emit(f"{fp_str(1, 0, 0, -1, x, y + h)} cm")  # upside up again: the face's y axis points down
    painter.special(["I", index_in(painter.images, href), w, h])
    painter.pop()
