"""What a new designer hit: dropping an inherited matrix, an empty matrix, Japanese names for init, and
output folders left behind by removed components or games."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.cli import main
from pnpgen.project.init import game_id

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAME = """project:
  name: edges
games:
  - id: edges
    title: 端
    components:
      - id: suits
        front: front.svg.j2
        matrix:
          suit: [a, b]
          number: {from: 1, to: 3}
%s
"""


def project_with(tmp_path: Path, components: str) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal" / "templates", root / "templates")
    (root / "cards.yaml").write_text(GAME % components, encoding="utf-8")
    return root


def test_extends_drops_an_inherited_matrix_with_null(tmp_path):
    root = project_with(tmp_path, """      - id: jokers
        extends: suits
        matrix: null
        cards:
          - {name: ジョーカー, number: 0, copies: 2}""")
    game = pnpgen.load_project(root).games[0]
    suits, jokers = game.components
    assert len(suits.cards) == 6
    assert [(c.fields.get("name"), c.copies) for c in jokers.cards] == [("ジョーカー", 2)]
    assert "suit" not in jokers.cards[0].fields and jokers.front == suits.front


def test_without_null_the_matrix_is_inherited_and_multiplies_the_cards(tmp_path):
    root = project_with(tmp_path, """      - id: jokers
        extends: suits
        cards:
          - {name: ジョーカー}""")
    assert len(pnpgen.load_project(root).games[0].components[1].cards) == 6


def test_an_empty_matrix_gives_one_clear_message(tmp_path):
    root = project_with(tmp_path, """      - id: empty
        front: front.svg.j2
        matrix: {}""")
    with pytest.raises(PnpError) as caught:
        pnpgen.load_project(root)
    messages = [str(p) for p in caught.value.problems]
    assert len(messages) == 1
    assert messages[0].startswith("cards.yaml:14:17: matrix: {} has no axes, so it makes no cards; expected a mapping")
    assert "write matrix: null" in messages[0]


@pytest.mark.parametrize("name, expected", [("ドラゴン・クエスト", "doragon-kuesuto"), ("きょうのしゅくだい", "kyounoshukudai"),
                                            ("Café au lait", "cafe-au-lait"), ("ファイト！", "faito"),
                                            ("ＡＢＣゲーム", "abc-geemu"), ("ゲームのルール", "geemu-no-ruuru")])
def test_japanese_names_give_readable_ids(name, expected):
    assert game_id(name) == expected


@pytest.mark.parametrize("name, words", [("サッカー大会", "sakkaa-"), ("私のゲーム", "geemu-"), ("月下の茶会", "game-")])
def test_names_with_kanji_keep_their_kana_words_but_not_the_particles_and_stay_distinct(name, words):
    made = game_id(name)
    assert made.startswith(words) and re.fullmatch(re.escape(words) + "[0-9a-f]{6}", made), made


@pytest.mark.parametrize("name", ["月下の茶会", "No", "yes", "null", "on", "123"])
def test_init_writes_an_id_yaml_reads_as_the_text_it_is(tmp_path, name):
    runner = CliRunner()
    created = runner.invoke(main, ["init", str(tmp_path / "g"), "--name", name])
    assert created.exit_code == 0, created.output
    game = pnpgen.load_project(tmp_path / "g").games[0]
    assert isinstance(game.id, str) and game.id == game_id(name)


def test_the_init_hint_quotes_a_folder_with_spaces(tmp_path):
    result = CliRunner().invoke(main, ["init", str(tmp_path / "my game")])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(f"Next: cd '{tmp_path / 'my game'}' && pnpgen build")
    assert "(4 files)" in result.output


def test_names_without_kana_or_latin_letters_still_get_distinct_valid_ids():
    ids = {game_id(n) for n in ("御伽大戦", "三國志", "三國志 2", "東京")}
    assert len(ids) == 4 and all(i.startswith("game-") and i.isascii() for i in ids)


def test_init_with_a_japanese_name_builds(tmp_path):
    runner = CliRunner()
    created = runner.invoke(main, ["init", str(tmp_path / "g"), "--name", "ドラゴン・クエスト"])
    assert created.exit_code == 0, created.output
    built = runner.invoke(main, ["build", str(tmp_path / "g"), "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    assert (tmp_path / "out" / "doragon-kuesuto" / "deck.pdf").is_file()


def test_outputs_of_removed_components_and_games_are_reported_then_cleaned(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", root)
    out = tmp_path / "out"
    yaml = (root / "cards.yaml").read_text(encoding="utf-8")
    (root / "cards.yaml").write_text(yaml.replace("      - id: deck\n", "      - id: old-deck\n")
                                     .replace("total: deck", "total: old-deck").replace("id: tiny", "id: gone"),
                                     encoding="utf-8")
    pnpgen.build(root, Options(out_dir=out, check=False))
    (root / "cards.yaml").write_text(yaml, encoding="utf-8")
    (out / "gone" / "notes.txt").write_text("mine")  # not written by a build: never touched
    report = pnpgen.build(root, Options(out_dir=out, check=False))
    left = sorted(n for n in report.notes if "left from an earlier build" in n)
    assert left == [f"gone/{name} is left from an earlier build: this project no longer makes it (its component or "
                    "game is gone); `pnpgen build --clean` removes it" for name in ("gone-print-and-play.pdf", "old-deck.pdf")]
    assert (out / "gone" / "old-deck.pdf").is_file()
    cleaned = CliRunner().invoke(main, ["build", str(root), "-o", str(out), "--clean", "--no-check"])
    assert cleaned.exit_code == 0, cleaned.output
    assert "removed gone/old-deck.pdf" in cleaned.output
    assert sorted(p.name for p in (out / "gone").iterdir()) == ["notes.txt"]
    assert (out / "tiny" / "deck.pdf").is_file()
    again = pnpgen.build(root, Options(out_dir=out, check=False))
    assert not any("earlier build" in n for n in again.notes)
