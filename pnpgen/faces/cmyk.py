"""Turn sRGB colours and images into a press's CMYK (and CMYK back into sRGB) through a shipped ICC profile."""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"


@dataclass(frozen=True)
class Press:
    """A printing condition as the ICC's registry names it (what a PDF/X output intent says), and the file of
    the profile characterising it."""

    name: str  # what --profile takes
    file: str
    identifier: str  # OutputConditionIdentifier: the registry's name of the characterisation
    condition: str  # OutputCondition: what a person reads


PRESSES = {p.name: p for p in (
    Press("fogra39", "FOGRA39L.icc", "FOGRA39", "Offset printing on coated paper, ISO 12647-2:2004/Amd 1 (FOGRA39)"),
    Press("gracol", "CGATS-TR006.icc", "CGATS TR 006", "Sheet-fed offset on grade 1 coated paper, GRACoL (CGATS TR 006)"),
    Press("swop", "CGATS-TR005.icc", "CGATS TR 005", "Web offset on grade 5 coated paper, SWOP (CGATS TR 005)"),
)}
DEFAULT_PRESS = "fogra39"
REGISTRY = "http://www.color.org"


class CmykConverter:
    """sRGB → the press's CMYK and back, one colour at a time (remembered) or a whole image."""

    def __init__(self, name: str = DEFAULT_PRESS):
        from PIL import ImageCms  # Pillow: imported by the builds that separate colours, not by every build

        self.press = PRESSES[name]
        self.profile_bytes = (PROFILES_DIR / self.press.file).read_bytes()
        press_profile = ImageCms.ImageCmsProfile(io.BytesIO(self.profile_bytes))
        srgb = ImageCms.createProfile("sRGB")
        intent = ImageCms.Intent.RELATIVE_COLORIMETRIC  # flat colours and art alike: paper white maps to no ink
        flags = ImageCms.Flags.BLACKPOINTCOMPENSATION  # sRGB black to the press's deepest black, not clipped
        self.forward = ImageCms.buildTransform(srgb, press_profile, "RGB", "CMYK", intent, flags)
        self.backward = ImageCms.buildTransform(press_profile, srgb, "CMYK", "RGB", intent, flags)
        self.apply = ImageCms.applyTransform
        self.to_cmyk = functools.lru_cache(maxsize=4096)(self._to_cmyk)
        self.to_rgb = functools.lru_cache(maxsize=4096)(self._to_rgb)

    def _to_cmyk(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        """The CMYK (0–1 each) printing rgb (0–1 each); pure black is black ink alone, never a rich black, so
        black text and hairlines stay sharp when the plates are a little out of register."""
        if all(v <= 0 for v in rgb):
            return (0.0, 0.0, 0.0, 1.0)
        from PIL import Image

        pixel = Image.new("RGB", (1, 1), tuple(round(min(max(v, 0.0), 1.0) * 255) for v in rgb))
        return tuple(round(v / 255, 4) for v in self.apply(pixel, self.forward).getpixel((0, 0)))

    def _to_rgb(self, cmyk: tuple[float, float, float, float]) -> tuple[float, float, float]:
        """How cmyk (0–1 each) looks on screen, in sRGB (0–1 each): what an RGB file shows of a CMYK colour."""
        from PIL import Image

        pixel = Image.new("CMYK", (1, 1), tuple(round(min(max(v, 0.0), 1.0) * 255) for v in cmyk))
        return tuple(round(v / 255, 6) for v in self.apply(pixel, self.backward).getpixel((0, 0)))

    def image_to_cmyk(self, image: Image.Image) -> Image.Image:
        """An RGB image separated for the press."""
        return self.apply(image.convert("RGB"), self.forward)


@functools.lru_cache(maxsize=None)
def converter_for(name: str = DEFAULT_PRESS) -> CmykConverter:
    """The converter of a press, made once a process (building its transforms reads the profile)."""
    return CmykConverter(name)
