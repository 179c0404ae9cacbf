"""Turn a project and REF into the gallery's "changed since REF" view: which cards changed, and the comparison page."""
from __future__ import annotations

from pathlib import Path

from ..diff.html import render_html
from ..diff.session import compare_project
from ..errors import PnpError
from ..project.model import Project


def compare_since(project: Project, since: str, game: str | None, cache: bool, cache_dir: Path | None) -> tuple[dict, bytes]:
    """The state's "since" entry ({label, cards: {game/component/index: status}, removed, error}) and the page."""
    out_dir = project.root / "output"
    try:
        with compare_project(project, since, game, out_dir, cache=cache, cache_dir=cache_dir) as comparison:
            cards = {f"{c.game}/{c.component}/{c.index}": c.status for c in comparison.cards if c.status != "removed"}
            removed = [f"{c.game}/{c.component} #{c.index} ({c.caption})" for c in comparison.cards if c.status == "removed"]
            sections = [f"{s.file}: {s.heading.lstrip('#').strip() or '…'} ({s.status})" for s in comparison.sections]
            state = {"ref": since, "label": comparison.label, "cards": cards, "removed": removed, "sections": sections,
                     "error": None}
            return state, render_html(comparison).encode("utf-8")
    except PnpError as err:
        return {"ref": since, "label": since, "cards": {}, "removed": [], "sections": [],
                "error": "; ".join(str(p) for p in err.problems)}, b""
