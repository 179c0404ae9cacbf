"""Break Latin text the English way: hyphens only where a line would be too empty (never two in a row, never in
a word with digits, an acronym or a word with a hyphen of its own), breaks after dashes and slashes, quotes and
apostrophes with their word; Japanese editions break as they always have."""
from __future__ import annotations

import pytest

from pnpgen.faces import linebreak
from pnpgen.faces.hyphenate import dash_breaks, hyphenator_for
from pnpgen.faces.linebreak import NO_LINE_START, break_lines

EN = hyphenator_for("en")


def one(text: str) -> float:
    return float(len(text))  # every character, the hyphen too, one unit wide


def english(text: str, width: float) -> list[str]:
    return break_lines(text, width, one, hyphenator=EN)


def test_a_word_is_hyphenated_only_where_the_line_would_be_less_than_four_fifths_full_without_it():
    text = "Each player draws cards from the remaining deck until their opponent discards."
    assert english(text, 20) == ["Each player draws", "cards from the re-", "maining deck until", "their opponent dis-",
                                 "cards."]
    assert break_lines(text, 20, one) == ["Each player draws", "cards from the", "remaining deck until",
                                          "their opponent", "discards."]  # no language: no hyphen
    assert english("Each player draws cards", 20) == ["Each player draws", "cards"]  # 17 of 20 full: kept whole


def test_the_line_after_a_hyphenated_one_takes_no_hyphen_when_it_can_do_without():
    assert english("ing possible", 10) == ["ing possi-", "ble"]
    assert english("to remaining possible", 10) == ["to remain-", "ing", "possible"]  # not "ing possi-" again


def test_a_word_wider_than_its_line_is_hyphenated_at_its_points_before_it_is_cut_anywhere():
    assert EN.points("extraordinarily") == (2, 7, 9, 12)
    assert english("extraordinarily", 8) == ["extraor-", "dinarily"]
    assert english("Say \u201ccongratulations\u201d now", 12) == ["Say \u201ccon-", "gratula-", "tions\u201d now"]


@pytest.mark.parametrize("word", ["10-card", "3rd", "2nd", "x2", "NASA", "PLAYERS", "face-down", "McKay",
                                  "https://example.org", "rounded", "Wind"])
def test_no_hyphen_goes_into_a_word_with_digits_an_acronym_a_hyphenated_word_a_url_or_too_near_its_ends(word):
    assert EN.points(word) == ()


def test_words_with_digits_stay_whole_and_keep_their_own_dash():
    assert english("Take a 10-card hand", 9) == ["Take a", "10-card", "hand"]
    assert english("the 3rd round", 5) == ["the", "3rd", "round"]
    assert dash_breaks("a 10-card hand, 1/2 of it, 3\u20134 players") == frozenset()


def test_a_dash_or_slash_inside_a_word_is_a_break_point_with_no_hyphen_added():
    assert english("Place it face-down", 14) == ["Place it face-", "down"]
    assert english("Pick draw/discard", 12) == ["Pick draw/", "discard"]
    assert english("read https://example.org/rules now", 22) == ["read", "https://example.org/", "rules now"]
    assert dash_breaks("well\u2014known https://a.b") == frozenset({5})  # after the dash, never inside "//"


def test_quotes_and_apostrophes_stay_with_their_word_and_no_line_starts_with_a_closing_mark():
    assert english("he said \u201cyes\u201d to \u201ceverything\u201d now", 10) == [
        "he said", "\u201cyes\u201d to", "\u201cevery-", "thing\u201d now"]
    assert english("the opponent\u2019s turn", 9) == ["the oppo-", "nent\u2019s", "turn"]
    quoted = "\u201cDraw,\u201d she said (twice), \u2018then\u2019 discard\u2026 it\u2019s over!"
    for width in range(4, 30):
        for line in english(quoted, width):
            assert line[:1] not in NO_LINE_START, (width, line)


def test_latin_text_with_an_ellipsis_asks_no_japanese_analyser(monkeypatch):
    def refuse(*_):
        raise AssertionError("BudouX or SudachiPy asked about English text")

    monkeypatch.setattr(linebreak, "_parser", refuse)
    monkeypatch.setattr(linebreak, "word_starts", refuse)
    assert english("Wait\u2026 everybody then", 9) == ["Wait\u2026 ev-", "erybody", "then"]


def test_japanese_editions_and_projects_of_one_language_break_as_before():
    assert hyphenator_for("ja") is None and hyphenator_for(None) is None
    assert hyphenator_for("en").dictionary is not None and hyphenator_for("vi").points("everything") == ()
    assert break_lines("山札の１０\u00a0cmを引く", 5, one) == ["山札の", "１０\u00a0cm", "を引く"]
