"""Turn a project's templates, images and fonts into one digest: what besides a card's data decides how its faces look."""
from __future__ import annotations

import hashlib

from .. import __version__
from ..project.model import Project
from .fonts import font_dirs


def inputs_digest(project: Project) -> str:
    """Everything besides a card's own data that can change how a face renders: templates, icons, fonts."""
    hasher = hashlib.sha256(__version__.encode())
    for folder in (project.templates_dir, project.root / "images"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else ():
            hasher.update(str(path.relative_to(folder)).encode("utf-8") + b"\0")
            with open(path, "rb") as handle:  # in pieces: a huge file a project ships must not fill the memory
                for piece in iter(lambda: handle.read(1 << 20), b""):
                    hasher.update(piece)
            hasher.update(b"\0")
    for folder in font_dirs(project.root):
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            stat = path.stat()  # fonts are large: their identity is name, size and modification time
            hasher.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode("utf-8"))
    hasher.update(project.default_font.encode("utf-8"))
    return hasher.hexdigest()
