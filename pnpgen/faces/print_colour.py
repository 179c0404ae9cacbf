"""Turn a face's RGB colours into what a print shop asks of them: ink coverage, contrast, colour-vision distance.

Ink: colours are separated through the press profile a shop export uses (faces/cmyk.py, FOGRA39 by default),
so coverage is what the PDF/X file will hold. Pure black text and lines print as 100 % K (as the shop export
keeps them), so they are neither rich black nor over the limit; a pure black fill is rich.

Contrast: WCAG 2's relative luminance and contrast ratio, (L1 + 0.05) / (L2 + 0.05).

Colour vision: dichromacy simulated with the matrices of Machado, Oliveira and Fernandes (2009) at severity
1.0 (protanopia, deuteranopia, tritanopia), applied in linear sRGB; colours compared in CIELAB (D65) by
CIE76 ΔE*ab. Two colours closer than DISTINGUISHABLE (ΔE 10: side by side they read as shades of one hue,
where ΔE 2.3 is the just-noticeable difference) are taken as not told apart.
"""
from __future__ import annotations

import math

from .cmyk import converter_for

INK_LIMIT = 300.0  # % total area coverage most print shops accept
DISTINGUISHABLE = 10.0  # CIE76 ΔE*ab
MACHADO_2009 = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
SRGB_TO_XYZ = ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750), (0.0193339, 0.1191920, 0.9503041))
WHITE_D65 = (0.95047, 1.0, 1.08883)


def cmyk(rgb: tuple) -> tuple[float, float, float, float]:
    """C, M, Y, K in 0…1 as the default press profile separates the colour."""
    return converter_for().to_cmyk(tuple(min(1.0, max(0.0, v)) for v in rgb))


def total_ink(rgb: tuple) -> float:
    """The colour's total ink coverage in percent (C + M + Y + K)."""
    return 100.0 * sum(cmyk(rgb))


def is_rich_black(rgb: tuple) -> bool:
    """Text of this colour prints as a four-ink near-black (not pure black, which stays 100 % K): at small
    sizes the four plates' misregistration shows as coloured fringes."""
    if all(v <= 0.0 for v in rgb):
        return False
    c, m, y, k = cmyk(rgb)
    return k >= 0.8 and c + m + y >= 0.15  # a black that needs other plates besides K


def linear(value: float) -> float:
    value = min(1.0, max(0.0, value))
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def encoded(value: float) -> float:
    value = min(1.0, max(0.0, value))
    return value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055


def luminance(rgb: tuple) -> float:
    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: tuple, second: tuple) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def simulate(rgb: tuple, vision: str) -> tuple:
    """The colour as a dichromat of that kind (a MACHADO_2009 key) sees it, in sRGB."""
    lin = [linear(v) for v in rgb]
    return tuple(encoded(sum(row[i] * lin[i] for i in range(3))) for row in MACHADO_2009[vision])


def lab(rgb: tuple) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    lin = [linear(v) for v in rgb]
    xyz = [sum(row[i] * lin[i] for i in range(3)) / white for row, white in zip(SRGB_TO_XYZ, WHITE_D65)]
    fx, fy, fz = (t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29 for t in xyz)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(first: tuple, second: tuple) -> float:
    """CIE76 ΔE*ab between two sRGB colours."""
    return math.dist(lab(first), lab(second))
