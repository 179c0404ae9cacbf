"""pnpgen init makes a project that builds and checks unchanged; pnpgen list shows what a project holds."""
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

import pnpgen
from pnpgen.cli import main
from pnpgen.project.init import game_id

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_project_builds_and_checks_as_it_is(tmp_path):
    runner = CliRunner()
    created = runner.invoke(main, ["init", str(tmp_path / "dragons"), "--name", "Dragon Duel"])
    assert created.exit_code == 0, created.output
    project = tmp_path / "dragons"
    assert {p.name for p in project.iterdir()} >= {"cards.yaml", "templates", "README.md", "images", "fonts"}
    checked = runner.invoke(main, ["check", str(project)])
    assert checked.exit_code == 0 and "✓ cards.yaml" in checked.output and "0 failed" in checked.output
    built = runner.invoke(main, ["build", str(project), "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    reader = PdfReader(tmp_path / "out" / "dragon-duel" / "deck.pdf")
    assert len(reader.pages) == 2  # 8 cards on one front page, and its back page
    assert "王冠" in reader.pages[0].extract_text()
    expectation = pnpgen.load_project(project).games[0].expectations[0]
    assert (expectation.kind, expectation.equals) == ("total", 8)


def test_init_refuses_a_folder_that_has_files(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["init", str(tmp_path / "taken")])
    assert result.exit_code == 1 and "already exists and is not empty" in result.stderr
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"


def test_game_ids_from_names():
    assert game_id("Dragon Duel!") == "dragon-duel"
    assert game_id("御伽大戦").startswith("game-")  # kanji only: a distinct id (readable ones: test_rough_edges)


def test_list_shows_games_components_counts_and_sizes():
    result = CliRunner().invoke(main, ["list", str(ROOT)])
    assert result.exit_code == 0
    assert "otogi-taisen: 御伽大戦 (3–4 players)" in result.output
    assert any(line.split()[:3] == ["markers", "chip", "32"] and "16 × 16 mm" in line for line in result.output.splitlines())
