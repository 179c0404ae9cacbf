"""Turn a face's SVG tree into the list of what the PDF could not show or compute, with the template named.

The painter draws no filters, masks or letter-spacing, cannot read a style declaration holding a second ':' or
a bad CSS selector, and must not write numbers beyond what a PDF can hold (1e308, scale(1e999), transforms
multiplying up). Attributes, `style="…"` and `<style>` declarations are held to the same rules.
"""
from __future__ import annotations

import functools
import math
import re

from ..errors import PnpError
from .svgvalues import parse_declarations

UNSUPPORTED_ELEMENTS = {"filter", "mask", "pattern", "foreignObject", "script"}
UNSUPPORTED_ATTRIBUTES = {"letter-spacing", "dominant-baseline", "filter", "mask"}
SVG_NS = "{http://www.w3.org/2000/svg}"
GEOMETRY = {"x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "points", "d",
            "transform", "stroke-width", "font-size", "viewBox", "dx", "dy", "offset", "opacity", "fill-opacity",
            "stroke-opacity", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "fx", "fy",
            "gradientTransform", "stop-opacity"}
NON_FINITE = re.compile(r"(?i)(?<![a-z])(nan|inf)(?![a-z])")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
MAX_NUMBER = 1e6  # mm, degrees or a scale factor: a 2 m map is 2,000 mm
SIZES = {"width", "height", "r", "rx", "ry", "stroke-width", "font-size"}
NEGATIVE = re.compile(r"\s*-\s*(?:\d|\.\d)")
MAX_ELEMENTS = 20_000  # a bundled face has about a hundred; converting is slow beyond
MAX_REACH = 1e12  # a number times the scales of the transforms around it; PDF writers fail near 1e20
MEMO_ELEMENTS = 4096  # elements' answers remembered (lint_attributes)
MEMO_CHARACTERS = 512  # an element with longer attributes (a long path) is linted each time: the memo stays small


def lint(tree, template: str) -> None:
    """Refuse SVG features the painter does not draw or the PDF cannot hold, naming the template and the feature."""
    problems: list[str] = []
    count = sum(1 for _ in tree.iter())
    if count > MAX_ELEMENTS:
        problems.append(f"{count:,} elements (at most {MAX_ELEMENTS:,} a face)")
    stylesheet = "".join(e.text or "" for e in tree.iter(SVG_NS + "style", "style"))
    problems += lint_stylesheet(stylesheet) if stylesheet.strip() else []
    walk(tree, 1.0, problems)
    if problems:
        found = ", ".join(sorted(set(problems)))
        raise PnpError(f"templates/{template} uses SVG features the PDF cannot show: {found}; "
                       "expected shapes, paths, gradients, clip paths, <use> and text() only")


def walk(element, scale: float, problems: list[str]) -> None:
    """Lint element and its children; scale is how much the transforms around it magnify a number."""
    if not isinstance(element.tag, str):
        return
    attributes = tuple(element.attrib.items())
    if sum(len(name) + len(value) for name, value in attributes) <= MEMO_CHARACTERS:
        found, inner = lint_attributes(element.tag, attributes, scale)
    else:
        found, inner = lint_element(element.tag, attributes, scale)
    problems += found
    for child in element:
        walk(child, inner, problems)


@functools.lru_cache(maxsize=MEMO_ELEMENTS)
def lint_attributes(tag: str, attributes: tuple, scale: float) -> tuple[tuple[str, ...], float]:
    """lint_element, remembered: the faces of a deck repeat the same elements (a frame, each text() line's
    attributes) card after card, and the answer depends on nothing else."""
    return lint_element(tag, attributes, scale)


def lint_element(tag: str, attributes: tuple, scale: float) -> tuple[tuple[str, ...], float]:
    """(the problems of an element with these attributes under that scale, the scale its children are under)."""
    problems: list[str] = []
    name = tag.replace(SVG_NS, "")
    if name in UNSUPPORTED_ELEMENTS:
        problems.append(f"<{name}>")
    declarations = dict(attributes)
    style = declarations.get("style")
    if style is not None:
        parsed = parse_declarations(style)
        if parsed is None:
            problems.append(f'style="{style[:40]}" (expected name: value; pairs, a value without another \':\')')
        else:
            problems += [f"style {found}" for found in UNSUPPORTED_ATTRIBUTES & set(parsed)]
            declarations.update(parsed)
    problems += [f"{attribute}=…" for attribute in UNSUPPORTED_ATTRIBUTES & {name for name, _ in attributes}]
    inner = scale
    for attribute in GEOMETRY & set(declarations):
        value = declarations[attribute]
        largest = largest_number(value)
        if largest is None:
            problems.append(f'{attribute}="{value[:40]}" (not a finite number)')
        elif largest > MAX_NUMBER:
            problems.append(f'{attribute}="{value[:40]}" (a number beyond ±{MAX_NUMBER:,.0f})')
        elif largest * scale > MAX_REACH:
            problems.append(f'{attribute}="{value[:40]}" (scaled beyond ±{MAX_REACH:.0e} by the transforms around it)')
        elif attribute in SIZES and NEGATIVE.match(value):
            problems.append(f'<{name} {attribute}="{value[:40]}"> (a size must not be negative)')
        elif attribute == "stroke-dasharray" and not valid_dashes(value):
            problems.append(f'stroke-dasharray="{value[:40]}" (expected lengths of 0 or more, not all 0)')
        elif attribute in ("transform", "viewBox"):
            inner = scale * max(1.0, largest, 1.0 / smallest_size(value) if attribute == "viewBox" else 1.0)
    return tuple(problems), inner


def largest_number(value: str) -> float | None:
    """The largest magnitude among the numbers in an attribute value, None if one is not finite."""
    if NON_FINITE.search(value):
        return None
    numbers = [abs(float(text)) for text in NUMBER.findall(value)]
    return max(numbers, default=0.0) if all(map(math.isfinite, numbers)) else None


def valid_dashes(value: str) -> bool:
    if value.strip() in ("none", "inherit", ""):
        return True
    numbers = [float(n) for n in NUMBER.findall(value)]
    return all(n >= 0 for n in numbers) and sum(numbers) > 0


def smallest_size(view_box: str) -> float:
    """The smaller of a viewBox's width and height (a tiny one magnifies what it holds)."""
    numbers = [abs(float(n)) for n in NUMBER.findall(view_box)[2:4]]
    return max(min(numbers, default=1.0), 1e-9)


def lint_stylesheet(text: str) -> list[str]:
    """The rules of <style> elements: selectors cssselect2 can compile, declarations as in style="…"."""
    import cssselect2  # imported here: only a face with a <style> needs a CSS parser
    import tinycss2

    problems = []
    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if rule.type == "error":
            problems.append(f"<style> ({rule.message[:60]})")
        elif rule.type == "qualified-rule":
            try:
                cssselect2.compile_selector_list(rule.prelude)
            except (cssselect2.SelectorError, ValueError, TypeError, LookupError) as err:
                problems.append(f"<style> selector '{tinycss2.serialize(rule.prelude).strip()[:40]}' ({err})")
                continue
            content = tinycss2.serialize(rule.content)
            declarations = parse_declarations(content)
            if declarations is None:
                problems.append(f"<style> '{content.strip()[:40]}' (expected name: value; pairs)")
                continue
            problems += [f"<style> {found}" for found in UNSUPPORTED_ATTRIBUTES & set(declarations)]
            for name, value in declarations.items():
                largest = largest_number(value)
                if largest is None or largest > MAX_NUMBER:
                    problems.append(f"<style> {name}: {value[:40]} (not a number the PDF can hold)")
    return problems
