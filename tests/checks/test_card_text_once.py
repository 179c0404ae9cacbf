"""A sentence that cards repeat in the same surroundings is read once: each card's text gets the findings reading
it afresh gives, at the card's own place; and a memo kept from one check to the next (pnpgen watch) gives what a
fresh check gives after an edit."""
import pytest

from pnpgen.checks import prose
from pnpgen.checks.cardtext import check_card_text
from pnpgen.checks.vocabulary import build_vocabulary
from pnpgen.project.validate import load_project

from slips import edit


def read_afresh(memo, players, span, nouns, strict, words):
    return prose.read_span(players, span, nouns, strict, words=words)


def findings_both_ways(project, monkeypatch, strict: bool) -> tuple[list, list]:
    games = load_project(project).games
    once = [check_card_text(game, build_vocabulary(game), strict) for game in games]
    with monkeypatch.context() as patched:
        patched.setattr(prose.SentenceMemo, "read", read_afresh)
        afresh = [check_card_text(game, build_vocabulary(game), strict) for game in games]
    return once, afresh


@pytest.mark.parametrize("strict", [False, True])
def test_the_bundled_cards_get_the_findings_each_reading_gives(project, monkeypatch, strict):
    once, afresh = findings_both_ways(project, monkeypatch, strict)
    assert once == afresh and any(once)


def test_a_repeated_wrong_sentence_fails_on_every_card_that_prints_it(project, monkeypatch):
    edit(project, "games/otogi-taisen.yaml", "          - {number: 12}\n",
         "          - {number: 12, text: ゲーム中２回のみ使用できる。}\n"
         "          - {number: 13, text: \"ゲーム中２回のみ使用できる。\\n\\n数字は１２。\"}\n")
    once, afresh = findings_both_ways(project, monkeypatch, strict=False)
    assert once == afresh
    wrong = [f for game in once for f in game if f.status == "fail" and f.check.endswith("hero_per_game")]
    assert len(wrong) == 2


@pytest.mark.parametrize("change", [
    ("games/otogi-taisen.yaml", "          - {number: 12}\n", "          - {number: 12, text: ゲーム中２回のみ使用できる。}\n"),
    ("games/otogi-taisen.yaml", "          - {number: 12}\n", "          - {number: 14}\n"),  # a card value: the nouns read anew
    ("games/three-times-undress.yaml", '          effect: ""', '          effect: "山札から３枚引く。"'),
    ("games/otogi-taisen.yaml", "name: {ja: エリアカード,", "name: {ja: 領域カード,"),  # a noun's words
])
def test_a_memo_kept_across_checks_gives_what_a_fresh_check_gives(project, change):
    memos = {}

    def check_with_memos(games):
        return [check_card_text(game, build_vocabulary(game), True, memos.setdefault(game.id, prose.SentenceMemo(kept=True)))
                for game in games]

    check_with_memos(load_project(project).games)
    edit(project, *change)
    games = load_project(project).games
    kept = check_with_memos(games)
    assert kept == [check_card_text(game, build_vocabulary(game), True) for game in games]
