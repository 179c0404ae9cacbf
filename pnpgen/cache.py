"""Turn rendered faces and converted drawings into files keyed by content hash, shared safely by builds.

The cache lives in the user's own cache folder, never in a project: it holds pickled drawings, and a
project folder someone shares must not be able to ship code. Entries are written atomically, so two
builds at once at worst both write the same bytes.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from . import __version__
from .atomic import write_atomically

PICKLE_PROTOCOL = 5


def default_cache_dir() -> Path:
    explicit = os.environ.get("PNPGEN_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnpgen"


def library_versions() -> str:
    """Converted drawings depend on the converter: a new svglib or reportlab starts a fresh cache."""
    import reportlab
    import svglib

    return f"pnpgen {__version__} svglib {svglib.__version__} reportlab {reportlab.Version}"


class Cache:
    """SVG per render key, drawing per SVG hash; a folder of small files, two levels deep."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.versions = None

    def path(self, kind: str, key: str, suffix: str) -> Path:
        return self.folder / kind / key[:2] / f"{key}{suffix}"

    def read_svg(self, key: str) -> str | None:
        try:
            svg = self.path("svg", key, ".svg").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return svg if svg.endswith("</svg>") else None  # a torn entry (crash before the data hit the disk)

    def write_svg(self, key: str, svg: str) -> None:
        write_quietly(self.path("svg", key, ".svg"), svg.encode("utf-8"))

    def drawing_key(self, face_key: str) -> str:
        if self.versions is None:
            self.versions = library_versions()
        return digest(self.versions, face_key)

    def read_drawing(self, face_key: str):
        """(drawing, names of the fonts it uses) or None: the fonts must be registered before it is drawn."""
        try:
            data = self.path("drawing", self.drawing_key(face_key), ".pickle").read_bytes()
            drawing, fonts = pickle.loads(data)
            return drawing, tuple(fonts)
        except Exception:  # a missing, truncated or stale entry is a miss: convert again
            return None

    def write_drawing(self, face_key: str, drawing) -> None:
        write_quietly(self.path("drawing", self.drawing_key(face_key), ".pickle"),
                      pickle.dumps((drawing, sorted(fonts_used(drawing))), protocol=PICKLE_PROTOCOL))


def fonts_used(drawing) -> set[str]:
    """The reportlab font names a drawing's strings use."""
    names, stack = set(), [drawing]
    while stack:
        node = stack.pop()
        name = getattr(node, "fontName", None)
        if isinstance(name, str):
            names.add(name)
        stack.extend(getattr(node, "contents", None) or ())
    return names


def write_quietly(path: Path, data: bytes) -> None:
    """A cache that cannot be written (read-only home, full disk) only makes the build slower."""
    try:
        write_atomically(path, data, "cache entry", durable=False)
    except Exception:
        pass


def digest(*parts: object) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part if isinstance(part, bytes) else repr(part).encode("utf-8"))
        hasher.update(b"\0")
    return hasher.hexdigest()
