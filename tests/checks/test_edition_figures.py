"""Mutation tests: every figure of every edition is held to the data. A figure changed in one edition's rulebook or
card text only fails at its line, in either direction; English rewordings of the same figure pass, and English
numbers that are no figure (the first player, one of, in one go) raise nothing."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import pnpgen

from slips import edit, line_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EN, JA = "rules/winds.en.md", "rules/winds.md"


@pytest.fixture()
def editions(tmp_path):
    """A copy of the two-edition project whose rulebooks and card text state its figures."""
    return shutil.copytree(FIXTURES / "edition-figures", tmp_path / "project")


def failed(root: Path, lang: str | None = "all") -> list[tuple[str, str, object, object]]:
    """(file:line:col, check, expected, found) of each failed finding of `pnpgen check --lang LANG`."""
    return [(f"{f.location.file}:{f.location.line}:{f.location.col}", f.check, f.expected, f.found)
            for f in pnpgen.check(root, lang=lang) if f.status == "fail"]


def test_both_editions_agree_with_the_data(editions):
    assert failed(editions) == []


def test_english_deal_that_differs_from_the_japanese_and_the_data_fails_at_its_line(editions):
    edit(editions, EN, "Deal 3 cards", "Deal 4 cards")
    assert failed(editions) == [(f"{EN}:6:6", "rulebook setup deal", 3, 4)]


def test_japanese_deal_wrong_and_english_right_fails_in_the_japanese_only(editions):
    edit(editions, JA, "各プレイヤーに３枚ずつ", "各プレイヤーに４枚ずつ")
    assert failed(editions) == [(f"{JA}:6:8", "rulebook setup deal", 3, 4)]


def test_plain_check_reads_the_original_only(editions):
    edit(editions, EN, "Deal 3 cards", "Deal 4 cards")
    assert failed(editions, lang=None) == []
    assert failed(editions, lang="ja") == []
    assert failed(editions, lang="en") == [(f"{EN}:6:6", "rulebook setup deal", 3, 4)]


def test_english_total_in_words_fails_at_its_column(editions):
    edit(editions, EN, "the 24 wind cards", "the twenty wind cards")
    assert failed(editions) == [(f"{EN}:5:13", "rulebook count winds", 24, 20)]


def test_english_rounds_fail_and_the_game_end_after_round_n_is_the_last_round(editions):
    edit(editions, EN, "The game ends after 3 rounds.", "The game ends after round 4.")
    assert failed(editions) == [(f"{EN}:14:27", "rulebook figure rounds", 3, 4)]


def test_three_times_for_twice_fails(editions):
    edit(editions, EN, "twice per turn", "3 times per turn")
    assert failed(editions) == [(f"{EN}:16:16", "rulebook figure redraws", 2, 3)]


def test_a_table_cell_of_one_edition_is_held_at_its_player_count(editions):
    edit(editions, EN, "| 3 cards | 3 cards |", "| 3 cards | 4 cards |")
    edit(editions, JA, "| ３枚 | ３枚 |", "| ４枚 | ３枚 |")
    assert failed(editions) == [(f"{JA}:10:15", "rulebook setup deal", 3, 4), (f"{EN}:10:33", "rulebook setup deal", 3, 4)]


def test_a_total_over_the_rounds_is_the_figure_times_the_rounds(editions):
    edit(editions, EN, "(15 tricks in all)", "(18 tricks in all)")
    # a total is the figure times any other figure of the game (rounds, redraws, the bonus), as in Japanese
    assert failed(editions) == [(f"{EN}:15:25", "rulebook figure tricks", "10、15、25、5", 18)]


def test_english_card_text_figure_fails_at_its_field(editions):
    edit(editions, "cards.yaml", "en: \"For 3 rounds, your points double.\"", "en: \"For 4 rounds, your points double.\"")
    assert failed(editions) == [("cards.yaml:21:64", "card text (en) winds.effect figure rounds", 3, 4)]


def test_english_card_text_of_its_own_key_fails_at_that_key(editions):
    edit(editions, "cards.yaml", "the game's 3 rounds", "the game's 5 rounds")
    assert failed(editions) == [("cards.yaml:24:89", "card text (en) winds.effect figure rounds", 3, 5)]


def test_japanese_card_text_wrong_and_english_right_fails_in_the_japanese_only(editions):
    edit(editions, "cards.yaml", "３ラウンドの間", "４ラウンドの間")
    assert failed(editions) == [("cards.yaml:19:20", "card text winds.effect figure rounds", 3, 4)]


def test_a_figure_english_names_by_its_words_at_en_fails_at_its_line(editions):
    edit(editions, EN, "The wind bonus is 5 points.", "The wind bonus is 4 points.")
    assert failed(editions) == [(f"{EN}:20:19", "rulebook figure wind_bonus", 5, 4)]


def test_words_in_a_language_that_is_no_language_is_refused_at_its_key(editions):
    edit(editions, "cards.yaml", "words@en: [wind bonus]", "words@eng: [wind bonus]")
    with pytest.raises(pnpgen.PnpError) as raised:
        pnpgen.check(editions)
    assert [str(p) for p in raised.value.problems] == [
        "cards.yaml:40:46: 'words@eng': unknown language code text 'eng'; expected a two-letter ISO 639-1 code such as "
        "ja or en; did you mean 'en'?"]


def test_a_player_count_the_game_does_not_have_fails(editions):
    edit(editions, EN, "Deal 3 cards to each player", "With 5 players, deal 3 cards to each player")
    assert failed(editions) == [(f"{EN}:6:6", "rulebook player count", "3–4", 5)]


def test_a_missing_english_rulebook_is_reported_and_nothing_is_read_in_its_place(editions):
    (editions / EN).unlink()
    findings = [f for f in pnpgen.check(editions, lang="en") if f.status == "fail"]
    assert [(f.check, f.detail) for f in findings] == [
        ("translation into en", "the rulebook rules/winds.md has no en edition; expected rules/winds.en.md beside it")]


def test_a_missing_card_translation_is_reported(editions):
    edit(editions, "cards.yaml", "{ja: 南風, en: South Wind}", "南風")
    findings = [f for f in pnpgen.check(editions, lang="en") if f.status == "fail"]
    assert [(f.check, f.location.line) for f in findings] == [("translation into en", 22)]


DEAL, TOTAL = "Deal 3 cards to each player as their hand.", "Shuffle the 24 wind cards into a deck."
ROUNDS, REDRAWS = "The game ends after 3 rounds.", "You may redraw twice per turn."
REWORDINGS = [
    (DEAL, "Deal three cards to each player as their hand.", "rulebook setup deal"),
    (DEAL, "Deal each player 3 cards as their hand.", "rulebook setup deal"),
    (DEAL, "Deal each player 3.", "rulebook setup deal"),
    (DEAL, "Each player is dealt a hand of 3 cards.", "rulebook setup deal"),
    (DEAL, "With 3 players or with 4 players, deal 3 cards each.", "rulebook setup deal"),
    (TOTAL, "Shuffle all twenty-four wind cards together.", "rulebook count winds"),
    (TOTAL, "Shuffle the wind cards (24 cards) into a deck.", "rulebook count winds"),
    (ROUNDS, "The game lasts three rounds.", "rulebook figure rounds"),
    (ROUNDS, "After round 3, the game ends.", "rulebook figure rounds"),
    ("Each round is 5 tricks (15 tricks in all).", "Each round is five tricks.", "rulebook figure tricks"),
    (REDRAWS, "You may redraw 2 times per turn.", "rulebook figure redraws"),
    (REDRAWS, "Each turn, you may redraw up to twice.", "rulebook figure redraws"),
]


@pytest.mark.parametrize("old, new, check", REWORDINGS, ids=[new for _, new, _ in REWORDINGS])
def test_a_correct_rewording_passes(editions, old, new, check):
    edit(editions, EN, old, new)
    line = (editions / EN).read_text(encoding="utf-8").splitlines().index(new) + 1
    findings = pnpgen.check(editions, lang="all")
    assert [f for f in findings if f.status == "fail"] == []
    assert [(f.status, f.check) for f in findings if f.location.file == EN and f.location.line == line
            and not f.check.endswith("player count")] == [("pass", check)]


NOT_FIGURES = [
    "The first player to run out of cards wins.",
    "Choose one of the wind cards and show it.",
    "Players may show one another their hands.",
    "Play all your cards in one go.",
    "Reveal the cards one by one, starting with the 2nd player.",
    "Once every player has a hand, the first round begins.",
    "The 3rd player to the left shuffles; no one looks at the wind cards.",
    "Both of you may pass; a single pass ends nothing.",
    "Keep the 2 rules of thumb in mind: round down, and play clockwise.",
    "Cards numbered 1 to 6 make up the deck.",
    "The dealer draws 2 cards and shows them.",
]


@pytest.mark.parametrize("sentence", NOT_FIGURES)
def test_numbers_that_are_no_figure_raise_nothing(editions, sentence):
    path = editions / EN
    path.write_text(path.read_text(encoding="utf-8") + "\n" + sentence + "\n", encoding="utf-8")
    line = len(path.read_text(encoding="utf-8").splitlines())
    assert [f for f in pnpgen.check(editions, lang="en") if f.location.file == EN and f.location.line == line] == []


def test_the_bundled_english_rulebooks_state_the_data_figures(project):
    """The bundled games' English drafts, read as an edition of the bundled project: no figure they state fails."""
    cards = project / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    if "languages:" not in text:  # the bundled data before its English is folded in: names stay Japanese
        cards.write_text(text.replace("project:\n", "project:\n  languages: [ja, en]\n", 1), encoding="utf-8")
    findings = pnpgen.check(project, lang="en", draft=True)
    read = {f.location.file for f in findings if f.location.file.endswith(".en.md")}
    games = ("three-times-undress", "otogi-taisen", "last-wan-standing-quickdraw", "last-wan-standing-quickdraw-sheet")
    assert read == {f"rules/{name}.en.md" for name in games}
    assert [f.line() for f in findings if f.status == "fail"] == []
    strict = pnpgen.check(project, strict=True, lang="en", draft=True)
    titles = [f.line() for f in strict if "Three Times Undress" in f.line()]
    assert titles == []  # a title is a name: its "Three Times" counts nothing


def test_a_reason_with_no_english_is_a_missing_translation_at_its_line_not_the_japanese_in_silence(project):
    """The English rulebook lists each assumed figure with its reason: one written in Japanese only is reported where
    it is written, as every text with no translation is (a warning in a draft)."""
    game = "games/otogi-taisen.yaml"
    edit(project, game, 'assumed: {ja: "「半分」は２で割ること（端数切り捨て）。", en: "“Half” means dividing by 2 (rounding down)."}',
         'assumed: "「半分」は２で割ること（端数切り捨て）。"')
    line = line_of(project, game, "support_share:")
    column = (project / game).read_text(encoding="utf-8").splitlines()[line - 1].index('assumed: "') + 10  # its value
    expected = (f"{game}:{line}:{column}: translation into en — the reason (assumed:) of figure support_share has no en "
                "text (the original: '「半分」は２で割ること（端数切り捨て）。'); expected a translation as {…, en: …}")
    assert [f.line() for f in pnpgen.check(project, lang="en") if f.status == "fail"] == [f"✗ {expected}"]
    assert [f.line() for f in pnpgen.check(project, lang="en", draft=True) if "translation" in f.check] == [
        f"⚠ {expected} (a draft: `--draft` lets it pass)"]


OTOGI_EN, THREE_EN, LWS_EN = "rules/otogi-taisen.en.md", "rules/three-times-undress.en.md", \
    "rules/last-wan-standing-quickdraw.en.md"
BUNDLED_SLIPS = [  # a figure the English names by its words@en (or as a factor written `× 2`), changed in English only
    (OTOGI_EN, "| 3 VP (majority bonus) |", "| 4 VP (majority bonus) |", "rulebook figure majority_vp", 3, 4),
    (OTOGI_EN, "| Connected areas × 2 VP (dominance bonus) |", "| Connected areas × 3 VP (dominance bonus) |",
     "rulebook figure domination_factor", 2, 3),
    (OTOGI_EN, "The 2 highest cards of the lead’s suit", "The 3 highest cards of the lead’s suit",
     "rulebook figure fighters", 2, 3),
    (THREE_EN, "If your tenpai speed is 20 or more", "If your tenpai speed is 25 or more",
     "rulebook figure tenpai_speed", 20, 25),
    (THREE_EN, "Hands are repeated, and the game ends when any player has undressed 3 times.",
     "Hands are repeated, and the game ends when any player has undressed 4 times.", "rulebook figure undress_limit",
     3, 4),
    (LWS_EN, "then draw 2 chips at random from the rest", "then draw 3 chips at random from the rest",
     "rulebook figure child_draw", 2, 3),
]


@pytest.mark.parametrize("file, old, new, check, expected, found", BUNDLED_SLIPS)
def test_a_bundled_english_figure_named_by_its_english_words_is_held_to_the_data(project, file, old, new, check,
                                                                                  expected, found):
    edit(project, file, old, new)
    line = line_of(project, file, new)
    assert [(f.location.file, f.location.line, f.check, f.expected, f.found)
            for f in pnpgen.check(project, lang="en") if f.status == "fail"] == [(file, line, check, expected, found)]
