"""Turn what SVG elements reference (gradients, clip paths, <style> rules, viewports) into paint.py's terms."""
from __future__ import annotations

import re

from reportlab.lib.rl_accel import fp_str

from .svgpath import NotDrawable, multiply, parse_numbers, parse_transform
from .svgvalues import parse_colour, parse_declarations, parse_fraction, parse_number

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_URL = re.compile(r"^url\(\s*['\"]?#([^'\")\s]+)['\"]?\s*\)\s*(.*)$")
_ALIGN = re.compile(r"^x(Min|Mid|Max)Y(Min|Mid|Max)$")
SHARE = {"Min": 0.0, "Mid": 0.5, "Max": 1.0}
MAX_HREFS = 8  # a gradient taking its stops from another, which takes them from another...


def href_of(element) -> str:
    return element.get(XLINK_HREF) or element.get("href") or ""


def referenced(ids: dict, value: str):
    """(the element a url(#id) paint or clip names, what follows it); (None, value) for no url."""
    match = _URL.match(value.strip())
    if not match:
        return None, value
    return ids.get(match.group(1)), match.group(2).strip()


def style_rules(root) -> dict:
    """element -> the declarations its <style> rules give it, in cascade order (specificity, then order)."""
    text = "".join(e.text or "" for e in root.iter(SVG + "style", "style"))
    if not text.strip():
        return {}
    import cssselect2  # imported here: only a face with a <style> needs a CSS parser
    import tinycss2

    matcher = cssselect2.Matcher()
    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        declarations = parse_declarations(tinycss2.serialize(rule.content)) or {}
        for selector in cssselect2.compile_selector_list(rule.prelude):
            matcher.add_selector(selector, declarations)
    found = {}
    for wrapper in cssselect2.ElementWrapper.from_xml_root(root).iter_subtree():
        matches = matcher.match(wrapper)
        if matches:
            merged: dict = {}
            for *_, declarations in sorted(matches, key=lambda m: (m[0], m[1])):
                merged.update(declarations)
            found[wrapper.etree_element] = merged
    return found


def gradient_shading(ids: dict, element, box: tuple) -> tuple[list, tuple, float, list | None]:
    """A linear or radial gradient as (shading record, the matrix into its space, its constant opacity, and
    where the stops' opacities differ the shading record of those opacities as grey levels, else None).
    box: (x, y, width, height) of what it fills, for objectBoundingBox units."""
    chain = [element]
    while href_of(chain[-1]).startswith("#") and len(chain) < MAX_HREFS:
        more = ids.get(href_of(chain[-1])[1:])
        if more is None or more.tag not in (SVG + "linearGradient", SVG + "radialGradient") or more in chain:
            break
        chain.append(more)

    def attribute(name: str, default: str) -> str:
        return next((e.get(name) for e in chain if e.get(name) is not None), default)

    stops = next(([s for s in e if s.tag == SVG + "stop"] for e in chain if any(s.tag == SVG + "stop" for s in e)), [])
    if not stops:
        raise NotDrawable("a gradient without <stop>s (expected at least one)")
    if attribute("spreadMethod", "pad") != "pad":
        raise NotDrawable(f'spreadMethod="{attribute("spreadMethod", "")}" (expected pad)')
    colours, opacities, offset = [], [], 0.0
    for stop in stops:
        style = parse_declarations(stop.get("style") or "") or {}
        colour = parse_colour(style.get("stop-color", stop.get("stop-color", "black"))) or (0.0, 0.0, 0.0)
        offset = max(offset, parse_fraction(stop.get("offset", "0")))
        colours.append([round(offset, 6), *colour])
        opacities.append(parse_fraction(style.get("stop-opacity", stop.get("stop-opacity", "1"))))
    units = attribute("gradientUnits", "objectBoundingBox")
    if units not in ("objectBoundingBox", "userSpaceOnUse"):
        raise NotDrawable(f'gradientUnits="{units}"')
    bounding = units == "objectBoundingBox"

    def coordinate(name: str, default: str, extent: float) -> float:
        value = attribute(name, default).strip()
        if value.endswith("%"):
            return parse_number(value[:-1], 0) / 100 * (1 if bounding else extent)
        return parse_number(value, 0)

    matrix = (box[2], 0.0, 0.0, box[3], box[0], box[1]) if bounding else (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if attribute("gradientTransform", ""):
        matrix = multiply(matrix, parse_transform(attribute("gradientTransform", "")))
    width, height = (1.0, 1.0) if bounding else (box[2] or 1.0, box[3] or 1.0)
    if element.tag == SVG + "linearGradient":
        coords = [coordinate("x1", "0%", width), coordinate("y1", "0%", height),
                  coordinate("x2", "100%", width), coordinate("y2", "0%", height)]
        kind = 2
    else:
        cx, cy = coordinate("cx", "50%", width), coordinate("cy", "50%", height)
        r = coordinate("r", "50%", (width * width + height * height) ** 0.5 / 2 ** 0.5)
        fx = coordinate("fx", attribute("cx", "50%"), width)
        fy = coordinate("fy", attribute("cy", "50%"), height)
        coords, kind = [fx, fy, 0.0, cx, cy, r], 3
    if len(colours) == 1:
        colours.append([1.0, *colours[0][1:]])
        opacities.append(opacities[0])
    coords = [round(c, 6) for c in coords]
    mask = None
    if len(set(opacities)) > 1:  # a soft mask of the opacities, shaded as the colours are
        mask = [kind, coords, [[stop[0], *[round(alpha, 6)] * 3] for stop, alpha in zip(colours, opacities)]]
    return [kind, coords, colours], matrix, opacities[0] if mask is None else 1.0, mask


def shape_box(operators: str) -> tuple:
    """(x, y, width, height) around a traced path's points (Bézier control points included)."""
    xs, ys, numbers = [], [], []
    for token in operators.split():
        if token == "re":
            x, y, w, h = numbers[-4:]
            xs += [x, x + w]
            ys += [y, y + h]
        elif token in ("m", "l", "c"):
            xs += numbers[0::2]
            ys += numbers[1::2]
        if token[0].isalpha():
            numbers = []
        else:
            numbers.append(float(token))
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def clip_operators(clip, trace) -> str:
    """The operators clipping to a <clipPath>'s shapes (their union), trace(name, element) -> a path."""
    if clip.get("clipPathUnits", "userSpaceOnUse") != "userSpaceOnUse":
        raise NotDrawable('clipPathUnits="objectBoundingBox" (expected userSpaceOnUse)')
    shapes = [child for child in clip if isinstance(child.tag, str) and child.tag.startswith(SVG)
              and child.tag[len(SVG):] not in ("title", "desc")]
    moved = [child for child in shapes if child.get("transform")]
    if moved and len(shapes) > 1:
        raise NotDrawable("a <clipPath> of several shapes where one has a transform (expected one shape, or none moved)")
    paths = [trace(child.tag[len(SVG):], child) for child in shapes]
    even_odd = any(child.get("clip-rule") == "evenodd" for child in shapes) or clip.get("clip-rule") == "evenodd"
    code = " ".join(p for p in paths if p) or "0 0 m h"  # an empty clip path shows nothing
    prefix = [f"{fp_str(*parse_transform(clip.get('transform')))} cm"] if clip.get("transform") else []
    if moved:
        prefix.append(f"{fp_str(*parse_transform(moved[0].get('transform')))} cm")
    return " ".join(prefix + [code, "W* n" if even_odd else "W n"])


def viewport(element, width: float, height: float) -> tuple:
    """The matrix mapping an element's viewBox into its width × height, as preserveAspectRatio says."""
    view = element.get("viewBox")
    if not view:
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    box = parse_numbers(view)
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        raise NotDrawable(f'viewBox="{view[:40]}" (expected x y width height, the sizes above 0)')
    sx, sy = width / box[2], height / box[3]
    aspect = (element.get("preserveAspectRatio") or "xMidYMid meet").split()
    if aspect[0] == "none":
        return (sx, 0.0, 0.0, sy, -box[0] * sx, -box[1] * sy)
    align = _ALIGN.match(aspect[0])
    if not align or (len(aspect) > 1 and aspect[1] not in ("meet", "slice")):
        raise NotDrawable(f'preserveAspectRatio="{" ".join(aspect)[:40]}"')
    scale = max(sx, sy) if len(aspect) > 1 and aspect[1] == "slice" else min(sx, sy)
    dx = (width - box[2] * scale) * SHARE[align.group(1)]
    dy = (height - box[3] * scale) * SHARE[align.group(2)]
    return (scale, 0.0, 0.0, scale, dx - box[0] * scale, dy - box[1] * scale)
