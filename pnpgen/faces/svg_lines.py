"""Turn a position in the SVG a template produced into the template line that wrote it, for messages."""
from __future__ import annotations

from pathlib import Path

SNIPPET = 40  # characters of the produced SVG shown when no template line matches


def locate_in_template(svg: str, line: int, column: int, template_path: Path) -> str:
    """"line 12" of the template when the produced SVG line (1-based) can be found there literally, else the
    produced text around the column, quoted."""
    produced = svg.splitlines()[line - 1] if 0 < line <= len(svg.splitlines()) else ""
    start = max(0, column - 1 - SNIPPET // 2)
    around = produced[start:start + SNIPPET].strip()
    try:
        source = template_path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        source = []
    for needle in (around, produced.strip()[:SNIPPET], around[:SNIPPET // 2]):
        if len(needle) < 4:
            continue
        found = [number for number, text in enumerate(source, 1) if needle in text]
        if len(found) == 1:
            return f"line {found[0]}"
    return f"near “{around}” (in the SVG it wrote)" if around else ""
