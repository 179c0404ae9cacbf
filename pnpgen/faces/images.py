"""Turn <image> references in face SVG into checked project files that PDFs embed once, with alpha."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

from ..errors import PnpError
from ..files.reading import special_kind

MAX_PIXELS = 60_000_000  # ~7,700 × 7,700: far above any card at 1,200 dpi, far below a decompression bomb
FORMATS = {"PNG", "JPEG", "GIF", "WEBP", "TIFF", "BMP"}
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


class ImageChecker:
    """Resolves hrefs inside the project and checks each file once (header only: it is fast)."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.checked: dict[tuple[str, int, int], str] = {}

    def resolve(self, href: str) -> str:
        """The checked image's absolute path."""
        if not href:
            raise PnpError("an <image> needs href=\"images/NAME.png\"; expected a path inside the project")
        if URL.match(href):
            raise PnpError(f"<image href=\"{href[:60]}\">: images must be files in the project, not URLs or data; "
                           "expected a path such as images/ron.png")
        path = (self.root / href).resolve()
        if not path.is_relative_to(self.root):
            raise PnpError(f"<image href=\"{href}\"> points outside the project folder; expected a path inside it")
        try:
            stat = path.stat()
        except OSError:
            raise PnpError(f"image '{href}' not found; expected a file relative to the project folder") from None
        if special_kind(path):
            raise PnpError(f"image '{href}' is {special_kind(path)}, not a file; expected a PNG or JPEG file")
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        if key not in self.checked:
            check_image(path, href)
            self.checked[key] = str(path)
        return self.checked[key]


def pillow():
    """Pillow's Image module with its decompression-bomb limit at ours, so that Pillow refuses a bomb itself before
    decoding anything. Imported when a face first opens a picture: most rebuilds open none."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    return Image


def check_image(path: Path, shown: str) -> None:
    """Refuse an image that does not decode as a picture of a size a PDF can hold."""
    PILImage = pillow()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(path) as image:
                size, kind = image.size, image.format
                image.load()  # a truncated or damaged file fails here, not later while writing the PDF
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise PnpError(f"image '{shown}' is too large to be a picture (a decompression bomb?); "
                       f"expected at most {MAX_PIXELS:,} pixels") from None
    except PILImage.UnidentifiedImageError:
        raise PnpError(f"image '{shown}' is not an image file; expected a PNG or JPEG file") from None
    except (OSError, SyntaxError, ValueError) as err:
        raise PnpError(f"image '{shown}' cannot be read ({type(err).__name__}); expected a PNG or JPEG file") from None
    if kind not in FORMATS:
        raise PnpError(f"image '{shown}' is {kind}; expected one of {', '.join(sorted(FORMATS))}")
    if size[0] * size[1] > MAX_PIXELS:
        raise PnpError(f"image '{shown}' has {size[0]} × {size[1]} pixels; expected at most {MAX_PIXELS:,}")
