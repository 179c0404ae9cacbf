"""Numbers written the way people write them — kanji with no counter, fractions and multiples in words, 「N：M枚」
lists, 「N枚１組」, soft line breaks and list continuations, figures in brackets after a noun: each slip is one
located ✗, and a correct rewrite in another style passes."""
import pytest

from slips import append, edit, failed, line_of, located

TTU_RULES = "rules/three-times-undress.md"
OTOGI_RULES = "rules/otogi-taisen.md"
TTU = "three-times-undress"
OTOGI = "otogi-taisen"


@pytest.mark.parametrize("file,game,old,new,check,expected,found", [
    # a kanji numeral with no counter, before 以上
    (TTU_RULES, TTU, "聴牌速度が２０以上、かつ", "聴牌速度が二十五以上、かつ", "rulebook figure tenpai_speed", "20", "25"),
    # a fraction in words: a half became a third
    (OTOGI_RULES, OTOGI, "勝者の得たＶＰの半分（端数切り捨て、０もあり）", "勝者の得たＶＰの三分の一（端数切り捨て、０もあり）",
     "rulebook figure support_share", "2", "3"),
    # a multiple in words: ×２ became 三倍
    (OTOGI_RULES, OTOGI, "「繋がっているエリア数×２」分のＶＰ", "「繋がっているエリア数の三倍」のＶＰ",
     "rulebook figure domination_factor", "2", "3"),
])
def test_numbers_in_words_that_the_data_contradicts_fail(project, file, game, old, new, check, expected, found):
    edit(project, file, old, new)
    line = line_of(project, file, new)
    assert located(project, game) == [(check, expected, found, file, line)]


@pytest.mark.parametrize("file,game,old,new", [
    (TTU_RULES, TTU, "聴牌速度が２０以上、かつ", "聴牌速度が二十以上、かつ"),
    (OTOGI_RULES, OTOGI, "勝者の得たＶＰの半分（端数切り捨て、０もあり）", "勝者の得たＶＰの２分の１（切り捨て）"),
    (OTOGI_RULES, OTOGI, "「繋がっているエリア数×２」分のＶＰ", "「繋がっているエリア数の倍」のＶＰ"),
    (OTOGI_RULES, OTOGI, "「繋がっているエリア数×２」分のＶＰ", "「繋がっているエリア数の２倍」のＶＰ"),
    (OTOGI_RULES, OTOGI, "１ラウンドは６トリックで構成され、３ラウンドが終わるとゲームが終了します。\n\n以下",
     "１ラウンドは六トリックで構成され、三ラウンドが終わるとゲームが終了します。\n\n以下"),
])
def test_numbers_in_words_that_agree_pass(project, file, game, old, new):
    edit(project, file, old, new)
    assert failed(project, game) == []


@pytest.mark.parametrize("file,game,text,offset,check,expected,found", [
    # a list of 「value：count」 lines under the component's heading: one count changed
    (TTU_RULES, TTU, "### 闘牌カード（４６枚）\n\nロンカードの枚数は次のとおりです。\n\n- ２：１枚\n- ３：１枚\n- ４：２枚\n- ５：１枚\n- ６：１枚",
     7, "rulebook count battle-cards", "2、46、6、7", "1"),
    (TTU_RULES, TTU, "闘牌カードの内訳：\n\n- １：１０枚\n- ２：７枚\n- ３：８枚", 4, "rulebook count battle-cards", "1、46、7", "8"),
    (TTU_RULES, TTU, "闘牌カードの枚数：２：７枚　３：７枚　４：５枚", 0, "rulebook count battle-cards", "2、46、6、7", "5"),
    # 「N枚１組」 under the component's heading
    (OTOGI_RULES, OTOGI, "### エリアマップ\n\n３枚１組の地図です。", 2, "rulebook count area-map", "2", "3"),
    # a soft line break inside a sentence, and a list item's continuation lines
    (OTOGI_RULES, OTOGI, "エリアカードをよく混ぜ、\n各プレイヤーに７枚ずつ配って手札とします。", 1, "rulebook setup deal", "8", "7"),
    (OTOGI_RULES, OTOGI, "1. エリアカードをよく混ぜます。\n   各プレイヤーに手札として\n   ７枚ずつ配ります。", 2,
     "rulebook setup deal", "8", "7"),
    # a figure in brackets after a noun, although another noun (配) is nearer
    (OTOGI_RULES, OTOGI, "英雄カード（各種族１枚、計５枚）を配ります。", 0, "rulebook count hero-cards", "1、4", "5"),
])
def test_lists_breaks_and_brackets_are_read(project, file, game, text, offset, check, expected, found):
    line = append(project, file, text) + offset
    assert located(project, game) == [(check, expected, found, file, line)]


@pytest.mark.parametrize("file,game,text", [
    (TTU_RULES, TTU, "### 闘牌カード（４６枚）\n\nロンカードの枚数は次のとおりです。\n\n- ２：１枚\n- ３：１枚\n- ４：２枚\n- ５：２枚\n- ６：１枚"),
    (TTU_RULES, TTU, "闘牌カードの数字ごとの枚数：\n\n- １：１０枚\n- ２：７枚\n- ３：７枚\n- ４：６枚\n- ５：６枚\n- ６：５枚\n- ７：５枚"),
    (TTU_RULES, TTU, "ロンカードは、\n\n- ６：１枚\n- ５：２枚\n- ４：２枚\n- ３：１枚\n- ２：１枚\n\nです（闘牌カードのうち７枚）。"),
    (OTOGI_RULES, OTOGI, "### エリアマップ\n\n２枚１組の地図です。"),
    (OTOGI_RULES, OTOGI, "### エリアマップ\n\n２枚で１組です。"),
    (OTOGI_RULES, OTOGI, "エリアカードをよく混ぜ、\n各プレイヤーに８枚ずつ配って手札とします。"),
    (OTOGI_RULES, OTOGI, "英雄カード（各種族１枚、計４枚）を受け取ります。"),
    (OTOGI_RULES, OTOGI, "マーカーは１種族につき８個、全部で３２個あります。"),
    (TTU_RULES, TTU, "雀士カード（５人×３枚）を用意します。"),
    (TTU_RULES, TTU, "雀士カードは１人の雀士につき３枚、５人分で１５枚です。"),
])
def test_correct_lists_breaks_and_brackets_pass(project, file, game, text):
    append(project, file, text)
    assert failed(project, game) == []


def test_every_rulebook_with_its_expressions_typed_out_passes(project):
    """A designer who writes every number out (the expanded rulebook, expressions and tables replaced by their values)
    states the same figures: no failure."""
    from pathlib import Path

    from pnpgen.project.validate import load_project
    from pnpgen.rules.expand import expand_markdown

    loaded = load_project(project)
    for game in loaded.games:
        for source in filter(None, (game.rulebook, game.rules_sheet)):
            path = Path(source)
            typed = expand_markdown(loaded, game, path, path.read_text(encoding="utf-8"))
            assert "{{" not in typed
            path.write_text(typed, encoding="utf-8")
    assert [f.line() for f in failed(project)] == []


@pytest.mark.parametrize("old,new,finding", [
    ("１〜７の数字があります", "１〜８の数字があります", ("rulebook values battle-cards", "1〜7", "1〜8")),
    ("１〜７の数字があります", "１～７の数字があります", None),
    ("１〜７の数字があります", "０〜７の数字があります", ("rulebook values battle-cards", "1〜7", "0〜7")),
])
def test_the_values_a_component_runs_over(project, old, new, finding):
    edit(project, TTU_RULES, old, new)
    expected = [finding + (TTU_RULES, line_of(project, TTU_RULES, new))] if finding else []
    assert located(project, TTU) == expected
