"""Turn a name into a new project folder with a small deck that builds and checks as it is."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..atomic import write_atomically
from ..errors import PnpError

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"


def game_id(name: str) -> str:
    """A game id from a name: 'My Game' -> 'my-game'; a name with no Latin letters gives 'my-game'."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug or "my-game"


def init_project(folder: str | Path, name: str | None = None) -> list[Path]:
    """Create folder with cards.yaml, templates/ and a README; refuse to touch an existing non-empty folder."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PnpError(f"{folder}: already exists and is not empty; expected a new folder name")
    title = name or folder.name
    written = []
    for source in sorted(p for p in SCAFFOLD.rglob("*") if p.is_file()):
        target = folder / source.relative_to(SCAFFOLD)
        text = source.read_text(encoding="utf-8").replace("{{name}}", title).replace("{{id}}", game_id(title))
        write_atomically(target, text.encode("utf-8"), "file")
        written.append(target)
    (folder / "images").mkdir(exist_ok=True)
    (folder / "fonts").mkdir(exist_ok=True)
    return written
