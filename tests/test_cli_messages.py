"""What the command line says to a newcomer: counts read as English, the cache is mentioned only when it gave
something, options that would do nothing say so, and every paper `layout: paper` takes is offered."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpgen.cli import main

REPO = Path(__file__).resolve().parents[1]


def start(tmp_path: Path) -> Path:
    result = CliRunner().invoke(main, ["init", str(tmp_path / "game")])
    assert result.exit_code == 0, result.output
    return tmp_path / "game"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_first_build_does_not_claim_the_cache_and_a_second_names_it(tmp_path):
    project = start(tmp_path)
    cache = ["-o", str(tmp_path / "out")]
    first = run("build", str(project), *cache)
    assert first.exit_code == 0, first.output
    assert "from the cache" not in first.output
    assert "wrote 2 PDFs (" in first.output and "faces rendered" in first.output
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 剣", "name: 盾", 1), encoding="utf-8")
    second = run("build", str(project), *cache)
    assert second.exit_code == 0, second.output
    assert "1 converted, the rest from the cache" in second.output


def test_counts_of_one_are_singular(tmp_path):
    project = start(tmp_path)
    result = run("build", str(project), "-o", str(tmp_path / "out"), "--game", "game")
    assert result.exit_code == 0, result.output
    listed = run("list", str(project))
    assert " 1 piece " in listed.output or " pieces " in listed.output
    assert "1 pieces" not in listed.output + result.output


def test_only_rules_without_a_rulebook_is_an_error_not_an_empty_success(tmp_path):
    project = start(tmp_path)
    result = run("build", str(project), "--only", "rules", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "--only rules: game has no rulebook or rules sheet; expected `rulebook: rules/<name>.md`" in result.output
    assert not (tmp_path / "out").exists()


def test_watch_outside_a_project_stops_at_once(tmp_path):
    result = run("watch", str(tmp_path / "nothing"))
    assert result.exit_code == 1
    assert result.output.strip().endswith("no project here; expected a folder holding cards.yaml or a path to a "
                                          "YAML file")
    assert "watching" not in result.output


def test_a_template_that_is_not_utf8_is_named_with_its_line_and_column(tmp_path):
    project = start(tmp_path)
    front = project / "templates" / "front.svg.j2"
    lines = front.read_bytes().split(b"\n")
    lines[2] = b"<!-- caf\xe9 -->" + lines[2]
    front.write_bytes(b"\n".join(lines))
    result = run("build", str(project), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "templates/front.svg.j2:3:9 is not UTF-8 text; expected templates saved as UTF-8" in result.output


def test_invalid_svg_is_said_once(tmp_path):
    project = start(tmp_path)
    front = project / "templates" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8") + '<g fill="red">\n', encoding="utf-8")
    result = run("build", str(project), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "produced invalid SVG" in result.output and "produced produced" not in result.output
    assert result.output.count("produced") == 1, result.output


@pytest.mark.parametrize("paper", ["a5", "tabloid", "A4", "Letter"])
def test_every_paper_of_layout_is_offered_in_any_case(tmp_path, paper):
    project = start(tmp_path)
    result = run("build", str(project), "--paper", paper, "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output


def test_list_shows_a_box_by_its_inside_not_its_decks_card_size():
    result = run("list", str(REPO))
    assert result.exit_code == 0, result.output
    box = next(line for line in result.output.splitlines() if line.strip().startswith("battle-cards-box"))
    assert "1 piece (1 distinct)" in box
    assert "64 × 89 × 14.8 mm inside, for battle-cards" in box


def test_a_final_build_says_how_many_numbers_the_data_still_assumes(tmp_path):
    result = run("build", str(REPO), "--only", "rules", "--final", "--game", "otogi-taisen", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert ("note: otogi-taisen: --final prints the rulebook without its 「仮」 marks, but the data still assumes 3 "
            "numbers the documents do not state (`pnpgen check` lists them)") in result.output
