"""Turn a component's `shape:` value into its kind and Outline; SVG path data into absolute segments."""
from __future__ import annotations

import math
import re

from .. import units
from ..errors import Collector
from .load import LMap
from .model import Outline, Size
from .validate_layout import read_size
from .validate_values import describe, read_value

SHAPES = ("rect", "round", "hex")
MAX_SEGMENTS = 1000  # a die-cut outline, not an illustration
MIN_MM = 5.0  # a smaller piece cannot be cut out by hand
MAX_MM = 2000.0
_TOKEN = re.compile(r"\s*,?\s*(?:([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
HINT = "rect, round, hex, {hex: pointy}, {rounded: 3mm} or {path: \"M0 0 L40 0 L20 30 Z\"}"


def read_shape(raw: LMap, problems: Collector) -> tuple[str, Outline | None]:
    """Return (shape kind, outline) of a component; rect and round need no outline."""
    value = raw.get("shape", "rect")
    where = raw.where("shape")
    if value in SHAPES:
        return value, (Outline("hex") if value == "hex" else None)
    if not isinstance(value, LMap) or len(value) != 1:
        problems.add(where, f"'shape' must be one of {HINT}; found {describe(value)}")
        return "rect", None
    kind = next(iter(value))
    if kind == "hex":
        orientation = read_value(value, "hex", "choice:flat,pointy", problems, default="flat")
        return "hex", Outline("hex", orientation=orientation)
    if kind == "rounded":
        radius = read_value(value, "rounded", "length", problems, default=0.0)
        return "rounded", Outline("rounded", radius=radius)
    if kind == "path":
        if not isinstance(value["path"], str):
            problems.add(value.where("path"), f"'path' must be SVG path data in quotes; found {describe(value['path'])}")
            return "rect", None
        try:
            segments = parse_path(value["path"])
        except ValueError as err:
            problems.add(value.where("path"), f"shape path: {err}")
            return "rect", None
        return "path", read_path_outline(segments)
    problems.add(value.where_key(kind), f"unknown shape '{kind}'; expected one of {HINT}")
    return "rect", None


def check_size(kind: str, outline: Outline | None, raw: LMap, problems: Collector) -> Size:
    """The size a shape allows: a path sets its own, a hex is regular (one side given sets the other); any other
    is read_size's. A die-cut piece is at least MIN_MM each way."""
    size = _shape_size(kind, outline, raw, problems)
    if outline is not None and min(size.width, size.height) < units.mm(MIN_MM) - 1e-9:
        problems.add(raw.where("shape"), f"a {kind} piece {units.to_mm(size.width):.2f} × {units.to_mm(size.height):.2f} mm "
                                         f"is too small to cut out; expected at least {MIN_MM:g} mm each way")
        return Size(max(size.width, units.mm(MIN_MM)), max(size.height, units.mm(MIN_MM)))
    return size


def _shape_size(kind: str, outline: Outline | None, raw: LMap, problems: Collector) -> Size:
    if kind == "path":  # read_shape gives a path and a hex their outline
        if "size" in raw:
            problems.add(raw.where("size"), "a shape path sets the size (its bounding box); expected no 'size' beside it")
        return size_path(outline)
    if kind != "hex":
        return read_size(raw, problems)
    given = raw.get("size")
    only = [k for k in ("width", "height") if isinstance(given, LMap) and set(given) == {k}]
    if only:
        across = read_value(given, only[0], "length", problems, default=units.mm(40))
        return Size(*size_hex(max(across, 1e-3), outline.orientation, only[0] == "width"))
    size = read_size(raw, problems)
    regular = Size(*size_hex(size.width, outline.orientation, True))
    if abs(regular.height - size.height) > units.mm(0.05):
        problems.add(raw.where("size") if "size" in raw else raw.loc,
                     f"a regular {outline.orientation} hex {units.to_mm(size.width):g} mm wide is "
                     f"{units.to_mm(regular.height):.2f} mm high; expected only one of width and height, "
                     "such as size: {width: 40mm}")
    return regular


def size_hex(across: float, orientation: str, along_width: bool) -> tuple[float, float]:
    """Return (width, height) of a regular hexagon from its width (along_width) or its height."""
    ratio = math.sqrt(3) / 2  # flat: height / width; pointy: width / height
    if orientation == "flat":
        return (across, across * ratio) if along_width else (across / ratio, across)
    return (across, across / ratio) if along_width else (across * ratio, across)


def parse_path(d: str) -> list[tuple]:
    """Return SVG path data (mm, y down) as absolute ("M", x, y), ("L", x, y), ("C", 6 numbers), ("Z",);
    quadratic curves and arcs become cubic curves. Raise ValueError saying what is wrong."""
    tokens, pos = [], 0
    while pos < len(d.rstrip()):
        match = _TOKEN.match(d, pos)
        if not match or match.end() == pos:
            raise ValueError(f"cannot read '{d[pos:pos + 12].strip()}' at character {pos + 1}; "
                             "expected path commands (M L H V C S Q T A Z) and numbers")
        tokens.append(match.group(1) or float(match.group(2)))
        pos = match.end()
    if not tokens or tokens[0] not in ("M", "m"):
        raise ValueError("path data must start with M; expected e.g. \"M0 0 L40 0 L20 30 Z\"")
    out: list[tuple] = []
    x = y = start_x = start_y = 0.0
    last_control, command, i = None, None, 0
    while i < len(tokens):
        if isinstance(tokens[i], str):
            command, i = tokens[i], i + 1
        upper = command.upper()
        args = tokens[i:i + _ARITY[upper]]
        if len(args) < _ARITY[upper] or any(isinstance(a, str) for a in args):
            raise ValueError(f"'{command}' needs {_ARITY[upper]} numbers; expected e.g. \"L 40 0\"")
        i += _ARITY[upper]
        if not all(math.isfinite(a) and abs(a) <= MAX_MM for a in args):
            raise ValueError(f"a coordinate of '{command}' is not a number within ±{MAX_MM:g} mm")
        rel = command.islower()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        control = None
        if upper == "Z":
            out.append(("Z",))
            x, y = start_x, start_y
        elif upper in "ML":
            x, y = args[0] + ox, args[1] + oy
            out.append((upper, x, y))
            if upper == "M":
                start_x, start_y = x, y
                command = "l" if rel else "L"  # further pairs after M are line-tos
        elif upper == "H":
            x = args[0] + ox
            out.append(("L", x, y))
        elif upper == "V":
            y = args[0] + oy
            out.append(("L", x, y))
        elif upper in "CS":
            c1 = _reflect(last_control, x, y, "CS") if upper == "S" else (args[0] + ox, args[1] + oy)
            c2, end = (args[-4] + ox, args[-3] + oy), (args[-2] + ox, args[-1] + oy)
            out.append(("C", *c1, *c2, *end))
            control, (x, y) = ("C", *c2), end
        elif upper in "QT":
            q = _reflect(last_control, x, y, "Q") if upper == "T" else (args[0] + ox, args[1] + oy)
            end = (args[-2] + ox, args[-1] + oy)
            out.append(("C", x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y),
                        end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]), *end))
            control, (x, y) = ("Q", *q), end
        else:
            end = (args[5] + ox, args[6] + oy)
            out.extend(_arc(x, y, *args[:5], *end))
            x, y = end
        last_control = control
        if len(out) > MAX_SEGMENTS:
            raise ValueError(f"more than {MAX_SEGMENTS} segments; expected a die-cut outline")
    if not any(s[0] == "Z" for s in out):
        raise ValueError("the outline is not closed; expected it to end with Z")
    drawn = 0
    for segment in out:  # every closed subpath must enclose something: M and at least two more points
        if segment[0] == "Z" and drawn < 2:
            raise ValueError("a closed part of the outline has fewer than three points; expected an area, "
                             "such as \"M0 0 L40 0 L20 30 Z\"")
        drawn = 0 if segment[0] in "MZ" else drawn + 1
    return out


def _reflect(last, x, y, kinds) -> tuple[float, float]:
    # S and T mirror the previous curve's last control point about the current point, if it was one.
    if last is None or last[0] not in kinds:
        return x, y
    return 2 * x - last[1], 2 * y - last[2]


def _arc(x0, y0, rx, ry, rotation, large, sweep, x1, y1) -> list[tuple]:
    """An SVG elliptical arc as cubic curves of at most 90° each (SVG 1.1 appendix F.6)."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0 or (x0, y0) == (x1, y1):
        return [("L", x1, y1)]
    phi = math.radians(rotation)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x0 - x1) / 2, (y0 - y1) / 2
    px, py = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = px * px / (rx * rx) + py * py / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
    factor = math.sqrt(max(0.0, num / (rx * rx * py * py + ry * ry * px * px)))
    if bool(large) == bool(sweep):
        factor = -factor
    cx_, cy_ = factor * rx * py / ry, -factor * ry * px / rx
    cx, cy = cos * cx_ - sin * cy_ + (x0 + x1) / 2, sin * cx_ + cos * cy_ + (y0 + y1) / 2
    start = math.atan2((py - cy_) / ry, (px - cx_) / rx)
    delta = math.atan2((-py - cy_) / ry, (-px - cx_) / rx) - start
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    count = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / count
    k = 4 / 3 * math.tan(step / 4)

    def point(a, along=0.0):
        ex, ey = rx * (math.cos(a) - along * math.sin(a)), ry * (math.sin(a) + along * math.cos(a))
        return cx + cos * ex - sin * ey, cy + sin * ex + cos * ey

    curves = []
    for n in range(count):
        a0, a1 = start + n * step, start + (n + 1) * step
        curves.append(("C", *point(a0, k), *point(a1, -k), *point(a1)))
    return curves


def read_path_outline(segments: list[tuple]) -> Outline:
    """Move the path to start its bounding box at (0, 0), in points, and keep its mm text for templates."""
    x0, y0, _, _ = bound_path(segments)
    moved = [(s[0], *((v - x0) if i % 2 == 0 else (v - y0) for i, v in enumerate(s[1:]))) for s in segments]
    d = " ".join(s[0] + " ".join(f"{v:.4g}" for v in s[1:]) for s in moved)
    return Outline("path", segments=tuple((s[0], *(units.mm(v) for v in s[1:])) for s in moved), d=d)


def size_path(outline: Outline) -> Size:
    _, _, x1, y1 = bound_path(outline.segments)
    return Size(max(x1, 1e-6), max(y1, 1e-6))


def bound_path(segments) -> tuple[float, float, float, float]:
    """The exact bounding box of a path's end points and curve extremes."""
    xs, ys, here = [], [], (0.0, 0.0)
    for s in segments:
        if s[0] in "ML":
            here = s[1:3]
            xs.append(here[0])
            ys.append(here[1])
        elif s[0] == "C":
            for axis, out in ((0, xs), (1, ys)):
                p = (here[axis], s[1 + axis], s[3 + axis], s[5 + axis])
                out.extend(_cubic_at(p, t) for t in [0.0, 1.0] + _extremes(*p))
            here = s[5:7]
    return min(xs), min(ys), max(xs), max(ys)


def _cubic_at(p, t: float) -> float:
    u = 1 - t
    return u ** 3 * p[0] + 3 * u * u * t * p[1] + 3 * u * t * t * p[2] + t ** 3 * p[3]


def _extremes(p0, p1, p2, p3) -> list[float]:
    # Roots in (0, 1) of the derivative a t² + b t + c of one coordinate of a cubic.
    a, b, c = -p0 + 3 * p1 - 3 * p2 + p3, 2 * (p0 - 2 * p1 + p2), p1 - p0
    if abs(a) < 1e-12:
        return [-c / b] if abs(b) > 1e-12 and 0 < -c / b < 1 else []
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    roots = ((-b + math.sqrt(disc)) / (2 * a), (-b - math.sqrt(disc)) / (2 * a))
    return [t for t in roots if 0 < t < 1]


def describe_outline(outline: Outline, size: Size) -> str:
    """The cut outline as SVG path data in template millimetres (y down, from the trim's top-left)."""
    w, h = units.to_mm(size.width), units.to_mm(size.height)
    if outline.kind == "path":
        return outline.d
    if outline.kind == "rounded":
        r = min(units.to_mm(outline.radius), w / 2, h / 2)
        arc = f"A{r:.4g} {r:.4g} 0 0 1"
        return (f"M{r:.4g} 0 H{w - r:.4g} {arc} {w:.4g} {r:.4g} V{h - r:.4g} {arc} {w - r:.4g} {h:.4g} "
                f"H{r:.4g} {arc} 0 {h - r:.4g} V{r:.4g} {arc} {r:.4g} 0 Z")
    if outline.orientation == "flat":
        points = [(0, h / 2), (w / 4, 0), (3 * w / 4, 0), (w, h / 2), (3 * w / 4, h), (w / 4, h)]
    else:
        points = [(w / 2, 0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0, 3 * h / 4), (0, h / 4)]
    return "M" + " L".join(f"{x:.4g} {y:.4g}" for x, y in points) + " Z"
