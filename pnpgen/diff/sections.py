"""Turn the old and new text of a rulebook into the sections (by Markdown heading) whose text changed."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..project.model import Game

HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class SectionChange:
    game: str
    file: str
    heading: str  # "" for the text before the first heading
    status: str  # added | removed | changed
    line: int  # where the section starts now (where it started, for a removed one)


def split_sections(text: str) -> list[tuple[str, int, str]]:
    """(heading, line of the heading, text under it up to the next heading of any level) in order."""
    sections, heading, start, body, fenced = [], "", 1, [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        match = None if fenced else HEADING.match(line)
        if match:
            sections.append((heading, start, "\n".join(body).strip()))
            heading, start, body = f"{match.group(1)} {match.group(2)}", number, []
        else:
            body.append(line)
    sections.append((heading, start, "\n".join(body).strip()))
    return [s for s in sections if s[0] or s[2]]


def key_sections(sections: list[tuple[str, int, str]]) -> dict[tuple[str, int], tuple[int, str]]:
    """Sections keyed by heading and occurrence, so two sections with one heading stay apart."""
    seen: dict[str, int] = {}
    out = {}
    for heading, line, body in sections:
        seen[heading] = seen.get(heading, 0) + 1
        out[(heading, seen[heading])] = (line, body)
    return out


def compare_text(game: str, file: str, old: str | None, new: str | None) -> list[SectionChange]:
    before, after = key_sections(split_sections(old or "")), key_sections(split_sections(new or ""))
    changes = []
    for key, (line, body) in after.items():
        if key not in before:
            changes.append(SectionChange(game, file, key[0], "added", line))
        elif before[key][1] != body:
            changes.append(SectionChange(game, file, key[0], "changed", line))
    changes += [SectionChange(game, file, key[0], "removed", line) for key, (line, _) in before.items() if key not in after]
    return changes


def compare_rulebooks(old_root: Path, old_game: Game | None, new_root: Path, game: Game) -> list[SectionChange]:
    """The sections of the game's rulebook and rules sheet whose text changed (files read as UTF-8 text)."""
    changes = []
    for attribute in ("rulebook", "rules_sheet"):
        now, was = getattr(game, attribute), getattr(old_game, attribute) if old_game else None
        if now or was:
            shown = shown_path(new_root, now) if now else shown_path(old_root, was)
            changes += compare_text(game.id, shown, read_rulebook(old_root, was), read_rulebook(new_root, now))
    return changes


def read_rulebook(root: Path, name: str | None) -> str | None:
    if not name:
        return None
    try:
        return (root / name).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def shown_path(root: Path, name: str) -> str:
    """The rulebook's path relative to its project folder, as messages name files."""
    try:
        return (root / name).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return name
