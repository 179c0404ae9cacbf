"""Turn lengths written by designers ("63mm", "2.5in", "9pt") into points, the one internal unit."""
from __future__ import annotations

import re

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}

CARD_SIZES_MM = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "euro": (59.0, 92.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

PAPER_SIZES_MM = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "a5": (148.0, 210.0),
    "letter": (215.9, 279.4),
    "tabloid": (279.4, 431.8),
}

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


def parse_length(text: str | int | float, default_unit: str | None = None) -> float:
    """Return the length in points; raise ValueError with the expected form."""
    if isinstance(text, bool):
        raise ValueError("expected a length such as 63mm, 2.5in or 9pt")
    if isinstance(text, (int, float)):
        if default_unit is None:
            raise ValueError(f"a bare number {text} has no unit: write it as {text}mm, {text}in or {text}pt")
        return float(text) * POINTS_PER[default_unit]
    match = _LENGTH.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a length: expected a number with a unit, such as 63mm, 2.5in or 9pt")
    return float(match.group(1)) * POINTS_PER[match.group(2)]


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / POINTS_PER["mm"]
