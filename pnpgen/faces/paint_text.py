"""Turn an SVG <text> element and its <tspan>s into text parts: runs placed one after another, anchored."""
from __future__ import annotations

import re

from reportlab.lib.rl_accel import fp_str

from .font import font_named
from .paint_refs import SVG
from .painter import index_in
from .svgpath import NotDrawable, parse_numbers
from .svgvalues import parse_colour, parse_font_size, parse_fraction, parse_number

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
UNSUPPORTED = ("rotate", "textLength", "lengthAdjust")
_SPACES = re.compile(r"\s+")


def paint_text(painter, element, style: dict, cascade) -> None:
    """cascade(child, inherited style) -> a <tspan>'s style."""
    runs: list[list] = []  # [text, style, x or None, y or None, dx, dy]
    gather(element, style, runs, cascade)
    tidy_spaces(runs, element.get(XML_SPACE) == "preserve")
    x = y = 0.0
    chunk: list = []
    placed: list = []  # [x, y, text, style, selector, size]
    # a width is measured only where it moves something: a run after it, or an anchor other than start
    measured = len([run for run in runs if run[0]]) > 1 or style.get("text-anchor", "start") != "start"
    for text, run_style, run_x, run_y, dx, dy in runs:
        if run_x is not None or run_y is not None:
            anchor(chunk, x, placed)
            chunk = []
        x = run_x if run_x is not None else x
        y = run_y if run_y is not None else y
        x, y = x + dx, y + dy
        if not text:
            continue
        size = parse_font_size(run_style.get("font-size", "16"))
        selector = (run_style.get("font-family", ""), run_style.get("font-weight", "normal"),
                    run_style.get("font-style", "normal"))
        chunk.append([x, y, text, run_style, selector, size])
        if measured or chunk[0][3].get("text-anchor", "start") != "start":
            x += font_named(painter.measure(selector)).width(text, size)
    anchor(chunk, x, placed)
    for x, y, text, run_style, selector, size in placed:
        fill = parse_colour(run_style.get("fill", "#000"))
        if fill is None or run_style.get("visibility") in ("hidden", "collapse"):
            continue
        painter.set("fill", fill, f"{fp_str(*fill)} rg")
        opacity = parse_fraction(run_style.get("opacity", "1"))
        painter.alpha("ca", round(opacity * parse_fraction(run_style.get("fill-opacity", "1")), 6))
        painter.emit(f"BT 1 0 0 -1 {fp_str(x, y)} Tm")
        painter.special(["T", index_in(painter.fonts, selector), size, text])
        painter.emit("ET")


def gather(element, style: dict, runs: list, cascade) -> None:
    """The runs of an element: its text, then each <tspan>'s runs and the text after it."""
    try:
        for name in UNSUPPORTED:
            if element.get(name) is not None:
                raise NotDrawable(f'{name}="…" on <{element.tag[len(SVG):]}>')
        x, y = (position(element, name) for name in ("x", "y"))
        dx, dy = (position(element, name) or 0.0 for name in ("dx", "dy"))
        runs.append([element.text or "", style, x, y, dx, dy])
        for child in element:
            if isinstance(child.tag, str):
                if child.tag != SVG + "tspan":
                    raise NotDrawable(f"<{child.tag.replace(SVG, '')}> inside <text> (expected <tspan>)")
                child_style = cascade(child, style)
                if child_style.get("display") != "none":
                    gather(child, child_style, runs, cascade)
            runs.append([child.tail or "", style, None, None, 0.0, 0.0])
    except NotDrawable as err:
        if not getattr(err, "line", None):
            err.line = element.sourceline  # the innermost <tspan>: where the message points
        raise


def position(element, name: str) -> float | None:
    value = element.get(name)
    if value is None:
        return None
    try:
        return parse_number(value, 0.0)
    except NotDrawable:
        numbers = parse_numbers(value)
        if len(numbers) != 1:
            raise NotDrawable(f'{name}="{value[:40]}" on <{element.tag[len(SVG):]}> '
                              "(expected one number, not one per character)")
        return numbers[0]


def tidy_spaces(runs: list, preserve: bool) -> None:
    """SVG's white space: each run's line breaks and tabs as spaces; unless preserved, runs of spaces as one
    across the runs, none at the start or end."""
    if preserve:
        for run in runs:
            run[0] = run[0].replace("\n", " ").replace("\t", " ").replace("\r", " ")
        return
    after_space = True
    for run in runs:
        text = _SPACES.sub(" ", run[0])
        if after_space:
            text = text.lstrip(" ")
        if text:
            after_space = text.endswith(" ")
        run[0] = text
    for run in reversed(runs):
        run[0] = run[0].rstrip(" ")
        if run[0]:
            break


def anchor(chunk: list, end: float, placed: list) -> None:
    """Move a chunk (runs from one absolute position to the next) as its text-anchor says."""
    if not chunk:
        return
    how = chunk[0][3].get("text-anchor", "start")
    if how not in ("start", "middle", "end"):
        raise NotDrawable(f"text-anchor {how}")
    shift = 0.0 if how == "start" else (end - chunk[0][0]) / (2 if how == "middle" else 1)
    for run in chunk:
        run[0] -= shift
    placed.extend(chunk)
