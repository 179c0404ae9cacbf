"""Hostile project files: YAML scalars Python cannot read, numbers too long to hold, matrices and includes that
multiply, component ids that overwrite a game's own PDFs, template paths out of templates/, special files,
and names that `pnpgen init` must quote. Each is a located message, never a traceback or a hang."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from attack import CARDS, RULES, assert_refused, build, make_project, run
from pnpgen.project.validate import load_project

SCALARS = [
    ("date-that-does-not-exist", "{name: 剣, day: 2024-02-30}",
     "cards.yaml:8:28: '2024-02-30' is not a valid date; expected a date that exists, such as 2024-02-29"),
    ("month-13", "{name: 剣, day: 2024-13-01}",
     "cards.yaml:8:28: '2024-13-01' is not a valid date; expected a date that exists, such as 2024-02-29"),
    ("int-tag-on-text", "{name: !!int abc}",
     "cards.yaml:8:20: 'abc' is not a valid whole number; expected a whole number such as 12"),
    ("float-tag-on-text", "{name: !!float abc}",
     "cards.yaml:8:20: 'abc' is not a valid number; expected a number such as 1.5"),
    ("timestamp-tag-on-text", "{name: !!timestamp abc}",
     "cards.yaml:8:20: 'abc' is not a valid date; expected a date that exists, such as 2024-02-29"),
    ("bool-tag-on-text", "{name: !!bool abc}",
     "cards.yaml:8:20: 'abc' is not a valid true or false; expected true or false"),
    ("5000-digit-number", "{name: 剣, n: " + "9" * 5000 + "}",
     "cards.yaml:8:26: a number of 5,000 digits; expected at most 30 digits"),
    ("5000-digit-copies", "{name: 剣, copies: -" + "9" * 5000 + "}",
     "cards.yaml:8:31: a number of 5,001 digits; expected at most 30 digits"),
]


@pytest.mark.parametrize("card, expected", [c[1:] for c in SCALARS], ids=[c[0] for c in SCALARS])
def test_yaml_scalars_python_cannot_read_are_located(tmp_path: Path, card: str, expected: str):
    result, out = build(make_project(tmp_path, cards=CARDS.replace("{name: 剣}", card)))
    assert_refused(result, out, expected)


def test_a_matrix_of_three_large_axes_is_refused_before_it_is_made(tmp_path: Path):
    axis = "{from: 1, to: 1000}"
    cards = CARDS.replace("        cards:\n          - {name: 剣}\n", f"        matrix: {{a: {axis}, b: {axis}, c: {axis}}}\n")
    result, out = build(make_project(tmp_path, cards=cards))
    assert_refused(result, out, "cards.yaml:7:17: the matrix makes 1,000,000,000 cards; expected at most 100,000")


def test_include_fan_out_reads_each_file_once(tmp_path: Path):
    fan = "include: [" + ", ".join(["b.yaml"] * 1000) + "]\n"
    root = make_project(tmp_path, cards="include: [a.yaml, a.yaml]\n", files={"a.yaml": fan, "b.yaml": CARDS})
    result, out = build(root)
    assert_refused(result, out, "a.yaml:1:19: 'b.yaml' is already included; expected each file included once")
    assert result.stderr.splitlines()[-1] == "cards.yaml:1:19: 'a.yaml' is already included; expected each file included once"


@pytest.mark.parametrize("component_id, what", [("g-print-and-play", "the game's print-and-play PDF"),
                                                ("rulebook", "the rulebook"), ("rules-sheet", "the rules sheet")])
def test_a_component_id_that_names_a_game_file_is_refused(tmp_path: Path, component_id: str, what: str):
    result, out = build(make_project(tmp_path, cards=CARDS.replace("id: deck", f"id: {component_id}")))
    assert_refused(result, out, f"cards.yaml:5:9: component id '{component_id}' is the name of {what} "
                                f"(g/{component_id}.pdf); expected another id")


@pytest.mark.parametrize("template", ["../cards.yaml", "../games/g.yaml"])
def test_a_template_path_out_of_templates_is_refused(tmp_path: Path, template: str):
    root = make_project(tmp_path, cards=CARDS.replace("front.svg.j2", template), files={"games/g.yaml": "x: 1\n"})
    result, out = build(root)
    assert_refused(result, out, f"cards.yaml:6:16: '{template}' is not under templates/; "
                                "expected a template such as front.svg.j2")


SPECIAL = [
    ("template", CARDS, "templates/front.svg.j2",
     "cards.yaml:6:16: 'front.svg.j2' is a named pipe (FIFO), not a file; expected a template"),
    ("include", "include: [games/g.yaml]\n", "games/g.yaml",
     "cards.yaml:1:11: 'games/g.yaml' is a named pipe (FIFO), not a file; expected a YAML file"),
    ("rulebook", RULES, "rules/r.md",
     "cards.yaml:4:15: 'rules/r.md' is a named pipe (FIFO), not a file; expected a Markdown file"),
]


@pytest.mark.parametrize("cards, fifo, expected", [c[1:] for c in SPECIAL], ids=[c[0] for c in SPECIAL])
def test_special_files_named_by_the_project_are_refused(tmp_path: Path, cards: str, fifo: str, expected: str):
    root = make_project(tmp_path, cards=cards)
    (root / fifo).unlink(missing_ok=True)
    (root / fifo).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(root / fifo)
    result, out = build(root)
    assert_refused(result, out, expected)


NAMES = ['A "quoted": game', "line one\nline two: {{id}} # not a comment", "\x1b[2J\x1b[31mred", "- [x] & *y !z",
         "スリータイムズ・アンドレス", "\\back\\slash'", "tab\there", "  spaced  ", "{{name}}", "\u2028\u2029\x85"]


@pytest.mark.parametrize("name", NAMES)
def test_init_quotes_any_name(tmp_path: Path, name: str):
    result, _ = run("init", tmp_path / "game", "--name", name)
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((tmp_path / "game" / "cards.yaml").read_text(encoding="utf-8"))
    assert data["project"]["name"] == name and data["games"][0]["title"] == name
    assert load_project(tmp_path / "game").games[0].title == name
    assert (tmp_path / "game" / "README.md").read_text(encoding="utf-8").count("\n") == \
        (Path(__file__).parents[2] / "pnpgen" / "project" / "scaffold" / "README.md").read_text(encoding="utf-8").count("\n")


def test_an_expression_nested_thousands_deep_is_refused(tmp_path: Path):
    cards = CARDS + "    expectations:\n      - total: deck\n        where: \"" + "(" * 3000 + "1" + ")" * 3000 + "\"\n" \
        "        equals: 1\n"
    result, out = build(make_project(tmp_path, cards=cards))
    assert_refused(result, out, "cards.yaml:11:16: 'where' is not a valid expression (nested too deeply to read; "
                                "expected an expression of ordinary depth); expected e.g. card.number == 1")


def test_a_path_too_long_for_the_system_is_refused(tmp_path: Path):
    result, out = build(make_project(tmp_path, cards=CARDS.replace("front.svg.j2", "a" * 5000 + ".j2")))
    assert_refused(result, out, "cards.yaml:6:16: '" + "a" * 39 + "…' cannot be used as a path (File name too long); "
                                "expected a template path relative to the project")


@pytest.mark.parametrize("name, expected", [
    ("cards.yaml", "cards.yaml: is 30 MB; expected a YAML file of at most 20 MB"),
    ("templates/front.svg.j2", "cards.yaml:8:13: deck card (name=剣): front.svg.j2: refused by the sandbox (template "
                               "'front.svg.j2' is 30 MB; expected a template of at most 20 MB)"),
])
def test_files_far_larger_than_any_real_one_are_refused_unread(tmp_path: Path, name: str, expected: str):
    root = make_project(tmp_path)
    with open(root / name, "r+b") as handle:
        handle.seek(0, os.SEEK_END)
        handle.write(b"\n")
        handle.truncate(30_000_000)  # sparse: nothing that size is written to the disk
    result, out = build(root)
    assert_refused(result, out, expected)
