"""Turn a project's templates, images and fonts into digests: what besides a card's data decides how its faces look."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from .._version import __version__
from ..digests import file_pieces
from .font_folders import font_dirs

if TYPE_CHECKING:
    from ..project.model import Project


def inputs_digest(project: Project) -> str:
    """Everything besides a card's own data that can change how a face renders: templates, icons, images, fonts."""
    return input_digests(project)[0]


def input_digests(project: Project) -> tuple[str, str]:
    """(inputs_digest, the assets' digest), reading each file once. The assets are what a face's SVG only names:
    images (and whether they are links, and to where) and fonts; templates and icons count only in the first."""
    hasher = hashlib.sha256(folder_digest(project.root / "images").encode("ascii"))
    hasher.update(fonts_digest(project.root).encode("ascii"))
    hasher.update(project.default_font.encode("utf-8"))
    assets = hasher.hexdigest()
    return hashlib.sha256((folder_digest(project.templates_dir) + assets).encode("ascii")).hexdigest(), assets


def fonts_digest(root: Path) -> str:
    """The font files a project can use, bundled ones included."""
    hasher = hashlib.sha256()
    for folder in font_dirs(root):
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            stat = path.stat()  # fonts are large: their identity is name, size and modification time
            hasher.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode("utf-8"))
    return hasher.hexdigest()


def folder_digest(folder: Path) -> str:
    hasher = hashlib.sha256(__version__.encode())
    for path in sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else ():
        link = str(path.resolve()) if path.is_symlink() else ""  # a file swapped for a link is a change
        hasher.update(str(path.relative_to(folder)).encode("utf-8") + b"\0" + link.encode("utf-8") + b"\0")
        for piece in file_pieces(path):  # in pieces: a huge file a project ships must not fill the memory
            hasher.update(piece)
        hasher.update(b"\0")
    return hasher.hexdigest()
