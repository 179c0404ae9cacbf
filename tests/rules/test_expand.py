"""A rulebook's Markdown expanded once a build serves its digest and its typesetting alike, for the same project; a
project loaded again is expanded afresh, and the one before is not kept."""
from __future__ import annotations

from pathlib import Path

from pnpgen.project.validate import load_project
from pnpgen.rules import expand
from pnpgen.rules.expand import expand_markdown

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules_check"


def test_the_same_project_expands_a_rulebook_once_and_notes_its_marks_each_time(monkeypatch):
    project = load_project(FIXTURE)
    game = project.games[0]
    source = FIXTURE / game.rulebook
    text = source.read_text(encoding="utf-8") + "\n{{ count('deck') }}\n"
    runs = []
    real = expand.expand_now
    monkeypatch.setattr(expand, "expand_now", lambda *args: runs.append(1) or real(*args))
    first, second = [], []
    assert expand_markdown(project, game, source, text, first) == expand_markdown(project, game, source, text, second)
    assert runs == [1] and first == second
    assert expand_markdown(project, game, source, text) != "" and runs == [1, 1]  # printed plain: another expansion
    again = load_project(FIXTURE)
    expand_markdown(again, again.games[0], source, text, [])
    assert runs == [1, 1, 1]
    assert all(kept[0] is again for kept in expand._EXPANDED.values())
