"""Turn changed faces into pictures: the old and the new face at one scale, and an overlay marking the changed pixels.

Only the faces a comparison named are drawn and rasterised (each distinct pair once); a pair whose pixels
turn out equal (an SVG that changed without changing the print) is dropped from the comparison.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from PIL import Image, ImageChops, ImageFilter

from ..errors import PnpError
from ..export.pieces import face_page
from ..faces.convert import Converter
from ..faces.render import Face
from ..press.write_pdf import pdf_bytes
from ..press.write_png import encode_png, image_from_raw, plan_raster, rasterise
from .compare import CardChange, FaceChange

DPI = 150
THRESHOLD = 24  # per-channel difference below which anti-aliasing noise is not a change
HIGHLIGHT = (230, 0, 60)


@dataclass(frozen=True)
class Picture:
    old: bytes | None  # PNG of the trim
    new: bytes | None
    overlay: bytes | None  # the new face faded, changed pixels in red; None when one side is missing
    differs: bool


@dataclass(frozen=True)
class Drawer:
    """How one side turns faces into drawings: its converter and the font PDFs start with."""

    converter: Converter
    initial_font: str


def draw_pictures(changes: Iterable[CardChange], old: Drawer, new: Drawer) -> dict[tuple[str, str], Picture]:
    """One Picture per distinct (old face, new face) pair of the changes."""
    pairs: dict[tuple[str, str], FaceChange] = {}
    for change in changes:
        for face in change.faces:
            pairs.setdefault(face.pair, face)
    faces = list(pairs.values())
    old_images = rasterise_faces([(f.old, f.old_component) for f in faces], old)
    new_images = rasterise_faces([(f.new, f.new_component) for f in faces], new)
    return {pair: make_picture(a, b) for pair, a, b in zip(pairs, old_images, new_images)}


def rasterise_faces(faces: list[tuple[Face | None, object]], drawer: Drawer) -> list[Image.Image | None]:
    """The trim of each face (None stays None) at DPI, from one single-face-per-page PDF."""
    present = [(face, component) for face, component in faces if face is not None]
    if not present:
        return [None] * len(faces)
    drawings, pages, rasters = {}, [], []
    for number, (face, component) in enumerate(present):
        try:
            drawings[face.key] = drawer.converter.convert(face.key, face.svg, face.template)
        except PnpError as err:
            raise PnpError(f"{face.origin}: {err.problems[0].message}", face.location) from None
        pages.append(face_page(component, face.key, "front"))
        rasters.append(plan_raster(0, number, component.size.width, component.size.height, component.bleed, DPI,
                                   with_bleed=False))
    document = pdf_bytes(pages, drawings, title="pnpgen diff", initial_font=drawer.initial_font, bleed=None)
    images = iter(image_from_raw(data, raster.size)
                  for data, raster in zip(rasterise([document], rasters, encode=False), rasters))
    return [next(images) if face is not None else None for face, _ in faces]


def make_picture(old: Image.Image | None, new: Image.Image | None) -> Picture:
    if old is None or new is None:
        return Picture(encode(old), encode(new), None, True)
    mask = mask_changed_pixels(old, new)
    if mask.getbbox() is None:
        return Picture(encode(old), encode(new), None, False)
    faded = Image.blend(new.convert("L").convert("RGB"), Image.new("RGB", new.size, "white"), 0.65)
    marked = Image.blend(new, Image.new("RGB", new.size, HIGHLIGHT), 0.7)
    return Picture(encode(old), encode(new), encode(Image.composite(marked, faded, mask)), True)


def mask_changed_pixels(old: Image.Image, new: Image.Image) -> Image.Image:
    """A mask of the pixels that differ, widened by two pixels so a changed hairline shows."""
    if old.size != new.size:
        old = old.resize(new.size)
    difference = ImageChops.difference(old, new).convert("L")
    mask = difference.point(lambda v: 255 if v > THRESHOLD else 0)
    return mask.filter(ImageFilter.MaxFilter(5)) if mask.getbbox() else mask


def encode(image: Image.Image | None) -> bytes | None:
    return encode_png(image) if image is not None else None


def settle(changes: list[CardChange], pictures: dict[tuple[str, str], Picture]) -> list[CardChange]:
    """The changes without faces whose pixels did not change, and without cards left with nothing changed."""
    kept = []
    for change in changes:
        change.faces = [f for f in change.faces if pictures[f.pair].differs]
        if change.status != "changed" or change.faces or change.fields:
            kept.append(change)
    return kept
