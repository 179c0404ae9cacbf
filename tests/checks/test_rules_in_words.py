"""Rules that are words, not numbers: rounding, direction, random or chosen, order, tie-break, limits. A `kind:`
figure quotes the document's word; the figure is held to its quote, and every sentence of the rulebooks, the rules
sheet and the printed card text that speaks of it is held to the figure."""
import pytest

import pnpgen
from pnpgen.errors import PnpError

from slips import append, edit, failed, line_of, located

TTU_RULES = "rules/three-times-undress.md"
OTOGI_RULES = "rules/otogi-taisen.md"
LWS_RULES = "rules/last-wan-standing-quickdraw.md"
SHEET = "rules/last-wan-standing-quickdraw-sheet.md"
TTU, OTOGI, LWS = "three-times-undress", "otogi-taisen", "last-wan-standing-quickdraw"
OTOGI_YAML = "games/otogi-taisen.yaml"
LWS_YAML = "games/last-wan-standing-quickdraw.yaml"


@pytest.mark.parametrize("file,game,old,new,check,expected,found", [
    (OTOGI_RULES, OTOGI, "勝者の得たＶＰの半分（端数切り捨て、０もあり）", "勝者の得たＶＰの半分（端数切り上げ、０もあり）",
     "rulebook rule support_rounding", "切り捨て", "切り上げ"),
    (OTOGI_RULES, OTOGI, "| 勝者の得たＶＰの半分（端数切り捨て） |", "| 勝者の得たＶＰの半分（端数切り上げ） |",
     "rulebook rule support_rounding", "切り捨て", "切り上げ"),
    (SHEET, LWS, "人数分の得点を均等に分配（端数切捨て）", "人数分の得点を均等に分配（端数切り上げ）",
     "rulebook rule survival_rounding", "切捨て", "切り上げ"),
    (LWS_RULES, LWS, "down（固定）とランダムで１枚を、両方とも公開します", "down（固定）と好きな１枚を、両方とも公開します",
     "rulebook rule parent_random", "ランダム", "好きな"),
    (LWS_RULES, LWS, "down（固定）とランダムで１枚を、両方とも公開します", "down（固定）とランダムで２枚を、両方とも公開します",
     "rulebook figure parent_draw", "1", "2"),
    (TTU_RULES, TTU, "起家から順に好きな雀士を１人選んで", "起家から順にランダムに雀士を１人選んで",
     "rulebook rule character_choice", "好きな", "ランダム"),
    (OTOGI_RULES, OTOGI, "複数いれば、占拠した磐座数の多い方が勝ちます", "複数いれば、占拠した磐座数の少ない方が勝ちます",
     "rulebook rule winner_most", "多い", "少ない"),
    (OTOGI_RULES, OTOGI, "同数の場合、最も大きい数字の磐座に", "同数の場合、最も小さい数字の磐座に",
     "rulebook rule majority_tie", "大きい", "小さい"),
    (TTU_RULES, TTU, "起家から時計回りで近い方が優先されます", "起家から時計回りで遠い方が優先されます",
     "rulebook rule ron_nearest", "近い", "遠い"),
    (OTOGI_RULES, OTOGI, "それ以外のプレイヤーは、リードと同じスートで数字の小さい順に", "それ以外のプレイヤーは、リードと同じスートで数字の大きい順に",
     "rulebook rule support_order", "小さい", "大きい"),
    (LWS_RULES, LWS, "小さいほうから処理を行います", "大きいほうから処理を行います", "rulebook rule shoot_order", "小さい", "大きい"),
    (OTOGI_RULES, OTOGI, "スタートプレイヤーから時計回りで順番に手番となります", "スタートプレイヤーから反時計回りで順番に手番となります",
     "rulebook rule turn_direction", "時計回り", "反時計回り"),
    (TTU_RULES, TTU, "起家を１つ左隣へ移して", "起家を１つ右隣へ移して", "rulebook rule dealer_moves", "左隣", "右隣"),
    (OTOGI_RULES, OTOGI, "この時、「現在の占拠数以下」の全てのスキルを同時に使用可能となります",
     "この時、「現在の占拠数以下」のスキルを１つだけ使用可能となります", "rulebook rule skills_all", "全て", "だけ"),
    (TTU_RULES, TTU, "ただし、１手番につき１回だけで", "ただし、１手番につき何回でも使えますが", "rulebook rule skill_once", "だけ", "何回でも"),
    (LWS_RULES, LWS, "クイックドローを１回しか選択できません", "クイックドローを２回まで選択できません",
     "rulebook figure quickdraw_per_parent", "1", "2"),
    (OTOGI_RULES, OTOGI, "さらに通常ゲーム中に１回しか使用できません", "さらに通常ゲーム中に２回まで使用できます",
     "rulebook figure hero_per_game", "1", "2"),
])
def test_a_rule_in_words_changed_in_the_rulebook_fails(project, file, game, old, new, check, expected, found):
    edit(project, file, old, new)
    assert located(project, game) == [(check, expected, found, file, line_of(project, file, new))]


@pytest.mark.parametrize("old,new,check,expected,found", [
    ("「現在の占拠数以下」のスキルをすべて同時に使用できる", "「現在の占拠数以下」のスキルをいずれか１つ使用できる",
     "card text race-cards.rule rule skills_all", "全て", "いずれか"),
    ("１トリックに１枚まで、ゲーム中１回のみ使用できる。", "１トリックに１枚まで、ゲーム中何回でも使用できる。",
     "card text hero-cards.text rule hero_once", "しか", "何回でも"),
    ("１トリックに１枚まで、ゲーム中１回のみ", "１トリックに２枚まで、ゲーム中１回のみ", "card text hero-cards.text figure hero_per_trick", "1", "2"),
])
def test_a_rule_in_words_changed_in_printed_card_text_fails(project, old, new, check, expected, found):
    edit(project, OTOGI_YAML, old, new)
    assert located(project, OTOGI) == [(check, expected, found, OTOGI_YAML, line_of(project, OTOGI_YAML, new))]


@pytest.mark.parametrize("file,game,text", [
    (OTOGI_RULES, OTOGI, "勝った側に加勢したプレイヤーは、勝者の得たＶＰの半分（切捨て）を得ます。"),
    (LWS_RULES, LWS, "生存ボーナスは、人数分の点を生存している子プレイヤーで均等に分けます（端数は切り捨て）。"),
    (OTOGI_RULES, OTOGI, "手番は時計まわりに進みます。"),
    (TTU_RULES, TTU, "局が終わったら、起家は左隣のプレイヤーに移ります。"),
    (LWS_RULES, LWS, "子プレイヤーは、すきなチップ１枚をのぞいてから、残りのチップからランダムに２枚を選びます。"),
    (OTOGI_RULES, OTOGI, "同数の場合、最大の数字の磐座にマーカーを置いているプレイヤーが優先されます。"),
    (OTOGI_RULES, OTOGI, "英雄カードは、ゲーム中に１回だけ使えます。"),
    (TTU_RULES, TTU, "山が尽きると流局し、聴牌速度が最も大きいプレイヤーがこの局のチップを持ち越します。"),
    (LWS_RULES, LWS, "クイックドローは、親プレイヤー１人につき１回しか使えません。"),
])
def test_a_rule_in_other_words_that_agree_passes(project, file, game, text):
    append(project, file, text)
    assert failed(project, game) == []


@pytest.mark.parametrize("old,new,check,expected,found", [
    ("support_rounding: {kind: rounding, value: 切り捨て,", "support_rounding: {kind: rounding, value: 切り上げ,",
     "figure support_rounding: rounding as the document states", "切り捨て", "切り上げ"),
    ("hero_once: {kind: limit, value: しか,", "hero_once: {kind: limit, value: 何度でも,",
     "figure hero_once: limit as the document states", "まで", "何度でも"),
    ("turn_direction: {kind: direction, value: 時計回り,", "turn_direction: {kind: direction, value: 上から,",
     "figure turn_direction: direction as the document states", "時計回り、反時計回り", "上から"),
])
def test_a_rule_figure_is_held_to_its_quote(project, old, new, check, expected, found):
    edit(project, OTOGI_YAML, old, new)
    line = line_of(project, OTOGI_YAML, new)
    assert (check, expected, found, OTOGI_YAML, line) in located(project, OTOGI)


def test_an_expression_that_loses_its_rounding_fails(project):
    edit(project, LWS_YAML, "value: players // survivors", "value: players / survivors")
    line = line_of(project, LWS_YAML, "value: players / survivors")
    assert located(project, LWS) == [(f"figure survival_bonus at {n} players: whole numbers", "a whole number", found,
                                      LWS_YAML, line) for n, found in ((4, "1.33"), (5, "2.5"), (6, "1.5"), (7, "3.5"))]


def test_a_rule_figure_needs_a_word(project):
    edit(project, OTOGI_YAML, "support_rounding: {kind: rounding, value: 切り捨て,", "support_rounding: {kind: rounding, value: 2,")
    with pytest.raises(PnpError) as raised:
        pnpgen.check(project, OTOGI)
    assert "a 'rounding' figure's value is the document's word for the rule" in str(raised.value)
    assert str(raised.value).startswith(f"{OTOGI_YAML}:")


@pytest.mark.parametrize("file,game,text,check,expected,found", [
    (OTOGI_RULES, OTOGI, "戦闘状態になるのは、リードと同じスートで最も数字の小さい２枚です。", "rulebook rule fighters_largest", "大きい", "小さい"),
    (OTOGI_RULES, OTOGI, "マジョリティボーナスが同数なら、最も小さい数字の磐座にマーカーを置いたプレイヤーが優先です。",
     "rulebook rule majority_tie", "大きい", "小さい"),
    (OTOGI_RULES, OTOGI, "ラウンドの終わりに、手札から１枚をランダムに選んで持ち越します。", "rulebook rule carry_choice", "好きな", "ランダム"),
    (TTU_RULES, TTU, "スキルは１手番に何度でも使えます。", "rulebook rule skill_once", "だけ", "何度でも"),
    (TTU_RULES, TTU, "流局したら、聴牌速度の最も低いプレイヤーがチップを持ち越します。", "rulebook rule carry_largest", "大きい", "低い"),
    (LWS_RULES, LWS, "親プレイヤーは down と、好きなチップ１枚を公開します。", "rulebook rule parent_random", "ランダム", "好きな"),
    (LWS_RULES, LWS, "銃撃は、大きい数字から順に処理します。", "rulebook rule shoot_order", "小さい", "大きい"),
])
def test_a_rule_reworded_wrongly_fails(project, file, game, text, check, expected, found):
    line = append(project, file, text)
    assert located(project, game) == [(check, expected, found, file, line)]


def test_a_total_over_rounds_is_a_figure_times_another(project):
    append(project, OTOGI_RULES, "３ラウンド（計１８トリック）でゲームが終わります。")
    assert failed(project, OTOGI) == []
    line = append(project, OTOGI_RULES, "３ラウンド（計２０トリック）でゲームが終わります。")
    assert [(f.check, f.found, f.location.line) for f in failed(project, OTOGI)] == [("rulebook figure tricks", 20, line)]


def test_a_rule_in_words_changed_in_a_template_fails(project):
    template = "templates/otogi/map.svg.j2"
    edit(project, template, "words.majority|replace('{v}', v|zen if lang == 'ja' else v)",
         "'マジョリティボーナス：各エリアでマーカー最多のプレイヤーが' ~ v ~ 'VP（同数なら小さい数字の磐座を持つ方）'")
    assert located(project, OTOGI) == [("template text otogi/map.svg.j2 rule majority_tie", "大きい", "小さい", template,
                                        line_of(project, template, "同数なら小さい数字"))]
