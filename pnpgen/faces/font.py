"""Turn a face found on disk into the registered Font every stage asks: metrics, widths, glyph IDs, subsets.

A registered name stands for one glyf font file in a process (a CFF or variable face's converted copy).
reportlab is given the font, by that name, only when platypus or a proof or diff canvas sets type in it
(reportlab_name): reading a CJK font is most of a small build's font work, and card faces never need it.
"""
from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import Location, PnpError
from .truetype import open_truetype

WEIGHT_NAMES = {100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium",
                600: "SemiBold", 700: "Bold", 800: "ExtraBold", 900: "Black"}
_lock = threading.Lock()
_fonts: dict[str, "Font"] = {}  # registered name -> its Font


@dataclass(frozen=True)
class Face:
    """One weight and style of a family, as found on disk."""

    family: str
    weight: int
    italic: bool
    path: Path
    index: int = 0  # member of a .ttc collection
    cff: bool = False  # PostScript outlines: our reader and reportlab need them converted to glyf
    variable: bool = False  # instanced at `weight` before use

    @property
    def base_name(self) -> str:
        weight = WEIGHT_NAMES.get(self.weight, str(self.weight))
        style = ("" if weight == "Regular" else weight) + ("Italic" if self.italic else "")
        return re.sub(r"\s+", "", self.family) + "-" + (style or "Regular")


class Font:
    """One glyf font file (member `index` of a collection), as our reader holds it, under its registered name."""

    def __init__(self, name: str, path: Path, index: int, where: str):
        self.name, self.path, self.index, self.where = name, path, index, where
        self.file = file = open_truetype(path, index, where)
        self.in_reportlab = False
        # What a face's record took its glyph IDs from: a changed file makes old records misses, not wrong glyphs.
        hasher = hashlib.sha256(file.data)
        hasher.update(str(index).encode("ascii"))
        self.digest = hasher.hexdigest()[:32]
        self.ascent, self.descent = file.ascent, file.descent  # 1/1000 em, the descent below zero
        self.em_widths: dict[str, float] = {}  # the fit_text measure's widths, kept for the process

    def width(self, text: str, size: float) -> float:
        """The advance of text set at size (pt), computed as reportlab's stringWidth computes it: the same bits."""
        advances, cmap = self.file.advances, self.file.cmap
        return 0.001 * size * sum([advances[cmap[char]] for char in text])


def register_font(name: str, path: Path, index: int = 0, where: str | None = None) -> Font:
    """The font in a glyf font file (member index of a collection), registered under name; where names the
    file in messages (the designer's file for a converted copy)."""
    with _lock:
        _fonts[name] = Font(name, Path(path), index, where or str(path))
        return _fonts[name]


def font_named(name: str) -> Font:
    """The font registered under name (register_font, FontBook.resolve)."""
    return _fonts[name]


def reportlab_name(name: str) -> str:
    """name, once reportlab knows the font by it too (read once per process), for platypus and canvases."""
    from reportlab.pdfbase import pdfmetrics  # only rulebooks, proofs and diffs set type through reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    font = _fonts[name]
    with _lock:
        if not font.in_reportlab:
            try:
                pdfmetrics.registerFont(TTFont(name, str(font.path), subfontIndex=font.index))
            except Exception as exc:  # reportlab raises TTFError, struct.error, KeyError... on odd fonts
                raise PnpError(f"reportlab cannot use this font ({exc})", Location(font.where)) from None
            font.in_reportlab = True
    return name


def pair_family(regular: str, bold: str) -> None:
    """Give reportlab both fonts, and let <b> in paragraph markup set in regular pick bold (Japanese has no
    italic: <i> stays upright)."""
    from reportlab.pdfbase import pdfmetrics

    regular, bold = reportlab_name(regular), reportlab_name(bold)
    pdfmetrics.registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    pdfmetrics.registerFontFamily(bold, normal=bold, bold=bold, italic=bold, boldItalic=bold)
