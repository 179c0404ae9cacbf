"""Turn changed faces into pictures: the old and the new face at one scale, and an overlay marking the changed pixels.

Only the faces a comparison named are drawn and rasterised (each distinct pair once); a pair whose pixels
turn out equal (an SVG that changed without changing the print) is dropped from the comparison.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Iterable

from PIL import Image, ImageChops, ImageFilter

from ..store.cache import Cache, write_quietly
from ..digests import digest
from ..errors import PnpError
from ..export.pieces import face_page
from ..faces.convert import Converter
from ..faces.fonts import FontBook
from ..faces.face import Face
from ..press.write_pdf import pdf_bytes
from ..press.write_png import encode_png, image_from_raw, plan_raster, rasterise
from .compare import CardChange, FaceChange

DPI = 150
THRESHOLD = 0  # one drawing always rasterises to the same pixels: any difference is a change
HIGHLIGHT = (230, 0, 60)


@dataclass(frozen=True)
class Picture:
    old: bytes | None  # PNG of the trim
    new: bytes | None
    overlay: bytes | None  # the new face faded, changed pixels in red; None when one side is missing
    differs: bool


@dataclass(frozen=True)
class Drawer:
    """How one side turns faces into pictures: its converter and fonts, and the cache keeping its pictures
    (a picture is named by the face's SVG hash and the digest of the images and fonts the SVG names)."""

    converter: Converter
    fontbook: FontBook
    cache: Cache | None = None
    inputs: str = ""

    def key(self, face: Face, component) -> str:
        return digest("diff picture", DPI, face.key, self.inputs, component.size, component.bleed)

    def recall(self, face: Face, component) -> Image.Image | None:
        """The cached picture, or None: a missing, damaged or wrongly sized entry is drawn again."""
        path = self.cache.path("picture", self.key(face, component), ".png") if self.cache is not None else None
        if path is None:
            return None
        try:
            image = Image.open(io.BytesIO(path.read_bytes()))
            image.load()
        except (OSError, ValueError, Image.DecompressionBombError):
            return None
        expected = plan_raster(0, 0, component.size.width, component.size.height, component.bleed, DPI, False).size
        return image.convert("RGB") if image.size == expected else None

    def keep(self, face: Face, component, image: Image.Image) -> None:
        if self.cache is not None:
            write_quietly(self.cache.path("picture", self.key(face, component), ".png"), encode_png(image))


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
    """The trim of each face (None stays None) at DPI: from the cache, else from one single-face-per-page PDF."""
    found = [drawer.recall(face, component) if face is not None else None for face, component in faces]
    missing = [(index, face, component) for index, ((face, component), image) in enumerate(zip(faces, found))
               if face is not None and image is None]
    if not missing:
        return found
    drawings, pages, rasters = {}, [], []
    for number, (_, face, component) in enumerate(missing):
        try:
            drawings[face.key] = drawer.converter.face_form(face.key, face.svg, face.template)
        except PnpError as err:
            raise PnpError(f"{face.origin}: {err.problems[0].message}", face.location) from None
        pages.append(face_page(component, face.key, "front"))
        rasters.append(plan_raster(0, number, component.size.width, component.size.height, component.bleed, DPI,
                                   with_bleed=False))
    document = pdf_bytes(pages, drawings, title="pnpgen diff", initial_font=drawer.fontbook.resolve(None), bleed=None)
    for (index, face, component), data, raster in zip(missing, rasterise([document], rasters, encode=False), rasters):
        found[index] = image_from_raw(data, raster.size)
        drawer.keep(face, component, found[index])
    return found


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
