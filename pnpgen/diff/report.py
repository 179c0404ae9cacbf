"""Turn a comparison into what people and scripts read: lines for the terminal and a JSON document."""
from __future__ import annotations

from ..project.model import plain
from .compare import CardChange, FieldChange
from .session import Comparison

JSON_VERSION = 1


def show(value, limit: int = 40) -> str:
    text = "—" if value is None else str(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_field(change: FieldChange) -> str:
    where = f"  ({change.location})" if change.location else ""
    return f"{change.name}: {show(change.old)} → {show(change.new)}{where}"


def describe_change(change: CardChange) -> str:
    sides = " and ".join(f.side for f in change.faces)
    looks = f"; {sides} changed" if sides and change.status == "changed" else ""
    return f"{change.game}/{change.component} card {change.index} ({change.caption}) {change.status}{looks}"


def describe_causes(change: CardChange) -> str:
    """Why a card whose data did not change looks different: the files or settings that changed."""
    return "only because these changed: " + ", ".join(change.because)


def list_changes(comparison: Comparison) -> list[str]:
    """What changed since REF, game by game and component by component, for the terminal."""
    out = [f"since {comparison.label}:"]
    if comparison.files:
        out.append("  changed files: " + ", ".join(comparison.files))
    for change in comparison.cards:
        where = f"(was at {change.location})" if change.status == "removed" else str(change.location)
        out.append(f"  {describe_change(change)}  {where}")
        out += [f"      {describe_field(f)}" for f in change.fields]
        if change.because:
            out.append("      " + describe_causes(change))
    for section in comparison.sections:
        title = section.heading.lstrip("#").strip() or "(before the first heading)"
        out.append(f"  {section.game} {section.file}:{section.line}: section 「{title}」 {section.status}")
    if len(out) == 1 + bool(comparison.files):
        out.append("  no card and no rulebook section changed")
    return out


def as_json(comparison: Comparison) -> dict:
    """{"version": 1, "since", "revision", "files", "cards": [...], "sections": [...]} — stable within version 1."""
    cards = [{
        "game": c.game, "component": c.component, "status": c.status, "index": c.index, "caption": c.caption,
        "location": str(c.location), "copies": c.card.copies,
        "fields": [{"name": f.name, "old": plain(f.old), "new": plain(f.new),
                    "location": str(f.location) if f.location else None} for f in c.fields],
        "faces": [f.side for f in c.faces], "because": c.because,
    } for c in comparison.cards]
    sections = [{"game": s.game, "file": s.file, "line": s.line, "heading": s.heading, "status": s.status}
                for s in comparison.sections]
    return {"version": JSON_VERSION, "since": comparison.since, "revision": comparison.label,
            "files": comparison.files, "cards": cards, "sections": sections}
