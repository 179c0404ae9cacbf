"""Turn SVG attribute values (numbers, lengths, colours, opacities) into floats for paint.py."""
from __future__ import annotations

import functools
import math
import re

from .svgpath import NotDrawable

PT_PER_MM = 72 / 25.4
UNITS = {"mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": 72.0, "pt": 1.0, "pc": 12.0, "px": 0.75, "": 0.75}
_LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(mm|cm|in|pt|pc|px|)\s*$")
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_RGB = re.compile(r"^rgb\(\s*([^,\s]+)\s*,?\s*([^,\s]+)\s*,?\s*([^,\s)]+)\s*\)$")
# cmyk(0,100,100,0) in percent (as designers write it) and CSS Color 4's device-cmyk(0 1 1 0) in fractions,
# either of them with % signs
_CMYK = re.compile(r"^(cmyk|device-cmyk)\(\s*" + r"(?:\s*,\s*|\s+)".join([r"([-+]?[\d.]+%?)"] * 4) + r"\s*\)$")


class Ink(tuple):
    """A colour a template gave in CMYK: its sRGB look (the tuple, what RGB files show) and the exact inks
    (cmyk, 0–1 each), which CMYK files print as they are."""

    cmyk: tuple[float, float, float, float]


def parse_length(text: str) -> float:
    match = _LENGTH.match(text or "")
    if not match:
        raise NotDrawable(f"length {text!r}")
    value = float(match.group(1)) * UNITS[match.group(2)]
    if not math.isfinite(value):
        raise NotDrawable("non-finite length")
    return value


def parse_number(text: str | None, default: float) -> float:
    """A plain SVG number attribute (no unit); anything else is not drawn."""
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise NotDrawable(f"number {text[:40]!r}") from None
    if not math.isfinite(value) or "_" in text:
        raise NotDrawable(f"number {text[:40]!r}")
    return value


@functools.lru_cache(maxsize=256)  # an opacity is given in a few ways ("1", "0.5") on element after element
def parse_fraction(text: str) -> float:
    return min(max(parse_share(text.strip(), 1), 0.0), 1.0)


def parse_share(text: str, whole: float) -> float:
    """A number or a percentage, as a share of whole (an opacity of 1, a colour channel of 255)."""
    return parse_number(text[:-1], 0) / 100 if text.endswith("%") else parse_number(text, 0) / whole


@functools.lru_cache(maxsize=1024)  # a deck's faces name the same few colours, element after element
def parse_colour(text: str) -> tuple[float, float, float] | None:
    text = text.strip()
    lowered = text.lower()
    if lowered in ("none", "transparent"):
        return None
    match = _HEX.match(text)
    if match:
        digits = match.group(1)
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        return tuple(round(int(digits[i:i + 2], 16) / 255, 6) for i in (0, 2, 4))
    match = _RGB.match(lowered)
    if match:
        try:
            return tuple(round(min(max(parse_share(value, 255), 0.0), 1.0), 6) for value in match.groups())
        except NotDrawable:
            raise NotDrawable(f"colour {text!r}") from None
    match = _CMYK.match(lowered)
    if match:
        return parse_cmyk(text, match.group(1) == "cmyk", match.groups()[1:])
    if lowered.startswith(("cmyk(", "device-cmyk(")):
        raise NotDrawable(f"colour {text!r} (expected four numbers)")
    found = load_colour_keywords().get(lowered)
    if found is None:
        raise NotDrawable(f"colour {text!r}")
    return found


def parse_declarations(text: str) -> dict[str, str] | None:
    """name: value; pairs, or None for a declaration holding another ':' (lint refuses it: the painter sees none)."""
    found = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        if part.count(":") != 1:
            return None
        name, value = (s.strip() for s in part.split(":"))
        found[name] = value
    return found


def parse_cmyk(text: str, percent: bool, values: tuple[str, ...]) -> Ink:
    from .cmyk import converter_for  # the profile is read only by the faces that give CMYK

    try:  # cmyk() counts in percent, device-cmyk() in fractions of one
        inks = [round(min(max(parse_share(value, 100 if percent else 1), 0.0), 1.0), 4) for value in values]
    except NotDrawable:
        raise NotDrawable(f"colour {text!r} (expected four numbers)") from None
    ink = Ink(converter_for().to_rgb(tuple(inks)))
    ink.cmyk = tuple(inks)
    return ink


@functools.cache
def load_colour_keywords() -> dict[str, tuple[float, float, float]]:
    """The colour keywords (white, navy…) as reportlab names them; read when a face first names a colour."""
    from reportlab.lib import colors

    return {name.lower(): (round(c.red, 6), round(c.green, 6), round(c.blue, 6))
            for name, c in colors.getAllNamedColors().items() if hasattr(c, "red")}


def parse_font_size(text: str) -> float:
    match = _LENGTH.match(text)
    if not match or match.group(2) not in ("", "px"):
        raise NotDrawable(f"font-size {text!r}")
    value = float(match.group(1))
    if not (math.isfinite(value) and value > 0):
        raise NotDrawable("font-size")
    return value
