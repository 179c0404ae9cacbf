"""The rulebook checker: literal numbers tied to components, template errors, picture references."""
from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen.checks.checker import FAIL, PASS
from pnpgen.checks.numerals import parse_number
from pnpgen.checks.rulebook import blank, check_rulebook
from pnpgen.project.validate import load_project

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules_check"


@pytest.fixture(scope="module")
def project():
    return load_project(FIXTURE)


def by_line(findings):
    return {(f.location.file, f.location.line): f for f in findings if f.check.startswith("rulebook count")}


def test_literal_counts_are_held_to_the_data(project):
    findings = [f for f in check_rulebook(project, project.game("counted")) if f.check.startswith("rulebook count")]
    found = {line: (f.status, f.check, f.expected, f.found) for (_, line), f in by_line(findings).items()}
    assert found == {
        3: (PASS, "rulebook count deck", 6, 6),  # デッキカード（６枚） full-width digits
        4: (FAIL, "rulebook count deck", 6, 7),  # デッキカード（7枚）
        5: (PASS, "rulebook count tokens", 10, 10),  # トークン１０個
        6: (FAIL, "rulebook count tokens", 10, 12),  # トークン十二個 (kanji)
        7: (PASS, "rulebook count deck", 6, 6),  # ６枚のデッキカード (number first)
        8: (PASS, "rulebook count deck", 3, 3),  # three of each colour (各: per what)
        9: (PASS, "rulebook count special", 2, 2),  # the longer name wins over デッキカード
        14: (FAIL, "rulebook count deck", 6, 5),  # a table row: | デッキカード | 5 |
        18: (FAIL, "rulebook count deck", 6, 9),  # an image caption is prose too
    }
    assert all(f.location.file == "rules/rules.md" for f in findings)


def test_messages_say_where_and_how_to_fix(project):
    findings = by_line(check_rulebook(project, project.game("counted")))
    failure = findings[("rules/rules.md", 4)]
    assert failure.location.col == 8
    assert "{{ count('deck')|zen }}" in failure.detail and "cards.yaml:10" in failure.detail
    assert "デッキカード（7枚）" in failure.detail
    agreeing = findings[("rules/rules.md", 3)]
    assert "prefer {{ count('deck')|zen }}" in agreeing.detail
    assert failure.line().startswith("✗ rules/rules.md:4:8: rulebook count deck: expected 6, found 7")


def test_expressions_code_links_and_numbers_that_are_not_counts_are_ignored(project):
    text = (FIXTURE / "rules" / "rules.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    findings = by_line(check_rulebook(project, project.game("counted")))
    for number, line in enumerate(lines, 1):
        if "{{" in line or "の「１」" in line or line.startswith("デッキカード（9枚）"):
            assert ("rules/rules.md", number) not in findings, line
    assert "count" not in blank("{{ count('deck') }}")
    assert blank("a\n{{ x\n }}b") == "a\n    \n   b"


def test_template_errors_and_missing_pieces_fail_with_their_line(project):
    game = project.game("counted")
    findings = check_rulebook(project, game, [FIXTURE / "rules" / "broken.md", FIXTURE / "rules" / "picture.md"])
    shown = [(f.status, f.check, f.location.file, f.location.line) for f in findings]
    assert shown == [
        (FAIL, "rulebook template", "rules/broken.md", 5),
        (PASS, "rulebook template", "rules/picture.md", 0),
        (FAIL, "rulebook picture", "rules/picture.md", 3),
        (FAIL, "rulebook picture", "rules/picture.md", 4),
    ]
    assert "no component 'nope'" in findings[0].detail
    assert "2 picture(s)" in findings[1].detail
    assert "has 6 pieces" in findings[3].detail


def test_a_game_without_a_rulebook_has_nothing_to_check(project):
    game = project.game("counted")
    assert check_rulebook(project, game, []) == []


def test_unreadable_source_fails(project, tmp_path):
    findings = check_rulebook(project, project.game("counted"), [tmp_path / "missing.md"])
    assert [f.status for f in findings] == [FAIL]


@pytest.mark.parametrize("text,value", [("46", 46), ("４６", 46), ("十", 10), ("三十二", 32), ("四十六", 46),
                                        ("百", 100), ("百二十", 120), ("七", 7)])
def test_numbers_in_every_script(text, value):
    assert parse_number(text) == value


def test_the_bundled_rulebooks_state_no_count_the_data_contradicts():
    project = load_project(ROOT)
    for game in project.games:
        sources = [ROOT / "rules" / f"{game.id}.md"]
        sheet = ROOT / "rules" / f"{game.id}-sheet.md"
        sources += [sheet] if sheet.exists() else []
        findings = check_rulebook(project, game, sources)
        assert [f.line() for f in findings if f.status == FAIL] == []
