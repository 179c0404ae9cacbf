"""Turn a deck's size and count into a tuck box, a figure into a standee, an outline into a die-cut
piece: dielines of panels, cut outlines and fold lines, in points with y up (pure geometry)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..project.box_size import BoxSize
from ..project.model import Outline, Size
from ..units import mm
from .shapes import Polygon, trace_arc, flatten_path, trace_hex, trace_rounded
from .shapes import trace_rect as rect

SLOT_GAP = mm(6)  # between a standee's feet and its base card: white between their bleeds
SLOT_MARGIN = mm(5)  # the base card reaches this far past each side of the figure


@dataclass(frozen=True)
class Panel:
    """One face-sized area of a dieline: its art fills frame (x0, y0, x1, y1) and shows inside polygon.
    flip: "" as drawn, "y" mirrored about a horizontal line, "xy" turned half round."""

    role: str
    frame: tuple[float, float, float, float]
    polygon: Polygon
    flip: str = ""
    printed: bool = True


@dataclass(frozen=True)
class Dieline:
    """One piece to cut out: its panels, its cut outlines (closed) and its fold lines (x0, y0, x1, y1)."""

    width: float
    height: float
    panels: tuple[Panel, ...]
    cuts: tuple[Polygon, ...]
    folds: tuple[tuple[float, float, float, float], ...] = ()


def draw_tuck_box(size: BoxSize) -> Dieline:
    """A straight tuck box: front, side, back, side, glue tab in a row; the ends, their tuck flaps hinge
    on the back; dust flaps on the sides; a thumb notch in the front's top edge, where the box opens.

    Folded: the strip becomes a tube with the glue tab under the front's free edge; the top end closes
    over the opening towards the front and its tuck flap slides down inside the front, behind the notch."""
    w, h, d = size.width, size.height, size.depth
    tuck = min(max(d / 2, mm(12)), mm(18), h / 3)  # the flaps' and glue tab's depths, the thumb notch's radius
    dust = min(max(d, mm(10)), w / 2 - mm(1))
    glue = min(max(0.8 * d, mm(8)), mm(15), w / 2)
    notch = min(mm(10), w / 4)
    x1, x2, x3, x4, x5 = w, w + d, 2 * w + d, 2 * w + 2 * d, 2 * w + 2 * d + glue
    yb, yt = d + tuck, d + tuck + h
    slant = min(d, dust) / 4  # dust flaps narrow towards their tips, clear of the end panels
    chamfer = min(tuck / 2, mm(5), w / 4)
    glue_slant = min(glue, h / 8)

    def tuck_flap(y_hinge: float, sign: int) -> list:
        tip = y_hinge + sign * tuck
        corner = trace_arc(x2 + chamfer, tip - sign * chamfer, chamfer, math.pi, -sign * math.pi / 2)
        other = trace_arc(x3 - chamfer, tip - sign * chamfer, chamfer, sign * math.pi / 2, -sign * math.pi / 2)
        return corner + other  # from the left side to the right side of the flap

    def dust_flap(x_from: float, x_to: float, y_hinge: float, sign: int) -> list:
        step = slant if x_to > x_from else -slant
        return [(x_from + step, y_hinge + sign * dust), (x_to - step, y_hinge + sign * dust)]

    bottom = [(0, yb), (x1, yb), *dust_flap(x1, x2, yb, -1), (x2, yb), (x2, yb - d), *tuck_flap(yb - d, -1),
              (x3, yb - d), (x3, yb), *dust_flap(x3, x4, yb, -1), (x4, yb)]
    glue_tab = [(x5, yb + glue_slant), (x5, yt - glue_slant), (x4, yt)]
    top = [*dust_flap(x4, x3, yt, 1), (x3, yt), (x3, yt + d), *reversed(tuck_flap(yt + d, 1)),
           (x2, yt + d), (x2, yt), *dust_flap(x2, x1, yt, 1), (x1, yt)]
    notch_arc = trace_arc(w / 2, yt, notch, 0.0, -math.pi)
    outline = tuple(bottom + glue_tab + top + notch_arc + [(0, yt)])
    front = tuple([(0, yb), (x1, yb), (x1, yt)] + notch_arc + [(0, yt)])
    panels = (
        Panel("front", (0, yb, x1, yt), front),
        Panel("side", (x1, yb, x2, yt), rect(x1, yb, x2, yt)),
        Panel("back", (x2, yb, x3, yt), rect(x2, yb, x3, yt)),
        Panel("side", (x3, yb, x4, yt), rect(x3, yb, x4, yt)),
        Panel("end", (x2, yt, x3, yt + d), rect(x2, yt, x3, yt + d), flip="xy"),  # read from the front when shut
        Panel("end", (x2, yb - d, x3, yb), rect(x2, yb - d, x3, yb)),
        Panel("tuck", (x2, yt + d, x3, yt + d + tuck), tuple([(x2, yt + d), (x3, yt + d)] + tuck_flap(yt + d, 1)[::-1])),
        Panel("tuck", (x2, yb - d - tuck, x3, yb - d), tuple([(x2, yb - d)] + tuck_flap(yb - d, -1) + [(x3, yb - d)])),
        *(Panel("dust", (a, y0, b, y1), tuple([(a, hinge), (b, hinge)] + dust_flap(b, a, hinge, sign)))
          for a, b in ((x1, x2), (x3, x4)) for hinge, sign, y0, y1 in ((yb, -1, yb - dust, yb), (yt, 1, yt, yt + dust))),
        Panel("glue", (x4, yb, x5, yt), ((x4, yb), (x5, yb + glue_slant), (x5, yt - glue_slant), (x4, yt)), printed=False),
    )
    folds = tuple([(x, yb, x, yt) for x in (x1, x2, x3, x4)]
                  + [(a, y, b, y) for y in (yb, yt) for a, b in ((x1, x2), (x2, x3), (x3, x4))]
                  + [(x2, y, x3, y) for y in (yb - d, yt + d)])
    return Dieline(x5, yt + d + tuck, panels, (outline,), folds)


def draw_standee(width: float, height: float, base: str, base_depth: float, back_flip: str) -> Dieline:
    """A figure's front above its feet, its back above the front mirrored about the fold at the head.
    base fold: a base flap at each foot folds out to stand on; base slot: a separate base card, cut
    beside the feet, with a slit the folded figure's feet slide into; none: the figure alone.
    back_flip: "y" when the back is the front's own art mirrored, "xy" when it is a back drawn as
    seen from behind."""
    foot = base_depth if base == "fold" else 0.0
    below = base_depth + SLOT_GAP if base == "slot" else 0.0  # room for the base card under the figure
    margin = SLOT_MARGIN if base == "slot" else 0.0  # the base card is wider than the figure
    x0, y0 = margin, below + foot
    top = y0 + 2 * height + foot
    panels = [Panel("front", (x0, y0, x0 + width, y0 + height), rect(x0, y0, x0 + width, y0 + height)),
              Panel("back", (x0, y0 + height, x0 + width, y0 + 2 * height),
                    rect(x0, y0 + height, x0 + width, y0 + 2 * height), flip=back_flip)]
    folds = [(x0, y0 + height, x0 + width, y0 + height)]
    cuts = [rect(x0, below, x0 + width, top)]
    if foot:
        panels += [Panel("base", (x0, below, x0 + width, y0), rect(x0, below, x0 + width, y0), printed=False),
                   Panel("base", (x0, top - foot, x0 + width, top), rect(x0, top - foot, x0 + width, top),
                         printed=False)]
        folds += [(x0, y0, x0 + width, y0), (x0, top - foot, x0 + width, top - foot)]
    if base == "slot":
        card = rect(0, 0, width + 2 * margin, base_depth)
        panels.append(Panel("base", (0, 0, width + 2 * margin, base_depth), card, printed=False))
        cuts += [card, ((x0, base_depth / 2), (x0 + width, base_depth / 2))]  # the slit: as wide as the figure
    return Dieline(width + 2 * margin, top, tuple(panels), tuple(cuts), tuple(folds))


def trace_outline(outline: Outline | None, size: Size, shape: str = "rect") -> list[Polygon]:
    """The cut outline of a piece of this size, y up from its trim box's bottom-left corner."""
    w, h = size.width, size.height
    if outline is not None and outline.kind == "hex":
        return [trace_hex(w, h, outline.orientation)]
    if outline is not None and outline.kind == "rounded":
        return [trace_rounded(w, h, outline.radius)]
    if outline is not None and outline.kind == "path":
        return [tuple((x, h - y) for x, y in polygon) for polygon in flatten_path(outline.segments)]
    if shape == "round":
        circle = trace_arc(0.0, 0.0, max(w, h) / 2, 0.0, 2 * math.pi)[:-1]
        return [tuple((w / 2 + x * w / max(w, h), h / 2 + y * h / max(w, h)) for x, y in circle)]
    return [rect(0, 0, w, h)]


def draw_piece(outline: Outline | None, size: Size, shape: str = "rect") -> Dieline:
    """A single die-cut piece: one panel whose art shows inside its outline."""
    polygons = trace_outline(outline, size, shape)
    panel = Panel("face", (0, 0, size.width, size.height), polygons[0])
    return Dieline(size.width, size.height, (panel,), tuple(polygons))
