"""Turn a name into a new project folder with a small deck that builds and checks as it is."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from ..atomic import write_atomically
from ..errors import PnpError
from .romaji import romanize

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"


def game_id(name: str) -> str:
    """A game id from a name: 'My Game' -> 'my-game', 'ドラゴン・クエスト' -> 'doragon-kuesuto' (kana are
    romanised); a name whose letters are all kanji gets 'game-' and six hex digits of the name, so that
    two such names never share an id."""
    spelled = unicodedata.normalize("NFKD", romanize(unicodedata.normalize("NFKC", name)))
    ascii_name = "".join(c if c.isascii() else "" if unicodedata.combining(c) else "-" for c in spelled)
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    if re.search("[a-z]", slug):
        return slug
    tag = "game-" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:6]
    return f"{tag}-{slug}" if slug else tag


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
