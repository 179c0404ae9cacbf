"""Turn a checked image file into the body of its PDF image XObject, with its alpha as a soft mask."""
from __future__ import annotations

from typing import Callable

from ..faces.images import pillow
from .pdf_file import stream

GREY_MODES = {"1", "L", "I", "I;16", "F"}


def image_objects(path: str, reserve: Callable[[], int], cmyk=None) -> list[tuple[int, bytes]]:
    """The image's XObject (first) and, for an image with transparency, its soft mask: (number, body).

    A baseline JPEG keeps its bytes (DCTDecode); anything else is deflated RGB or grey, 8 bits. cmyk: a
    faces.cmyk converter separating colour images for a press (deflated CMYK; grey stays grey, black ink)."""
    with pillow().open(path) as image:  # a project file: opened under our limit on pixels
        image.load()
        width, height = image.size
        head = b"/Type /XObject /Subtype /Image /Width %d /Height %d /BitsPerComponent 8" % (width, height)
        if image.format == "JPEG" and image.mode in ("RGB", "L") and (cmyk is None or image.mode == "L"):
            with open(path, "rb") as file:
                data = file.read()
            space = b"/DeviceGray" if image.mode == "L" else b"/DeviceRGB"
            return [(reserve(), stream(head + b" /ColorSpace " + space + b" /Filter /DCTDecode", data, compress=False))]
        if image.mode == "P" and "transparency" in image.info:
            image = image.convert("RGBA")
        alpha = image.getchannel("A") if "A" in image.getbands() else None
        grey = image.mode in GREY_MODES or image.mode == "LA"
        pixels = image.convert("L" if grey else "RGB")
    number = reserve()
    objects = []
    if alpha is not None and alpha.getextrema() != (255, 255):
        mask = reserve()
        objects.append((mask, stream(head + b" /ColorSpace /DeviceGray", alpha.tobytes())))
        head += b" /SMask %d 0 R" % mask
    space = b"/DeviceGray" if grey else b"/DeviceRGB"
    if cmyk is not None and not grey:
        pixels, space = cmyk.image_to_cmyk(pixels), b"/DeviceCMYK"
    return [(number, stream(head + b" /ColorSpace " + space, pixels.tobytes()))] + objects
