"""Turn SVG geometry (path data, rectangles, ellipses, transforms) into PDF path operators."""
from __future__ import annotations

import math
import re

from reportlab.lib.rl_accel import fp_str

KAPPA = 0.5522847498  # control-point distance of a quarter circle drawn as one cubic Bézier
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TOKEN = re.compile(rf"([MmZzLlHhVvCcSsQqTtAa])|({_NUMBER})|([\s,]+)|(.)")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_TRANSFORM = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)  # a matrix (a, b, c, d, e, f) that moves nothing


class NotDrawable(ValueError):
    """The SVG uses something the painter does not draw; the converter refuses the face, naming the line."""


def parse_numbers(text: str) -> list[float]:
    values = [float(v) for v in re.findall(_NUMBER, text)]
    if any(not math.isfinite(v) for v in values):
        raise NotDrawable("non-finite number")
    return values


def parse_transform(text: str) -> tuple[float, ...]:
    """The 6-number matrix of an SVG transform list, composed left to right."""
    matrix = IDENTITY
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TRANSFORM.match(text, position)
        if not match:
            raise NotDrawable(f"transform {text!r}")
        name, args = match.group(1), parse_numbers(match.group(2))
        position = match.end()
        if name == "matrix" and len(args) == 6:
            step = tuple(args)
        elif name == "translate" and len(args) in (1, 2):
            step = (1, 0, 0, 1, args[0], args[1] if len(args) == 2 else 0)
        elif name == "scale" and len(args) in (1, 2):
            step = (args[0], 0, 0, args[1] if len(args) == 2 else args[0], 0, 0)
        elif name == "rotate" and len(args) in (1, 3):
            a = math.radians(args[0])
            c, s = math.cos(a), math.sin(a)
            cx, cy = (args[1], args[2]) if len(args) == 3 else (0, 0)
            step = (c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy)
        elif name in ("skewX", "skewY") and len(args) == 1:
            t = math.tan(math.radians(args[0]))
            step = (1, 0, t, 1, 0, 0) if name == "skewX" else (1, t, 0, 1, 0, 0)
        else:
            raise NotDrawable(f"transform {name}{tuple(args)}")
        matrix = multiply(matrix, step)
    return matrix


def multiply(m: tuple, n: tuple) -> tuple:
    """m then n applied to points inside n's frame (SVG's left-to-right composition)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f)


def trace_rect(x: float, y: float, w: float, h: float, rx: float, ry: float) -> str:
    if rx <= 0 or ry <= 0:
        return f"{fp_str(x, y, w, h)} re"
    rx, ry = min(rx, w / 2), min(ry, h / 2)
    kx, ky = rx * KAPPA, ry * KAPPA
    x1, y1 = x + w, y + h
    return " ".join((
        f"{fp_str(x + rx, y)} m", f"{fp_str(x1 - rx, y)} l",
        f"{fp_str(x1 - rx + kx, y, x1, y + ry - ky, x1, y + ry)} c", f"{fp_str(x1, y1 - ry)} l",
        f"{fp_str(x1, y1 - ry + ky, x1 - rx + kx, y1, x1 - rx, y1)} c", f"{fp_str(x + rx, y1)} l",
        f"{fp_str(x + rx - kx, y1, x, y1 - ry + ky, x, y1 - ry)} c", f"{fp_str(x, y + ry)} l",
        f"{fp_str(x, y + ry - ky, x + rx - kx, y, x + rx, y)} c h"))


def trace_ellipse(cx: float, cy: float, rx: float, ry: float) -> str:
    kx, ky = rx * KAPPA, ry * KAPPA
    return " ".join((
        f"{fp_str(cx + rx, cy)} m",
        f"{fp_str(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)} c",
        f"{fp_str(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)} c",
        f"{fp_str(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)} c",
        f"{fp_str(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)} c h"))


def trace_points(text: str, close: bool) -> str:
    values = parse_numbers(text)
    if len(values) < 4:
        return ""
    pairs = [values[i:i + 2] for i in range(0, len(values) - 1, 2)]
    ops = [f"{fp_str(*pairs[0])} m"] + [f"{fp_str(*p)} l" for p in pairs[1:]]
    return " ".join(ops + (["h"] if close else []))


def trace_path(data: str) -> str:
    """PDF path construction operators for SVG path data (absolute and relative, arcs as Béziers)."""
    ops: list[str] = []
    x = y = start_x = start_y = 0.0
    last_control = None  # (x, y, kind): the reflected control point of S/s and T/t
    command = None
    args: list[float] = []

    def reflect(kind: str) -> tuple[float, float]:
        """The last control point mirrored about the current point, if the last segment was a curve of kind."""
        return (2 * x - last_control[0], 2 * y - last_control[1]) if last_control and last_control[2] == kind else (x, y)

    def flush(cmd: str, values: list[float]) -> None:
        nonlocal x, y, start_x, start_y, last_control, command
        upper, relative = cmd.upper(), cmd.islower()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        if upper == "M":
            x, y = ox + values[0], oy + values[1]
            start_x, start_y = x, y
            ops.append(f"{fp_str(x, y)} m")
            command = "l" if relative else "L"  # further pairs are line-tos
            last_control = None
        elif upper in "LHV":
            x = ox + values[0] if upper != "V" else x
            y = oy + values[-1] if upper != "H" else y
            ops.append(f"{fp_str(x, y)} l")
            last_control = None
        elif upper in "CS":
            x1, y1 = (ox + values[0], oy + values[1]) if upper == "C" else reflect("C")
            x2, y2, x, y = ox + values[-4], oy + values[-3], ox + values[-2], oy + values[-1]
            ops.append(f"{fp_str(x1, y1, x2, y2, x, y)} c")
            last_control = (x2, y2, "C")
        elif upper in "QT":
            qx, qy = (ox + values[0], oy + values[1]) if upper == "Q" else reflect("Q")
            ex, ey = ox + values[-2], oy + values[-1]
            ops.append(f"{fp_str(x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)} c")
            x, y = ex, ey
            last_control = (qx, qy, "Q")
        elif upper == "A":
            ex, ey = ox + values[5], oy + values[6]
            ops.extend(trace_arc(x, y, values[0], values[1], values[2], values[3] != 0, values[4] != 0, ex, ey))
            x, y = ex, ey
            last_control = None

    for match in _TOKEN.finditer(data):
        letter, number, space, other = match.groups()
        if other:
            raise NotDrawable(f"path data {other!r}")
        if space:
            continue
        if letter:
            if command and args:
                raise NotDrawable("path data with a missing number")
            command, args = letter, []
            if letter in "Zz":
                ops.append("h")
                x, y = start_x, start_y
                last_control = None
                command = None
            continue
        if command is None:
            raise NotDrawable("path data must start with a command")
        value = float(number)
        if not math.isfinite(value):
            raise NotDrawable("non-finite number")
        args.append(value)
        if len(args) == _ARGS[command.upper()]:
            flush(command, args)
            args = []
    if args:
        raise NotDrawable("path data with a missing number")
    return " ".join(ops)


def trace_arc(x1: float, y1: float, rx: float, ry: float, angle: float, large: bool, sweep: bool,
            x2: float, y2: float) -> list[str]:
    """An SVG elliptical arc as cubic Béziers (endpoint to centre parameterisation, SVG 1.1 F.6)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [f"{fp_str(x2, y2)} l"]
    phi = math.radians(angle % 360)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos_phi * dx + sin_phi * dy, -sin_phi * dx + cos_phi * dy
    scale = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    factor = math.sqrt(max(0.0, numerator / denominator)) if denominator else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x1 + x2) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y1 + y2) / 2

    def angle_of(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    theta = angle_of(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    delta = angle_of((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    segments = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / segments
    t = 4 / 3 * math.tan(step / 4)
    ops = []
    for i in range(segments):
        a0, a1 = theta + i * step, theta + (i + 1) * step
        c0, s0, c1, s1 = math.cos(a0), math.sin(a0), math.cos(a1), math.sin(a1)
        points = ((c0 - t * s0, s0 + t * c0), (c1 + t * s1, s1 - t * c1), (c1, s1))
        mapped = []
        for px, py in points:
            px, py = px * rx, py * ry
            mapped += [cos_phi * px - sin_phi * py + cx, sin_phi * px + cos_phi * py + cy]
        if i == segments - 1:
            mapped[4], mapped[5] = x2, y2
        ops.append(f"{fp_str(*mapped)} c")
    return ops
