"""Figures with no worked example: an expression figure is evaluated at every player count the game supports and
every value its `ranges:` give; each value must be a whole number, rounded as the document's words say, and the
figure the quote states for a player count."""
import pytest

import pnpgen

from slips import edit, failed, line_of, located

LWS = "last-wan-standing-quickdraw"
LWS_YAML = "games/last-wan-standing-quickdraw.yaml"
LWS_DOC = "documents/000_dfe4e31ae651bf07.txt"
SURVIVAL = "value: players // survivors"


def test_dividing_without_rounding_is_not_a_whole_number_at_each_count(project):
    edit(project, LWS_YAML, SURVIVAL, "value: players / survivors")
    line = line_of(project, LWS_YAML, "value: players / survivors")
    assert located(project, LWS) == [(f"figure survival_bonus at {n} players: whole numbers", "a whole number", found,
                                      LWS_YAML, line) for n, found in ((4, "1.33"), (5, "2.5"), (6, "1.5"), (7, "3.5"))]
    four = failed(project, LWS)[0]
    assert four.detail == ("'players / survivors' gives 1.33 at survivors=3: a count is a whole number; the document "
                           "says 切り捨て: write it with // or |int")


@pytest.mark.parametrize("value,wrong", [
    ("(players / survivors)|round", [(5, "1", "2.0"), (6, "1", "2.0"), (7, "3", "4.0")]),  # to the nearest
    ("(players / survivors)|round(0, 'ceil')|int", [(4, "1", "2"), (5, "2", "3"), (6, "1", "2"), (7, "3", "4")]),
    ("-(-players // survivors)", [(4, "1", "2"), (5, "2", "3"), (6, "1", "2"), (7, "3", "4")]),  # // that rounds up
])
def test_rounding_another_way_than_the_document_says_fails_at_each_count(project, value, wrong):
    edit(project, LWS_YAML, SURVIVAL, f'value: "{value}"')
    line = line_of(project, LWS_YAML, f'value: "{value}"')
    assert located(project, LWS) == [(f"figure survival_bonus at {n} players: rounding as the document states", expected,
                                      found, LWS_YAML, line) for n, expected, found in wrong]


def test_the_rounding_names_the_input_values_and_the_exact_value(project):
    edit(project, LWS_YAML, SURVIVAL, 'value: "-(-players // survivors)"')
    four = failed(project, LWS)[0]
    assert four.detail == "at survivors=3 '-(-players // survivors)' gives 2, but 1.33 切り捨て is 1"


@pytest.mark.parametrize("value", [
    "(players - players % survivors) // survivors",
    "(players - players % survivors) / survivors",
    "(players / survivors)|int",
    "(players / survivors)|round(0, 'floor')|int",
    "((players + 0) // survivors)",
])
def test_a_rewording_with_the_same_values_passes(project, value):
    edit(project, LWS_YAML, SURVIVAL, f'value: "{value}"')
    findings = pnpgen.check(project, LWS)
    assert not [f.line() for f in findings if f.status == "fail"]
    passed = {f.check: f.found for f in findings if f.status == "pass" and f.check.startswith("figure survival_bonus")}
    assert passed == {"figure survival_bonus at 4–7 players: whole numbers": "1–7",
                      "figure survival_bonus: rounding as the document states": value}


def test_the_rounding_comes_from_the_rule_in_words_when_the_quote_leaves_it_out(project):
    edit(project, LWS_YAML, 'quote: "２ターン終わった時点で生存している子プレイヤーで、人数分の得点を均等に分配（端数切捨て）"',
         'quote: "２ターン終わった時点で生存している子プレイヤーで、人数分の得点を均等に分配"')
    edit(project, LWS_YAML, SURVIVAL, 'value: "(players / survivors)|round|int"')
    assert [(f.check, f.expected, f.found) for f in failed(project, LWS)] == [
        (f"figure survival_bonus at {n} players: rounding as the document states", e, f)
        for n, e, f in ((5, 1, 2), (6, 1, 2), (7, 3, 4))]


def test_a_document_that_rounds_up_holds_the_expression_to_it(project):
    for file in (LWS_DOC, "rules/last-wan-standing-quickdraw.md", "rules/last-wan-standing-quickdraw-sheet.md"):
        edit(project, file, "（端数切捨て）", "（端数切り上げ）")
    text = (project / LWS_YAML).read_text(encoding="utf-8").replace("分配（端数切捨て）", "分配（端数切り上げ）")
    (project / LWS_YAML).write_text(text.replace("survival_rounding: {kind: rounding, value: 切捨て",
                                                 "survival_rounding: {kind: rounding, value: 切り上げ"), encoding="utf-8")
    rounded_down = [(f.check, f.expected, f.found) for f in failed(project, LWS)]
    assert rounded_down == [(f"figure survival_bonus at {n} players: rounding as the document states", e, f)
                            for n, e, f in ((4, 2, 1), (5, 3, 2), (6, 2, 1), (7, 4, 3))]
    edit(project, LWS_YAML, SURVIVAL, 'value: "-(-players // survivors)"')
    assert not failed(project, LWS)


def test_a_count_of_one_input_is_checked_at_every_player_count(project):
    edit(project, LWS_YAML, "value: players - 1\n", "value: players / 2 + 1\n")
    line = line_of(project, LWS_YAML, "value: players / 2 + 1")
    assert located(project, LWS) == [
        ("figure bullet_numbers at 5 players: whole numbers", "a whole number", "3.5", LWS_YAML, line),
        ("figure bullet_numbers at 7 players: whole numbers", "a whole number", "4.5", LWS_YAML, line)]


def test_every_value_of_a_second_input_is_checked(project):
    edit(project, LWS_YAML, "value: players - bullet\n", "value: (players - bullet) // 2 * 2 + (players - bullet) % 2 / 2\n")
    found = [(f.check, f.found) for f in failed(project, LWS) if "whole numbers" in f.check]
    assert found == [(f"figure quickdraw_downs at {n} players: whole numbers", v)
                     for n, v in ((4, "2.5"), (5, "2.5"), (6, "4.5"), (7, "4.5"))]


def test_a_per_count_figure_of_the_document_holds_without_an_example(project):
    edit(project, LWS_YAML, "        examples: [{players: 4, value: 4}]\n", "")
    edit(project, LWS_YAML, "        value: players\n        inputs: [players]\n",
         "        value: players - 1\n        inputs: [players]\n")
    found = [(f.check, f.expected, f.found, f.detail) for f in failed(project, LWS) if f.check.startswith("figure parent")]
    assert found == [("figure parent_points at 4 players: as the document states", "4", 3,
                      "the quote states 4 at 4 players; 'players - 1' gives 3")]


def test_a_setup_count_that_is_not_whole_fails_naming_the_count(project):
    edit(project, LWS_YAML, "        equals: players\n", "        equals: players / 2 + 2\n")
    whole = [(f.check, f.found) for f in failed(project, LWS) if f.expected == "a whole number"]
    assert whole == [("setup bullet-chips at 5 players: pieces used", "4.5"), ("setup bullet-chips at 7 players: pieces used", "5.5")]


def test_an_input_without_a_range_is_checked_only_at_its_examples(project):
    edit(project, LWS_YAML, "        ranges: {bullet: {from: 1, to: players - 1}}   # the numbered bullet chips in use\n", "")
    warned = [f for f in pnpgen.check(project, LWS) if f.check == "figure quickdraw_downs: values at every player count"]
    assert [(f.status, f.detail) for f in warned] == [
        ("warn", "assumption: 'players - bullet' is checked only at its examples: no ranges: for bullet; add e.g. "
                 "ranges: {bullet: {from: 1, to: players - 1}}")]


def test_ranges_too_large_to_run_over_are_a_finding_not_a_hang(project):
    edit(project, LWS_YAML, "ranges: {survivors: {from: 1, to: players - 1}}", "ranges: {survivors: {from: 1, to: 99999999}}")
    found = [(f.check, f.detail) for f in failed(project, LWS)]
    assert found[0] == ("figure survival_bonus at 4 players: whole numbers",
                        "its ranges give more than 10,000 combinations; expected ranges of a game's size")
