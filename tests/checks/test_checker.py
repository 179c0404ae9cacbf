"""Mutate a copy of the bundled data and assert the exact finding for every kind of check."""
import json
from pathlib import Path

from click.testing import CliRunner

import pnpgen
from pnpgen.cli import main

ROOT = Path(__file__).resolve().parents[2]
TTU = "games/three-times-undress.yaml"
OTOGI = "games/otogi-taisen.yaml"
LWS = "games/last-wan-standing-quickdraw.yaml"


def edit(project: Path, file: str, old: str, new: str) -> None:
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def failed(project: Path, game: str | None = None) -> list[pnpgen.Finding]:
    return [f for f in pnpgen.check(project, game) if f.status == "fail"]


def test_bundled_data_passes():
    findings = pnpgen.check(ROOT)
    assert not [f for f in findings if f.status == "fail"]
    assert sum(f.status == "pass" for f in findings) >= 30


def test_bundled_data_reports_the_three_player_contradiction_as_a_warning():
    findings = pnpgen.check(ROOT, "three-times-undress")
    arithmetic = [f for f in findings if f.check == "setup battle-cards at 3 players: the document's own arithmetic"]
    assert len(arithmetic) == 1 and arithmetic[0].status == "warn"
    assert (arithmetic[0].expected, arithmetic[0].found) == (30, 33)
    short = [f for f in findings if f.check == "setup battle-cards at 3 players: pieces needed ≤ available"][0]
    assert (short.status, short.found, short.expected) == ("warn", 39, "≤ 36")
    assert "short by 3" in short.detail


def test_bundled_data_lists_gaps_and_placeholders_as_warnings():
    findings = pnpgen.check(ROOT, "otogi-taisen")
    gaps = [f for f in findings if f.check == "gap"]
    assert any("◇エリアマップ（　枚）" == f.source.quote for f in gaps)
    assert any(f.check == "placeholders in race-cards" and f.status == "warn" for f in findings)


def test_removing_a_card_breaks_total_and_distribution(project):
    edit(project, TTU, "- {number: 7, copies: 5}", "- {number: 7, copies: 4}")
    found = {f.check: f for f in failed(project, "three-times-undress")}
    assert found["total battle-cards"].expected == 46 and found["total battle-cards"].found == 45
    distribution = found["distribution battle-cards by number"]
    assert distribution.detail.startswith("number 7: expected 5, found 4 (games/three-times-undress.yaml:")
    assert distribution.location.file == TTU


def test_adding_a_copy_breaks_the_total(project):
    edit(project, TTU, "- {number: 1, copies: 10}", "- {number: 1, copies: 11}")
    checks = [f.check for f in failed(project, "three-times-undress")]
    assert "total battle-cards" in checks and "distribution battle-cards by number" in checks


def test_changing_a_number_moves_the_ron_distribution(project):
    edit(project, TTU, "          - number: 6\n            ron: true", "          - number: 7\n            ron: true")
    ron = [f for f in failed(project, "three-times-undress") if f.check.endswith("where card.ron")][0]
    assert "number 6: expected 1, found 0" in ron.detail and "number 7: expected 0, found 1" in ron.detail


def test_dropping_a_marker_breaks_the_per_owner_set(project):
    edit(project, OTOGI, "copy: {from: 1, to: 8}", "copy: {from: 1, to: 7}")
    found = {f.check: f for f in failed(project, "otogi-taisen")}
    assert found["total markers"].found == 28
    per = found["per markers by race (each)"]
    assert per.expected == 8 and per.found == "4 owner(s) differ"
    assert "烏天狗: 7" in per.detail


def test_a_missing_suit_breaks_owners(project):
    edit(project, OTOGI, "area: [霊峰（仮）, 水郷（仮）, 古森（仮）]", "area: [霊峰（仮）, 水郷（仮）]")
    owners = [f for f in failed(project, "otogi-taisen") if f.check == "per area-cards by area (owners)"][0]
    assert (owners.expected, owners.found) == (3, 2)


def test_breaking_a_setup_removal(project):
    edit(project, OTOGI, "remove: {value: card.number >= 10,", "remove: {value: card.number >= 11,")
    removed = [f for f in failed(project, "otogi-taisen")
               if f.check == "setup area-cards at 3 players: pieces removed as the document states"][0]
    assert (removed.expected, removed.found) == ("10、11", "number 11")


def test_needed_more_than_available(project):
    edit(project, OTOGI, "        players: [4]\n        deal: 8", "        players: [4]\n        deal: 9")
    short = [f for f in failed(project, "otogi-taisen") if f.check == "setup area-cards at 4 players: pieces needed ≤ available"][0]
    assert short.found == 36 and "short by 3" in short.detail


def test_per_player_count_chip_use(project):
    edit(project, LWS, "bullet: [1, 2, 3, 4, 5, 6, down]", "bullet: [1, 2, 3, 4, 5, down]")
    checks = {f.check for f in failed(project, "last-wan-standing-quickdraw")}
    assert "setup bullet-chips at 7 players: pieces used per player" in checks
    assert "setup bullet-chips at 6 players: pieces used per player" not in checks
    assert "per bullet-chips by player (each)" in checks


def test_a_known_contradiction_that_is_fixed_says_so(project):
    edit(project, TTU, "        turns: 7\n        stated_needed: 30", "        turns: 5\n        stated_needed: 30")
    findings = pnpgen.check(project, "three-times-undress")
    fixed = [f for f in findings if f.status == "warn" and "now holds" in f.detail]
    assert [f.figure for f in fixed] == ["needed"] and "remove it from 'known:'" in fixed[0].detail


def test_a_misquoted_document_fails(project):
    edit(project, OTOGI, 'quote: "◇マーカー（３２個）"', 'quote: "◇マーカー（３３個）"')
    quote = [f for f in failed(project, "otogi-taisen") if f.check == "quote not in the document"][0]
    assert quote.expected == "◇マーカー（３３個）" and quote.location.file == OTOGI


def test_cli_exit_codes_and_lines(project):
    ok = CliRunner().invoke(main, ["check", str(project)])
    assert ok.exit_code == 0 and "0 failed" in ok.output
    edit(project, OTOGI, "equals: 32", "equals: 31")
    bad = CliRunner().invoke(main, ["check", str(project), "--game", "otogi-taisen"])
    assert bad.exit_code == 1
    assert "✗ games/otogi-taisen.yaml:" in bad.output and "total markers: expected 31, found 32" in bad.output


def test_build_refuses_on_a_failed_check_unless_told(project, tmp_path):
    edit(project, OTOGI, "equals: 32", "equals: 31")
    refused = CliRunner().invoke(main, ["build", str(project), "-o", str(tmp_path / "out"), "--game", "otogi-taisen"])
    assert refused.exit_code == 1 and "total markers: expected 31, found 32" in refused.stderr
    assert not (tmp_path / "out").exists()
    forced = CliRunner().invoke(main, ["build", str(project), "-o", str(tmp_path / "out"), "--game", "otogi-taisen", "--no-check"])
    assert forced.exit_code == 0, forced.output
    assert (tmp_path / "out" / "otogi-taisen" / "markers.pdf").exists()


def test_json_shape_is_stable():
    result = CliRunner().invoke(main, ["check", str(ROOT), "--json"])
    data = json.loads(result.output)
    assert set(data) == {"version", "summary", "findings"} and data["version"] == 1
    assert set(data["summary"]) == {"pass", "fail", "warn"}
    version_1 = {"status", "game", "check", "file", "line", "expected", "found", "detail", "source"}
    assert set(data["findings"][0]) == version_1 | {"col", "figure"}
    assert data["summary"]["pass"] == sum(f["status"] == "pass" for f in data["findings"])
