"""A copy of the bundled project in a temporary git repository, and the edits a designer makes after a playtest."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GAME = "games/three-times-undress.yaml"
# (file, old text, new text): renumber a card, edit a card's text, change a template colour,
# add a card, remove a card, edit a rulebook paragraph.
EDITS = [
    (GAME, "- {number: 7, copies: 5}", "- {number: 6, copies: 5}"),
    (GAME, "【仮】特殊効果テキスト未定。\"\n            effect@en: \":ron: Ron card.\\n[TBD] Special effect to come.\"\n"
           "            tbd: [effect]\n          - {number: 3, copies: 6}",
     "【仮】新しい効果。\"\n            effect@en: \":ron: Ron card.\\n[TBD] Special effect to come.\"\n"
     "            tbd: [effect]\n          - {number: 3, copies: 6}"),
    ("templates/three-times/chip.svg.j2", 'r="{{ r - 1.1 }}" fill="none" stroke="{{ card.ivory }}"',
     'r="{{ r - 1.1 }}" fill="none" stroke="#1d5e48"'),
    (GAME, "          - {number: 6, copies: 5}\n", "          - {number: 6, copies: 5}\n          - {number: 3, copies: 2, effect: 追加カード}\n"),
    (GAME, "          - {number: 5, copies: 4}\n", ""),
    ("rules/three-times-undress.md", "麻雀の１局面を抽象的に表したカードです。", "麻雀の１局面を表したカードです。"),
]


def copy_bundled(target: Path) -> Path:
    """The bundled project without its fonts folder (the same fonts ship with pnpgen)."""
    target.mkdir(parents=True)
    shutil.copy(REPO / "cards.yaml", target / "cards.yaml")
    for name in ("games", "templates", "documents", "rules"):
        shutil.copytree(REPO / name, target / name)
    return target


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                          check=True, capture_output=True, text=True).stdout


def commit_all(folder: Path, message: str = "playtest") -> None:
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)


def apply_edits(project: Path, edits=EDITS) -> None:
    for name, old, new in edits:
        path = project / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
