"""Turn a face's marks into the flaws a print shop's preflight rejects it for: safe zone, bleed, sizes, images, ink.

Each check looks at one face alone, in millimetres on the face (marking.py), against its component's trim,
bleed and safe zone; a round piece's trim and safe zone are circles. Errors are what a shop refuses or
what prints wrong (text in the cut's way, art stopping short of the bleed, type or lines too thin to
print, blurry images); warnings what it may print unlike the screen (ink, rich black, contrast).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


from .. import units
from ..project.model import Component
from .describe import shorten
from .images import ImageChecker, pillow
from .marking import Mark
from .print_colour import INK_LIMIT, contrast_ratio, is_rich_black, total_ink

ERROR, WARNING = "error", "warning"
MIN_TEXT_PT = 6.0
MIN_STROKE_PT = 0.25
MIN_DPI = 300
RICH_BLACK_UP_TO_PT = 12.0  # text this size or smaller is spoilt by the plates' misregistration
LARGE_TEXT_PT = 18.0  # WCAG's large text, which needs 3:1 rather than 4.5:1
NEAR = 0.05  # mm: art this close to an edge touches it
ALONG = 0.25  # the share of an edge art must run along to be held to the bleed there
EDGES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Trim:
    """A face's trim size, bleed and safe zone in mm, and whether it is cut round."""

    width: float
    height: float
    bleed: float
    safe: float
    round: bool = False


def trim_of(component: Component) -> Trim:
    return Trim(units.to_mm(component.size.width), units.to_mm(component.size.height), units.to_mm(component.bleed),
                units.to_mm(component.safe), component.shape == "round")


def image_sizes(root: Path) -> Callable[[str], tuple[int, int]]:
    """pixels(href) for inspect_marks: an image of the project's size in pixels, its header read once."""
    images, sizes = ImageChecker(root), {}

    def pixels(href: str) -> tuple[int, int]:
        if href not in sizes:
            with pillow().open(images.resolve(href)) as image:
                sizes[href] = image.size
        return sizes[href]
    return pixels


@dataclass(frozen=True)
class Flaw:
    """What is wrong with one mark: its severity, which check found it, the SVG element it was drawn from."""

    severity: str
    check: str
    source: object
    message: str


def inspect_marks(marks: list[Mark], trim: Trim, pixels: Callable[[str], tuple[int, int]]) -> list[Flaw]:
    """Every flaw of one face; pixels(href) is an image's size in pixels."""
    flaws: list[Flaw] = []
    for index, mark in enumerate(marks):
        flaws += check_sizes(mark, pixels)
        if mark.kind == "text" or mark.safe:
            flaws += check_safe_zone(mark, trim)
        if mark.kind == "text":
            flaws += check_text(mark, marks[:index])
        else:
            flaws += check_bleed(mark, trim)
        colours = mark.colour if mark.kind == "shading" else (mark.colour,) if mark.colour else ()
        # pure black type and lines print as 100 % K (a shop export keeps them so): only fills are rich black
        inks = [total_ink(colour) for colour in colours if mark.kind not in ("text", "stroke") or any(colour)]
        if inks and max(inks) > INK_LIMIT:
            flaws.append(Flaw(WARNING, "ink", mark.source, f"{mark.kind} at {max(inks):.0f} % total ink after conversion "
                                                         f"to CMYK; expected at most {INK_LIMIT:.0f} %"))
    return flaws


def inspect_sizes(marks: list[Mark], pixels: Callable[[str], tuple[int, int]]) -> list[Flaw]:
    """The cheap checks a build runs on every face it writes: type, lines and images too small to print."""
    return [flaw for mark in marks for flaw in check_sizes(mark, pixels)]


def check_sizes(mark: Mark, pixels: Callable[[str], tuple[int, int]]) -> list[Flaw]:
    if mark.kind == "text" and mark.size < MIN_TEXT_PT - 0.005:
        return [Flaw(ERROR, "text size", mark.source, f"text “{shorten(mark.text, 20)}” set at {mark.size:.1f} pt; "
                                                      f"expected at least {MIN_TEXT_PT:g} pt to print legibly")]
    if mark.kind == "stroke" and mark.size < MIN_STROKE_PT:
        return [Flaw(ERROR, "stroke", mark.source, f"a line {mark.size:.2f} pt thick at print size; expected "
                                                   f"at least {MIN_STROKE_PT:g} pt, or it may not print")]
    if mark.kind == "image":
        return check_image(mark, pixels(mark.image))
    return []


def inset_of(box: tuple, trim: Trim) -> float:
    """How far inside the trim a box stays (negative: how far it crosses the cut)."""
    x0, y0, x1, y1 = box
    if trim.round:
        radius = min(trim.width, trim.height) / 2
        cx, cy = trim.width / 2, trim.height / 2
        return radius - max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
    return min(x0, y0, trim.width - x1, trim.height - y1)


def check_safe_zone(mark: Mark, trim: Trim) -> list[Flaw]:
    inset = inset_of(mark.box, trim)
    if inset >= trim.safe - 0.005:
        return []
    what = f"text “{shorten(mark.text, 20)}”" if mark.kind == "text" else f"a {mark.kind} marked data-safe"
    if inset < 0:
        where = f"crosses the cut by {-inset:.1f} mm"
    else:
        where = f"{inset:.1f} mm from the cut, {trim.safe - inset:.1f} mm inside the safe zone ({trim.safe:g} mm)"
    return [Flaw(ERROR, "safe zone", mark.source, f"{what} {where}; expected it at least {trim.safe:g} mm inside the trim")]


def check_text(mark: Mark, below: list[Mark]) -> list[Flaw]:
    flaws = []
    if mark.size <= RICH_BLACK_UP_TO_PT and is_rich_black(mark.colour):
        flaws.append(Flaw(WARNING, "rich black", mark.source, f"{mark.size:.1f} pt text “{shorten(mark.text, 20)}” in "
                          f"{hex_of(mark.colour)} prints as a four-ink near-black; expected pure black (#000) for small text"))
    ground = background_of(mark, below)
    if ground is not None:
        ratio = contrast_ratio(mark.colour, ground)
        needed = 3.0 if mark.size >= LARGE_TEXT_PT else 4.5
        if ratio < needed:
            flaws.append(Flaw(WARNING, "contrast", mark.source, f"text “{shorten(mark.text, 20)}” in {hex_of(mark.colour)} on "
                              f"{hex_of(ground)}: contrast {ratio:.1f}:1; expected at least {needed:g}:1 (WCAG)"))
    return flaws


def background_of(mark: Mark, below: list[Mark]) -> tuple | None:
    """The colour under a text's middle: the last opaque fill drawn before it whose box holds that point
    (white paper when none does); None when an image, a gradient or a translucent shape lies there."""
    x, y = (mark.box[0] + mark.box[2]) / 2, (mark.box[1] + mark.box[3]) / 2
    for other in reversed(below):
        x0, y0, x1, y1 = other.box
        if other.kind in ("fill", "image", "shading") and x0 <= x <= x1 and y0 <= y <= y1:
            return other.colour if other.kind == "fill" and other.opaque else None
    return (1.0, 1.0, 1.0)


def check_bleed(mark: Mark, trim: Trim) -> list[Flaw]:
    """Art along an edge (touching the trim over at least ALONG of it: a background, a band, a frame) must go on to
    the bleed edge there, or a slightly shifted cut shows a sliver of what lies under it. Small pieces of a
    pattern that the edge cuts through are left alone: what shows under them is the pattern's own ground."""
    if trim.bleed <= NEAR:
        return []
    x0, y0, x1, y1 = mark.box
    if x1 <= 0 or y1 <= 0 or x0 >= trim.width or y0 >= trim.height:
        return []  # wholly in the bleed: cut away
    reach = (-x0, -y0, x1 - trim.width, y1 - trim.height)  # how far past each edge it goes
    across = min(x1, trim.width) - max(x0, 0.0)
    down = min(y1, trim.height) - max(y0, 0.0)
    along = (down / trim.height, across / trim.width) * 2  # the share of each edge it runs along
    short = [(edge, beyond) for edge, beyond, share in zip(EDGES, reach, along)
             if -NEAR <= beyond < trim.bleed - NEAR and share >= ALONG]
    if not short:
        return []
    said = ", ".join(f"the {edge} ({max(0.0, beyond):.1f} mm past the trim)" for edge, beyond in short)
    return [Flaw(ERROR, "bleed", mark.source, f"{describe(mark)} touches the trim but stops short of the bleed at {said}; "
                                            f"expected it to reach the bleed edge, {trim.bleed:g} mm past the trim")]


def check_image(mark: Mark, size: tuple[int, int]) -> list[Flaw]:
    width, height = mark.inches
    if width <= 0 or height <= 0:
        return []
    dpi = min(size[0] / width, size[1] / height)
    if dpi >= MIN_DPI - 0.5:
        return []
    return [Flaw(ERROR, "image", mark.source, f"image {mark.image} is {dpi:.0f} dpi at its printed size "
                                            f"({width * 25.4:.1f} × {height * 25.4:.1f} mm, {size[0]} × {size[1]} px); "
                                            f"expected at least {MIN_DPI} dpi")]


def describe(mark: Mark) -> str:
    if mark.kind == "image":
        return f"image {mark.image}"
    if mark.kind == "shading":
        return "a gradient"
    return f"a {'line' if mark.kind == 'stroke' else 'shape'} in {hex_of(mark.colour)}"


def hex_of(colour: tuple) -> str:
    return "#" + "".join(f"{round(min(1.0, max(0.0, v)) * 255):02x}" for v in colour)
