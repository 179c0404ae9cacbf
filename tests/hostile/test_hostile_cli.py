"""The terminal is not the project's: control characters, escape sequences and bidi overrides from project data
are shown escaped by every command (list, check and its JSON, build, errors), so a project cannot clear the
screen, recolour it or print a fake summary."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from attack import CARDS, make_project, run

CARDS_WITH_CONTROLS = CARDS.replace("{name: 剣}", '{name: "\\e[2J\\x9b31m剣\\nwrote 99 PDFs"}').replace(
    "title: G", 'title: "G\\e[2J\\u202e"') + """    expectations:
      - total: deck
        equals: 2
        source: {document: d.txt, quote: "カード\\e[31m２枚\\x9b"}
"""
RAW = ("\x1b", "\x9b", "\u202e", "\r")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path, "{{ text(card.nmae, 2, 2, 50, 20) }}", cards=CARDS_WITH_CONTROLS,
                        files={"documents/d.txt": "カード\x1b[31m２枚\x9b です"})


def assert_escaped(output: str) -> None:
    assert not any(char in output for char in RAW), repr(output)


def test_list_shows_titles_escaped(project: Path):
    result, _ = run("list", project)
    assert result.exit_code == 0
    assert_escaped(result.output)
    assert result.output.splitlines()[0] == "g: G\\x1b[2J\\u202e (players not given)"


def test_check_shows_quotes_escaped(project: Path):
    result, _ = run("check", project)
    assert result.exit_code == 1
    assert_escaped(result.output)
    assert "[d.txt: 「カード\\x1b[31m２枚\\x9b」]" in result.output.splitlines()[0]
    # the total fails; its quote states the figure the data claims; the card's `name` is read by no template
    assert result.output.splitlines()[-1] == "1 passed, 1 failed, 1 warning"


def test_check_json_escapes_and_still_reads_back(project: Path):
    result, _ = run("check", project, "--json")
    assert_escaped(result.output)
    quoted = [f for f in json.loads(result.output)["findings"] if f["source"]]
    assert quoted and all(f["source"]["quote"] == "カード\x1b[31m２枚\x9b" for f in quoted)


def test_errors_show_card_data_escaped_on_one_line(project: Path, tmp_path: Path):
    result, _ = run("build", project, "-o", tmp_path / "out", "--no-check")
    assert result.exit_code == 1
    assert_escaped(result.output)
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("cards.yaml:8:13: deck card (name=\\x1b[2J\\x9b31m剣 w…): front.svg.j2 line 1: "
                                    "the card has no field 'nmae'; did you mean 'name'?")


def test_build_notes_and_summary_show_escaped(tmp_path: Path):
    cards = CARDS_WITH_CONTROLS.replace("        front: front.svg.j2\n", "        bleed: 9mm\n        front: front.svg.j2\n")
    root = make_project(tmp_path, cards=cards.split("    expectations:")[0])
    result, _ = run("build", root, "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert_escaped(result.output)
    assert result.output.splitlines()[-1].startswith("wrote 2 PDFs")
