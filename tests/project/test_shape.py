"""SVG path data for die-cut outlines: every command read to absolute segments, exact bounds, clear errors."""
from __future__ import annotations

import math

import pytest

from pnpgen import units
from pnpgen.press.dieline import trace_outline
from pnpgen.press.shapes import flatten_path, offset
from pnpgen.project.model import Outline, Size
from pnpgen.project.shape import size_hex, parse_path, read_path_outline, size_path


def size_mm(d: str) -> tuple[float, float]:
    size = size_path(read_path_outline(parse_path(d)))
    return round(units.to_mm(size.width), 6), round(units.to_mm(size.height), 6)


@pytest.mark.parametrize("d, expected", [
    ("M0 0 L40 0 L20 30 Z", (40, 30)),
    ("m10 10 h40 v30 h-40 z", (40, 30)),  # relative, horizontal and vertical
    ("M0,0 40,0 40,30 0,30Z", (40, 30)),  # implicit line-tos after M, commas
    ("M0 0 H40 V25 Q40 45 20 50 Q0 45 0 25 Z", (40, 50)),  # a shield: quadratic curves, exact extreme
    ("M10 0 A10 10 0 1 1 10 20 A10 10 0 0 1 10 0 Z", (20, 20)),  # a circle from two arcs
    ("M0 0 C0 -10 40 -10 40 0 S 0 10 0 0 Z", (40, 15)),  # smooth cubic reflects the last control point
    ("M0 0 Q20 -20 40 0 T 80 0 Z", (80, 20)),  # smooth quadratic
    ("M-5-5L5-5L5 5z", (10, 10)),  # numbers run together
])
def test_paths_have_exact_bounds(d, expected):
    assert size_mm(d) == pytest.approx(expected, abs=1e-4)


def test_a_circle_from_arcs_stays_on_its_radius():
    outline = read_path_outline(parse_path("M10 0 A10 10 0 1 1 10 20 A10 10 0 0 1 10 0 Z"))
    polygon, = flatten_path(outline.segments)
    centre = (units.mm(10), units.mm(10))
    assert all(math.dist(p, centre) == pytest.approx(units.mm(10), abs=units.mm(0.02)) for p in polygon)


@pytest.mark.parametrize("d, message", [
    ("L0 0 L1 1 Z", "must start with M"),
    ("M0 0 L40 0 L20 30", "not closed"),
    ("M0 0 L10 10 Z", "fewer than three points"),
    ("M0 0 L40", "'L' needs 2 numbers"),
    ("M0 0 L40 0 X 1 Z", "cannot read 'X 1 Z'"),
    ("M0 0 L1e9 0 Z", "within ±2000 mm"),
    ("M0 0 " + "L1 1 " * 1001 + "Z", "more than 1000 segments"),
])
def test_bad_paths_say_what_is_wrong(d, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        parse_path(d)


def test_path_outline_is_y_up_from_its_bounding_box():
    outline = read_path_outline(parse_path("M100 100 L140 100 L120 130 Z"))
    size = size_path(outline)
    polygon, = trace_outline(outline, size)
    ys = sorted(round(units.to_mm(y), 6) for _, y in polygon)
    assert ys == [0, 30, 30]  # the tip (y 130 in the path, downwards) is at the bottom
    assert outline.d.startswith("M0 0 L40 0")


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_hexes_are_regular(orientation):
    w, h = size_hex(units.mm(40), orientation, along_width=True)
    polygon, = trace_outline(Outline("hex", orientation=orientation), Size(w, h))
    sides = [math.dist(a, b) for a, b in zip(polygon, polygon[1:] + polygon[:1])]
    assert max(sides) == pytest.approx(min(sides), abs=1e-9)


def test_offset_grows_every_side_by_the_distance():
    square = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
    grown, = offset([square], 10.0)
    xs, ys = [p[0] for p in grown], [p[1] for p in grown]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((-10, 110, -10, 110), abs=0.01)
    # corners rounded within a tenth of a millimetre (2.83 pt): the bleed is cut away, only its reach counts
    assert _area(grown) == pytest.approx(100 * 100 + 4 * 100 * 10 + math.pi * 100, rel=2e-3)
    corner = [p for p in grown if p[0] > 100 and p[1] > 100]
    assert corner and all(9.7 <= math.dist(p, (100, 100)) <= 10.01 for p in corner)


def _area(polygon) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]))) / 2
