"""Turn a text box (content, box in mm, sizes in pt) into wrapped, shrunk-to-fit lines and SVG <text>."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Mapping

from .. import units
from .font import Font
from .fonts import FontBook
from .hyphenate import hyphenator_for
from .linebreak import break_lines

ALIGNS = ("left", "center", "right")
VALIGNS = ("top", "middle", "bottom")
HYPHENS = ("auto", "none")  # as CSS says it: a Latin edition's words may take a hyphen, or never
SIZE_STEP = 0.25  # pt: the grid shrink-to-fit searches on
ICON_ADVANCE = 1.2  # em: an icon is 1 em square with 0.1 em of space on each side
ICON_INSET = 0.1  # em
_EPSILON = 1e-6

_ICON_BASE = 0xF0000
_ICON_CHARS = re.compile("[\U000f0000-\U000fffff]")
_ICON_RUNS = re.compile("[\U000f0000-\U000fffff]|[^\U000f0000-\U000fffff]+")
_ICON_TOKEN = re.compile(r":([A-Za-z0-9_-]+):")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff\ufffe\uffff]")  # what XML cannot hold (and DEL) is dropped
MIN_SIZE_PT, MAX_SIZE_PT = 1.0, 1000.0


@dataclass(frozen=True)
class TextRun:
    """A piece of a line set in the font; x in mm is where it starts."""

    text: str
    x: float
    width: float


@dataclass(frozen=True)
class IconRun:
    """An inline icon: a `size` mm square whose top-left corner is (x, y)."""

    name: str
    x: float
    y: float
    size: float


@dataclass(frozen=True)
class Line:
    """One line; x, y in mm is the baseline-left point after alignment, in face coordinates."""

    text: str  # as written, icons included as :name:
    x: float
    y: float
    width: float
    runs: tuple[TextRun | IconRun, ...]


@dataclass(frozen=True)
class FittedText:
    """Text fitted into a box: its lines, the size it needed and everything to_svg writes."""

    lines: tuple[Line, ...]
    size_pt: float
    font_name: str  # reportlab name
    family: str
    weight: str  # the CSS weight of the face used, e.g. "700"
    color: str
    icons: tuple[tuple[str, str], ...] = ()  # (name, unit-square SVG fragment) of the icons used

    @property
    def size_mm(self) -> float:
        return units.to_mm(self.size_pt)

    def to_svg(self) -> str:
        """One <text> per run of text (x, y computed here, text-anchor start) and one <g> per icon."""
        fragments = dict(self.icons)
        size = format_number(self.size_mm)
        style = (f'font-family="{escape_xml(self.family)}" font-weight="{self.weight}" '
                 f'font-size="{size}" fill="{escape_xml(self.color)}"')
        parts = []
        for line in self.lines:
            for run in line.runs:
                if isinstance(run, IconRun):
                    parts.append(f'<g transform="translate({format_number(run.x)} {format_number(run.y)}) '
                                 f'scale({format_number(run.size)})">{fragments[run.name]}</g>')
                else:
                    parts.append(f'<text x="{format_number(run.x)}" y="{format_number(line.y)}" {style} '
                                 f'xml:space="preserve">{escape_xml(run.text)}</text>')
        return "\n".join(parts)


class TextDoesNotFit(Exception):
    """The text needs more room than its box gives even at the minimum size."""

    def __init__(self, content: str, w: float, h: float, min_size: float, needed_h: float, widest: float):
        self.content = content  # for the message naming the field that holds it
        too = [f"{needed_h:.1f} mm high"] if needed_h > h + _EPSILON else []
        too += [f"a line {widest:.1f} mm wide"] if widest > w + _EPSILON else []
        super().__init__(
            f"text \u201c{excerpt(content)}\u201d does not fit its {w:g} \u00d7 {h:g} mm box even at "
            f"min_size {min_size:g} pt (it needs {' and '.join(too) or 'more room'}); "
            "expected a shorter text, a larger box or a smaller min_size")


def fit_text(content: str, x: float, y: float, w: float, h: float, *, fontbook: FontBook,
             size: float = 9, min_size: float = 6, weight: str | int = "normal", family: str | None = None,
             align: str = "left", valign: str = "top", color: str = "#000", line_height: float = 1.3,
             icons: Mapping[str, str] | None = None, language: str | None = None, hyphens: str = "auto") -> FittedText:
    """Wrap `content` into the box (mm; origin top-left, y down) at `size` pt, shrinking it in
    0.25 pt steps down to `min_size` until it fits; raise TextDoesNotFit when even that fails.

    `icons` maps a name to an SVG fragment drawn in the unit square (0,0)-(1,1); `:name:` in the
    content becomes that icon, 1 em square, inline. `:name:` with no such icon stays literal text. `language`
    is the edition's: a Latin one's words may take a hyphen at a line's end (faces.hyphenate), unless `hyphens` is
    "none", as a title's or a name's should not."""
    for name, value, allowed in (("align", align, ALIGNS), ("valign", valign, VALIGNS)):
        if value not in allowed:
            raise ValueError(f"{name}='{value}' is not an alignment: expected one of {', '.join(allowed)}")
    if hyphens not in HYPHENS:
        raise ValueError(f"hyphens='{hyphens}' is not a hyphenation: expected one of {', '.join(HYPHENS)}")
    for name, value in (("size", size), ("min_size", min_size)):
        if not (MIN_SIZE_PT <= value <= MAX_SIZE_PT):  # also false for NaN
            raise ValueError(f"{name}={value:g} is not a type size: expected {MIN_SIZE_PT:g} to {MAX_SIZE_PT:g} pt")
    if not (0 < line_height <= 10):
        raise ValueError(f"line_height={line_height:g} is not a line spacing: expected a factor above 0, at most 10")
    if not all(math.isfinite(v) for v in (x, y, w, h)):
        raise ValueError(f"the box ({x:g}, {y:g}, {w:g}, {h:g}) is not made of finite numbers: expected millimetres")
    min_size = min(min_size, size)
    face = fontbook.find_face(family, weight)
    font = fontbook.register(face)
    plain = _CONTROL.sub("", _ICON_CHARS.sub("", str(content)).replace("\t", " ")).rstrip("\n")
    text, names = encode_icons(plain, icons or {})
    measure = em_measure(font)
    hyphenator = hyphenator_for(language, hyphens)
    ascent, descent = font.ascent / 1000, -font.descent / 1000

    def layout(size_pt: float) -> tuple[list[str], float, float]:
        em = units.to_mm(size_pt)
        lines = break_lines(text, w / em, measure, hyphenator=hyphenator)
        height = (ascent + (len(lines) - 1) * line_height + descent) * em
        return lines, height, max(measure(line) for line in lines) * em

    def fits(result: tuple[list[str], float, float]) -> bool:
        return result[1] <= h + _EPSILON and result[2] <= w + _EPSILON

    result = layout(size) if text.strip() else ([], 0.0, 0.0)
    if not fits(result):
        result = layout(min_size)
        if not fits(result):
            raise TextDoesNotFit(str(content), w, h, min_size, result[1], result[2])
        # Binary search for the largest fitting size on the grid min_size + k * SIZE_STEP below size.
        grid = [min_size + k * SIZE_STEP for k in range(math.ceil((size - min_size) / SIZE_STEP - _EPSILON))]
        low, high = 0, len(grid)
        while high - low > 1:
            middle = (low + high) // 2
            attempt = layout(grid[middle])
            if fits(attempt):
                low, result = middle, attempt
            else:
                high = middle
        size = grid[low]

    em = units.to_mm(size)
    top = y + {"top": 0.0, "middle": (h - result[1]) / 2, "bottom": h - result[1]}[valign]
    icon_drop = ((ascent - descent) / 2 + 0.5) * em  # centre icons where the glyphs sit
    lines = []
    for number, encoded in enumerate(result[0]):
        width = measure(encoded) * em
        left = x + {"left": 0.0, "center": (w - width) / 2, "right": w - width}[align]
        baseline = top + (ascent + number * line_height) * em
        runs = place_runs(encoded, left, baseline - icon_drop, em, measure, names)
        lines.append(Line(decode_icons(encoded, names), left, baseline, width, runs))
    used = tuple((name, icons[name]) for name in names) if icons else ()
    return FittedText(tuple(lines), size, font.name, face.family, str(face.weight), color, used)


def encode_icons(text: str, icons: Mapping[str, str]) -> tuple[str, list[str]]:
    """Replace known :name: tokens by private-use characters so that each breaks like one CJK character."""
    names: list[str] = []

    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name not in icons:
            return match.group(0)
        if name not in names:
            names.append(name)
        return chr(_ICON_BASE + names.index(name))

    return (_ICON_TOKEN.sub(replace, text) if icons else text), names


def decode_icons(text: str, names: list[str]) -> str:
    return _ICON_CHARS.sub(lambda match: f":{names[ord(match.group()) - _ICON_BASE]}:", text)


def em_measure(font: Font) -> Callable[[str], float]:
    """A width function in em for one font; icon stand-ins count ICON_ADVANCE em each."""
    cache = font.em_widths

    def measure(text: str) -> float:
        total = 0.0  # added up in order, as a loop does (sum() compensates on newer Pythons: other bits)
        for char in text:
            if char not in cache:
                cache[char] = ICON_ADVANCE if _ICON_CHARS.match(char) else font.width(char, 1)
            total += cache[char]
        return total

    return measure


def place_runs(encoded: str, left: float, icon_top: float, em: float, measure: Callable[[str], float],
               names: list[str]) -> tuple[TextRun | IconRun, ...]:
    runs: list[TextRun | IconRun] = []
    pen = left
    for piece in _ICON_RUNS.findall(encoded):
        if _ICON_CHARS.match(piece):
            runs.append(IconRun(names[ord(piece) - _ICON_BASE], pen + ICON_INSET * em, icon_top, em))
        elif piece.strip(" "):  # spaces at the ends of a run move its x instead: no reliance on xml:space
            lead = len(piece) - len(piece.lstrip(" "))
            runs.append(TextRun(piece.strip(" "), pen + measure(piece[:lead]) * em, measure(piece.strip(" ")) * em))
        pen += measure(piece) * em
    return tuple(runs)


def escape_xml(text: str) -> str:
    text = _CONTROL.sub("", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def format_number(value: float) -> str:
    """Fixed precision (0.1 µm) so that the SVG text, and the cache keyed on it, is deterministic."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def excerpt(content: str, limit: int = 30) -> str:
    flat = " ".join(str(content).split())
    if len(flat) <= limit:
        return flat
    cut = flat.rfind(" ", limit // 2, limit + 1)
    return flat[:cut if cut > 0 else limit] + "…"
