"""Turn a component's size and layout keys into its trim size and the way its pieces are laid on sheets."""
from __future__ import annotations

from .. import units
from ..errors import Collector, Location
from .load import LMap
from .model import Layout, Size
from .schema import check_keys
from .validate_values import read_value


def empty_mapping(location: Location) -> LMap:
    mapping = LMap()
    mapping.loc, mapping.key_locs, mapping.value_locs = location, {}, {}
    return mapping


def read_size(raw: LMap, problems: Collector) -> Size:
    value = raw.get("size", "poker")
    where = raw.where("size")
    if isinstance(value, str) and value in units.CARD_SIZES_MM:
        w, h = units.CARD_SIZES_MM[value]
        return Size(units.mm(w), units.mm(h))
    if isinstance(value, LMap) and set(value) <= {"width", "height"}:
        width = read_value(value, "width", "length", problems)
        height = read_value(value, "height", "length", problems)
        if width is not None and height is not None:
            if width <= 0 or height <= 0:
                problems.add(where, "a size must be larger than zero in both directions")
            elif max(width, height) > units.mm(2000):
                problems.add(where, "a size over 2 m is not a printable piece; expected a size in mm, cm, in or pt")
            else:
                return Size(width, height)
        elif "width" not in value or "height" not in value:
            problems.add(where, "a size needs both width and height, such as {width: 63mm, height: 88mm}")
    else:
        presets = ", ".join(units.CARD_SIZES_MM)
        problems.add(where, f"'{value}' is not a size; expected one of {presets} or {{width: 63mm, height: 88mm}}")
    return Size(units.mm(63), units.mm(88))


def read_layout(raw: LMap, kind: str, shape: str, problems: Collector) -> Layout:
    chip = kind == "chip"
    cut = kind in ("box", "standee") or shape not in ("rect", "round")  # die-cut: its own cut lines
    layout = raw.get("layout")
    if layout is None:
        layout = empty_mapping(raw.loc)
    elif not isinstance(layout, LMap):
        problems.add(raw.where("layout"), "expected a mapping such as {gap: 2mm, cut_lines: true}")
        return Layout()
    check_keys(layout, "layout", problems)
    return Layout(
        gap=read_value(layout, "gap", "length", problems, default=units.mm(3) if (chip or cut) and shape != "hex" else 0.0),
        crop_marks=read_value(layout, "crop_marks", "bool", problems, default=shape == "rect" and not cut),
        cut_lines=read_value(layout, "cut_lines", "bool", problems, default=chip),
        paper=read_value(layout, "paper", "choice:a4,letter,a3,a5,tabloid", problems),
    )
