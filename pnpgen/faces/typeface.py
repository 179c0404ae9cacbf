"""Turn a family, weight and style found in a font file into the face record fonts are registered by."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

WEIGHT_NAMES = {100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium",
                600: "SemiBold", 700: "Bold", 800: "ExtraBold", 900: "Black"}


@dataclass(frozen=True)
class Face:
    """One weight and style of a family, as found on disk."""

    family: str
    weight: int
    italic: bool
    path: Path
    index: int = 0  # member of a .ttc collection
    cff: bool = False  # PostScript outlines: reportlab needs them converted to glyf
    variable: bool = False  # instanced at `weight` before use

    @property
    def base_name(self) -> str:
        weight = WEIGHT_NAMES.get(self.weight, str(self.weight))
        style = ("" if weight == "Regular" else weight) + ("Italic" if self.italic else "")
        return re.sub(r"\s+", "", self.family) + "-" + (style or "Regular")
