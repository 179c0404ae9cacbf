"""Relations between a card's fields: an `invariant` expectation states a rule every card of a component satisfies,
with the phrase of the document it comes from; each card that breaks it is reported where the card is written."""
import pytest

import pnpgen
from pnpgen.errors import PnpError

from sheet_writers import write_csv
from slips import edit, failed, line_of

TTU, OTOGI, LWS = "three-times-undress", "otogi-taisen", "last-wan-standing-quickdraw"
TTU_YAML, OTOGI_YAML = "games/three-times-undress.yaml", "games/otogi-taisen.yaml"
LWS_YAML = "games/last-wan-standing-quickdraw.yaml"
PALETTE = ["赤", "青", "緑", "黄", "紫", "桃", "黒"]
CHARACTERS = [f"雀士{c}（仮名）" for c in "ＡＢＣＤＥ"]


def invariants(project, game):
    """Each failed invariant finding as (expected, found, file, line, col, detail)."""
    return [(f.expected, f.found, f.location.file, f.location.line, f.location.col, f.detail)
            for f in failed(project, game) if f.check.startswith("invariant ")]


def line_after(project, file: str, anchor: str, text: str) -> int:
    """The line of the first `text` after the line holding `anchor`."""
    lines = (project / file).read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines, 1) if anchor in line)
    return next(n for n, line in enumerate(lines[start:], start + 1) if text in line)


def test_a_hero_whose_number_is_not_the_documents_is_named_at_its_cell(project):
    edit(project, OTOGI_YAML, "          - {number: 12}", "          - {number: 13}")
    line, rule = line_of(project, OTOGI_YAML, "- {number: 13}"), line_of(project, OTOGI_YAML, "holds: card.number == 12")
    assert invariants(project, OTOGI) == [
        ("card.number == 12", "number 13", OTOGI_YAML, line, 22,
         f"this card (race {race}) breaks the rule of {OTOGI_YAML}:{rule - 1}:9") for race in ("烏天狗", "河童", "狗神", "鬼族")]
    hero = [f for f in failed(project, OTOGI) if f.check == "invariant hero-cards"][0]
    assert hero.source.quote == "各種族に１枚ずつあり、数字は１２になっています"


def test_a_target_chip_that_aims_at_its_own_colour_fails_for_each_owner(project):
    # aim 7 comes round the seven colours to the owner's own; the combinations of player and aim stay unique
    edit(project, LWS_YAML, "            - {aim: 6}\n", "            - {aim: 7}\n")
    matrix = line_after(project, LWS_YAML, "id: target-chips", "player: [")  # a matrix card: where its axes start
    rule = line_of(project, LWS_YAML, "card.aim % (card.palette|length) != 0") - 1
    assert invariants(project, LWS) == [
        ("card.quickdraw or card.aim % (card.palette|length) != 0", "quickdraw False, aim 7", LWS_YAML, matrix, 11,
         f"this card (player {player}) breaks the rule of {LWS_YAML}:{rule}:9") for player in PALETTE]


def test_two_stages_that_swap_their_undress_count_both_fail(project):
    edit(project, TTU_YAML, "              undressed: 1\n", "              undressed: 9\n")
    edit(project, TTU_YAML, "              undressed: 2\n", "              undressed: 1\n")
    edit(project, TTU_YAML, "              undressed: 9\n", "              undressed: 2\n")
    cards = line_of(project, TTU_YAML, "- {tbd: [character, title, text]}")
    found = [(expected, found, line) for expected, found, _, line, _, _ in invariants(project, TTU)]
    assert found == [("card.undressed == card.number - 1", shown, cards)
                     for _ in CHARACTERS for shown in ("undressed 2, number 2", "undressed 1, number 3")]


def test_an_effect_moved_to_a_card_without_ron_fails_at_the_effect(project):
    edit(project, TTU_YAML, "          - {number: 7, copies: 5}",
         '          - {number: 7, copies: 4}\n          - {number: 7, effect: ":ron: ロンできるカード。"}')
    line = line_of(project, TTU_YAML, '- {number: 7, effect: ":ron:')
    rule = line_of(project, TTU_YAML, 'holds: card.ron or card.effect == ""') - 1
    assert invariants(project, TTU) == [('card.ron or card.effect == ""', "ron False, effect :ron: ロンできるカード。",
                                         TTU_YAML, line, 33, f"this card (number 7) breaks the rule of {TTU_YAML}:{rule}:9")]


def test_a_chip_losing_effect_on_a_card_that_cannot_ron_fails(project):
    edit(project, TTU_YAML, "          - {number: 7, copies: 5}",
         '          - {number: 7, copies: 4}\n          - {number: 7, effect: "自分のチップが減る。"}')
    line = line_of(project, TTU_YAML, '- {number: 7, effect: "自分のチップが減る。"}')
    assert [(e, f, ln) for e, f, _, ln, _, _ in invariants(project, TTU)] == [
        ('card.ron or card.effect == ""', "ron False, effect 自分のチップが減る。", line),
        ("card.ron or 'チップが減る' not in card.effect", "ron False, effect 自分のチップが減る。", line)]


def test_a_race_whose_skills_skip_an_occupation_count_fails(project):
    edit(project, OTOGI_YAML, "            - {occupied: 3, text:", "            - {occupied: 5, text:")
    lines = [line_of(project, OTOGI_YAML, f"- {{race: {race}, tbd: [skills]}}") for race in ("烏天狗", "河童", "狗神", "鬼族")]
    assert [(f[1][:24], f[3], f[4]) for f in invariants(project, OTOGI)] == [
        ('skills [{"occupied": 1, ', line, 13) for line in lines]


def test_a_bullet_number_beyond_the_most_players_fails(project):
    edit(project, LWS_YAML, "bullet: [1, 2, 3, 4, 5, 6, down]", "bullet: [1, 2, 3, 4, 5, 8, down]")
    matrix = line_after(project, LWS_YAML, "id: bullet-chips", "player: [")
    assert [(e, f, ln) for e, f, _, ln, _, _ in invariants(project, LWS)] == [
        ("card.bullet == 'down' or 1 <= card.bullet <= players|max - 1", "bullet 8", matrix)] * 7


def test_a_rule_edited_with_the_data_is_held_to_the_quote(project):
    edit(project, OTOGI_YAML, "          - {number: 12}", "          - {number: 13}")
    edit(project, OTOGI_YAML, "holds: card.number == 12", "holds: card.number == 13")
    line = line_of(project, OTOGI_YAML, "holds: card.number == 13") - 1
    found = [(f.check, f.expected, f.found, f.location.line) for f in failed(project, OTOGI) if f.check.startswith("invariant")]
    assert found == [("invariant hero-cards: figures as the document states", "1、12", "13", line)]


@pytest.mark.parametrize("file,game,old,new", [
    (OTOGI_YAML, OTOGI, "holds: card.number == 12", 'holds: "not card.number != 12"'),
    (OTOGI_YAML, OTOGI, "holds: card.number == 12", "holds: \"card['number'] in [12]\""),
    (OTOGI_YAML, OTOGI, "holds: card.number == 12", "holds: 12 == card.get('number')"),
    (OTOGI_YAML, OTOGI, "holds: card.number == 12", "holds: card.number == card.figures.hero_number"),
    (OTOGI_YAML, OTOGI, "holds: card.number == 12", 'holds: "card.number > 11 and card.number < 13"'),
    (OTOGI_YAML, OTOGI, "holds: 1 <= card.number <= 11", "holds: card.number in range(1, 12)"),
    (TTU_YAML, TTU, "holds: 1 <= card.number <= 7", 'holds: "0 < card.number < 8"'),
    (TTU_YAML, TTU, 'holds: card.ron or card.effect == ""', 'holds: "not (card.effect|length and not card.ron)"'),
    (TTU_YAML, TTU, "holds: card.undressed == card.number - 1", "holds: card.number - card.undressed == 1"),
    (TTU_YAML, TTU, "holds: \"card.label == ('スキル' if card.number == 1 else '奥義')\"",
     "holds: \"(card.number == 1) == (card.label == 'スキル') and card.label in ['スキル', '奥義']\""),
    (LWS_YAML, LWS, 'holds: "card.quickdraw or card.aim % (card.palette|length) != 0"',
     'holds: "card.quickdraw or (card.palette|list)[((card.palette|list).index(card.player) + card.aim) % '
     '(card.palette|length)] != card.player"'),
    (LWS_YAML, LWS, "holds: card.quickdraw == (card.aim == 0)", 'holds: "card.aim == 0 if card.quickdraw else card.aim > 0"'),
    (LWS_YAML, LWS, "holds: \"card.bullet == 'down' or 1 <= card.bullet <= players|max - 1\"",
     "holds: \"card.bullet in ['down'] + range(1, players|max)|list\""),
])
def test_an_invariant_written_differently_but_equivalent_passes(project, file, old, new, game):
    edit(project, file, old, new)
    findings = pnpgen.check(project, game)
    assert not [f.line() for f in findings if f.status == "fail"]
    assert any(f.check.startswith("invariant") and f.status == "pass" and f.found.startswith("all ") for f in findings)


@pytest.mark.parametrize("rule,message", [
    ("card.nubmer == 12", "invariant 'card.nubmer == 12' reads card.nubmer, but no card of hero-cards has a field "
                          "'nubmer'; did you mean 'number'?"),
    ("12 == 12", "invariant '12 == 12' reads no field of the card; expected a relation between the card's fields, "
                 "such as card.number == 12"),
    ('"card.number =="', "'holds' is not a valid expression (unexpected 'end of template'); expected e.g. card.number == 1"),
    ("card.race > 3", "invariant 'card.race > 3' failed on the card at {card} (race 烏天狗): '>' not supported between "
                      "instances of 'str' and 'int'; expected a rule that works for every card (narrow it with where:, "
                      "or test the value first, as in card.bullet == 'down' or card.bullet <= 6)"),
])
def test_a_rule_that_cannot_be_held_to_the_cards_is_an_error_at_the_rule(project, rule, message):
    edit(project, OTOGI_YAML, "holds: card.number == 12", f"holds: {rule}")
    line, card = line_of(project, OTOGI_YAML, f"holds: {rule}"), line_of(project, OTOGI_YAML, "- {number: 12}")
    with pytest.raises(PnpError) as raised:
        pnpgen.check(project, OTOGI)
    assert str(raised.value) == f"{OTOGI_YAML}:{line}:16: " + message.format(card=f"{OTOGI_YAML}:{card}:13")


def test_an_assumed_rule_is_a_warning_and_still_holds_every_card(project):
    edit(project, OTOGI_YAML, "        holds: card.number == 12\n",
         '        holds: {value: card.number == 12, assumed: "英雄はどのエリアカードより強い。"}\n')
    findings = [f for f in pnpgen.check(project, OTOGI) if f.check.startswith("invariant hero-cards")]
    assert [(f.status, f.check, f.detail) for f in findings] == [
        ("pass", "invariant hero-cards", ""),
        ("warn", "invariant hero-cards: figures as the document states", "assumption: 英雄はどのエリアカードより強い。")]


def test_where_narrows_an_invariant_and_one_that_applies_to_no_card_warns(project):
    edit(project, TTU_YAML, "        holds: \"card.ron or 'チップが減る' not in card.effect\"\n",
         "        where: not card.ron\n        holds: \"'チップが減る' not in card.effect\"\n")
    assert not failed(project, TTU)
    edit(project, TTU_YAML, "        where: not card.ron\n", "        where: card.number > 7\n")
    warned = [f for f in pnpgen.check(project, TTU) if f.check == "invariant battle-cards" and f.status == "warn"]
    assert [(f.found, f.detail[:40]) for f in warned] == [("no card", "the invariant applies to no card (see wh")]


TEA = """games:
  - id: tea
    title: 茶
    components:
      - id: tea-cards
        front: front.svg.j2
        cards: {from: data/tea.csv}
    expectations:
      - invariant: tea-cards
        holds: "card.leaves <= 3"
        source: {document: tea.txt, quote: "茶葉は３枚まで"}
"""


def test_a_card_from_a_spreadsheet_is_named_by_its_cell(tmp_path):
    project = tmp_path / "tea"
    for folder in ("templates", "data", "documents"):
        (project / folder).mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}"/>', encoding="utf-8")
    (project / "documents/tea.txt").write_text("茶葉は３枚まで\n", encoding="utf-8")
    (project / "cards.yaml").write_text(TEA, encoding="utf-8")
    write_csv(project / "data/tea.csv", [["name", "leaves"], ["煎茶", 2], ["抹茶", 3], ["番茶", 5], ["玉露", 1]])
    broken = [f for f in failed(project) if f.check == "invariant tea-cards"]
    assert [(str(f.location), f.found, f.detail) for f in broken] == [
        ("data/tea.csv:B4", "leaves 5", "this card (name 番茶) breaks the rule of cards.yaml:9:9")]
