"""Turn a template's image(name, x, y, width, height, fit) into the <image href> SVG of a picture fitted to its box."""
from __future__ import annotations

import difflib
import hashlib
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from ..errors import PnpError
from .images import ImageChecker, pillow

FOLDER = "images"  # image() names a file in this folder of the project
FITS = ("contain", "cover")
MAX_NAME = 1000  # characters in a picture's name: far beyond any real one


class ImagePlacer:
    """Places pictures from a project's images/ folder, each checked as a raw <image> tag's is."""

    def __init__(self, root: Path, checker: ImageChecker):
        self.root = Path(root).resolve()
        self.checker = checker
        self.sizes: dict[str, tuple[int, int]] = {}  # a checked file's path -> its pixel size

    def place(self, name, x, y, width, height, fit="contain") -> Markup:
        """The picture scaled to fit the box (contain: all of it shows, centred; cover: it fills the box, centred,
        and is clipped to it). Lengths in mm, as everywhere in a template."""
        for value in (name, x, y, width, height, fit):
            if isinstance(value, jinja2.Undefined):
                str(value)  # raises the UndefinedError that names the missing field
        name = str(name)
        shown = f"image('{name[:60]}')"
        box = [read_length(shown, label, value) for label, value in
               (("x", x), ("y", y), ("width", width), ("height", height))]
        for label, value in (("width", box[2]), ("height", box[3])):
            if value <= 0:
                raise PnpError(f"{shown}: {label} must be more than 0 mm, got {value:g}; expected a box to fit it in")
        if fit not in FITS:
            raise PnpError(f"{shown}: fit={str(fit)[:40]!r} is not a way to fit a picture; "
                           "expected fit=\"contain\" or fit=\"cover\"")
        href = self.find(name, shown)
        pixels = self.pixel_size(self.checker.resolve(href))
        return Markup(fit_image(href, pixels, *box, fit))

    def find(self, name: str, shown: str) -> str:
        """The href of the file the name gives, once it is known to be a file under images/."""
        folder = (self.root / FOLDER).resolve()
        if not name or name.startswith(("/", "\\")) or ":" in name or "\0" in name or len(name) > MAX_NAME:
            raise PnpError(f"{shown}: expected the name of a file in the project's {FOLDER}/ folder, such as 'seal.png'")
        try:
            path = (folder / name).resolve()
            found = path.is_file()
        except OSError:  # a name the file system refuses (too long a part, say) names no file
            path, found = folder / name, False
        if not path.is_relative_to(folder):
            raise PnpError(f"{shown} leaves the project's {FOLDER}/ folder; expected a file inside it, such as "
                           "'seal.png'")
        if not found:
            known = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) \
                if folder.is_dir() else []
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f" (it holds {', '.join(known[:8]) or 'nothing'})"
            raise PnpError(f"{shown}: {FOLDER}/{name[:60]} not found; expected a file in the project's {FOLDER}/ "
                           f"folder{hint}")
        return f"{FOLDER}/{name}"

    def pixel_size(self, path: str) -> tuple[int, int]:
        if path not in self.sizes:
            with pillow().open(path) as image:  # the checker has already decoded it: its size is safe to read
                self.sizes[path] = image.size
        return self.sizes[path]


def read_length(shown: str, label: str, value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise PnpError(f"{shown}: {label} must be a number of millimetres, got {str(value)[:40]!r}") from None


def fit_image(href: str, pixels: tuple[int, int], x: float, y: float, width: float, height: float, fit: str) -> str:
    """The SVG drawing the picture at its aspect ratio, centred in the box; a cover clipped to the box."""
    scales = (width / pixels[0], height / pixels[1])
    scale = min(scales) if fit == "contain" else max(scales)
    drawn_w, drawn_h = pixels[0] * scale, pixels[1] * scale
    left, top = x + (width - drawn_w) / 2, y + (height - drawn_h) / 2
    tag = (f'<image href="{escape(href)}" x="{left:.4f}" y="{top:.4f}" width="{drawn_w:.4f}" '
           f'height="{drawn_h:.4f}"/>')
    if fit == "contain":
        return tag
    # the id is named by what it clips, so that two pictures of a face never share one unless they are the same
    clip = "pnpgen-image-" + hashlib.sha256(f"{href}\0{x}\0{y}\0{width}\0{height}".encode()).hexdigest()[:12]
    return (f'<clipPath id="{clip}"><rect x="{x:.4f}" y="{y:.4f}" width="{width:.4f}" height="{height:.4f}"/>'
            f'</clipPath><g clip-path="url(#{clip})">{tag}</g>')
