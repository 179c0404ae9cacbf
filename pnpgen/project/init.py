"""Turn a name into a new project folder with a small deck that builds and checks as it is."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..atomic import write_atomically
from ..errors import CONTROL, PnpError

UNQUOTABLE = re.compile("[\"\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")
PLACEHOLDER = re.compile(r"\{\{(?:quoted name|name|id)\}\}")
SCAFFOLD = Path(__file__).resolve().parent / "scaffold"


def game_id(name: str) -> str:
    """A game id from a name: 'My Game' -> 'my-game'; a name with no Latin letters gives 'my-game'."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug or "my-game"


def yaml_quoted(text: str) -> str:
    """text as a YAML double-quoted string that reads back as exactly text, whatever it holds."""
    def escape(match: re.Match) -> str:
        char = match.group()
        return "\\" + char if char in '"\\' else f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
    return '"' + UNQUOTABLE.sub(escape, text) + '"'


def one_line(text: str) -> str:
    """text for a comment or a heading: one line, control characters shown as spaces."""
    return CONTROL.sub(" ", text)


def init_project(folder: str | Path, name: str | None = None) -> list[Path]:
    """Create folder with cards.yaml, templates/ and a README; refuse to touch an existing non-empty folder."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PnpError(f"{folder}: already exists and is not empty; expected a new folder name")
    title = name or folder.name
    written = []
    for source in sorted(p for p in SCAFFOLD.rglob("*") if p.is_file()):
        target = folder / source.relative_to(SCAFFOLD)
        values = {"{{quoted name}}": yaml_quoted(title), "{{name}}": one_line(title), "{{id}}": game_id(title)}
        # one pass: a name that itself holds "{{id}}" stays as written
        text = PLACEHOLDER.sub(lambda m: values[m.group()], source.read_text(encoding="utf-8"))
        write_atomically(target, text.encode("utf-8"), "file")
        written.append(target)
    (folder / "images").mkdir(exist_ok=True)
    (folder / "fonts").mkdir(exist_ok=True)
    return written
