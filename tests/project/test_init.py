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


def test_init_from_a_sheet_makes_a_component_per_tab_that_builds(tmp_path):
    from sheet_writers import write_csv, write_xlsx

    sheet = write_xlsx(tmp_path / "my deck.xlsx", {
        "闘牌": [["number", "name", "copies", "#メモ"], [1, "一の札", 3, "x"], [2, "二の札", None, None]],
        "Heroes": [[None], [None], ["hero", "power"], ["烏天狗", 5], ["河童", None]],  # the header on row 3
        "empty": [],
    })
    runner = CliRunner()
    created = runner.invoke(main, ["init", str(tmp_path / "game"), "--from-sheet", str(sheet)])
    assert created.exit_code == 0, created.output
    project = tmp_path / "game"
    assert (project / "data" / "my deck.xlsx").read_bytes() == sheet.read_bytes()
    loaded = pnpgen.load_project(project)
    game = loaded.games[0]
    assert (game.id, game.title) == ("my-deck", "my deck")
    assert [(c.id, c.name, sum(card.copies for card in c.cards)) for c in game.components] == [
        ("sheet-1", "闘牌", 4), ("heroes", "Heroes", 2)]
    assert str(game.components[1].cards[0].location) == "data/my deck.xlsx:Heroes!A4"
    built = runner.invoke(main, ["build", str(project), "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    text = PdfReader(tmp_path / "out" / "my-deck" / "heroes.pdf").pages[0].extract_text()
    assert all(word in text for word in ("hero", "power", "烏天狗", "河童", "5"))
    battle = PdfReader(tmp_path / "out" / "my-deck" / "sheet-1.pdf").pages[0].extract_text()
    assert "一の札" in battle and "メモ" not in battle

    from_csv = runner.invoke(main, ["init", str(tmp_path / "csv"), "--from-sheet",
                                    str(write_csv(tmp_path / "cards.csv", [["name", "cost"], ["剣", 2]], "cp932"))])
    assert from_csv.exit_code == 0, from_csv.output
    assert "cards: {from: \"data/cards.csv\"}" in (tmp_path / "csv" / "cards.yaml").read_text(encoding="utf-8")
    assert runner.invoke(main, ["build", str(tmp_path / "csv"), "-o", str(tmp_path / "out2")]).exit_code == 0


def test_init_from_a_sheet_refuses_what_it_cannot_start_from(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["init", str(tmp_path / "game"), "--from-sheet", str(tmp_path / "nope.xlsx")])
    assert missing.exit_code == 1 and "nope.xlsx: not found; expected a spreadsheet (.csv" in missing.output
    (tmp_path / "blank.csv").write_text("\n\n", encoding="utf-8")
    blank = runner.invoke(main, ["init", str(tmp_path / "game"), "--from-sheet", str(tmp_path / "blank.csv")])
    assert blank.exit_code == 1 and "no tab has a header row with cards below it" in blank.output
    assert not (tmp_path / "game").exists()
