"""Numbers in rulebook prose, hand-written tables and printed card text: a slip is a located ✗ whatever the
phrasing; correct rewrites (a generated table typed out, an expression replaced by its value) pass."""
import re

import pytest
from click.testing import CliRunner

import pnpgen
from pnpgen.cli import main
from pnpgen.project.validate import load_project
from pnpgen.rules.context import make_context

from slips import edit, failed

TTU_RULES = "rules/three-times-undress.md"
OTOGI_RULES = "rules/otogi-taisen.md"
LWS_RULES = "rules/last-wan-standing-quickdraw.md"
SHEET = "rules/last-wan-standing-quickdraw-sheet.md"


def add_line(project, file, line):
    path = project / file
    path.write_text(path.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("file,game,sentence,check,expected,found", [
    (OTOGI_RULES, "otogi-taisen", "エリアカードは３２枚です。", "rulebook count area-cards", 33, 32),  # particle between
    (TTU_RULES, "three-times-undress", "闘牌カードを39枚使う。", "rulebook count battle-cards", None, 39),  # ASCII, verb after
    (TTU_RULES, "three-times-undress", "40 枚の闘牌カードをよく混ぜます。", "rulebook count battle-cards", None, 40),  # number first
    (TTU_RULES, "three-times-undress", "闘牌カードは四十五枚あります。", "rulebook count battle-cards", None, 45),  # kanji numerals
    (OTOGI_RULES, "otogi-taisen", "マーカー（３０個）を用意します。", "rulebook count markers", 32, 30),  # full-width in brackets
    (OTOGI_RULES, "otogi-taisen", "エリアカード（１１枚）をよく混ぜます。", "rulebook count area-cards", 33, 11),  # per suit, but says no "per"
    (OTOGI_RULES, "otogi-taisen", "１ラウンドは７トリックです。", "rulebook figure tricks", 6, 7),
    (TTU_RULES, "three-times-undress", "闘牌カード（７枚）を山にします。", "rulebook count battle-cards", 46, 7),  # 7 are ron cards: a part
    (TTU_RULES, "three-times-undress", "闘牌カード（３６枚）を山にします。", "rulebook count battle-cards", 46, 36),  # 36 only at 3 players
    (OTOGI_RULES, "otogi-taisen", "マジョリティボーナスとして４ＶＰを得ます。", "rulebook figure majority_vp", 3, 4),
    (TTU_RULES, "three-times-undress", "聴牌速度が２５以上ならツモできます。", "rulebook figure tenpai_speed", 20, 25),
    (TTU_RULES, "three-times-undress", "５人プレイでも遊べます。", "rulebook player count", "3–4", 5),
    (TTU_RULES, "three-times-undress", "各プレイヤーに手札を配ります。４人プレイでは４枚ずつです。", "rulebook setup deal", 3, 4),
    (TTU_RULES, "three-times-undress", "山からカードを引き、【王牌】とします。３人プレイでは２枚です。", "rulebook setup set_aside", 6, 2),
])
def test_a_number_in_prose_that_the_data_contradicts_fails(project, file, game, sentence, check, expected, found):
    line = add_line(project, file, sentence)
    slips = [f for f in failed(project, game) if (f.location.file, f.location.line) == (file, line)]
    assert [(f.check, f.found, f.location.file) for f in slips] == [(check, found, file)]
    if expected is not None:
        assert str(expected) in str(slips[0].expected)
    result = CliRunner().invoke(main, ["check", str(project), "--game", game])
    assert result.exit_code == 1 and f"✗ {file}:{line}:" in result.output


@pytest.mark.parametrize("file,game,sentence", [
    (OTOGI_RULES, "otogi-taisen", "エリアカードは各スート１１枚ずつあります。"),  # per what: ずつ, 各
    (OTOGI_RULES, "otogi-taisen", "マーカーは１人あたり８個です。"),
    (TTU_RULES, "three-times-undress", "闘牌カードは全部で46枚です。"),
    (TTU_RULES, "three-times-undress", "３人プレイでは闘牌カード36枚を使います。"),
    (TTU_RULES, "three-times-undress", "闘牌カードの「１」（10枚）を抜きます。"),
    (TTU_RULES, "three-times-undress", "闘牌カードのうち７枚は、ロンできるカードです。"),
    (OTOGI_RULES, "otogi-taisen", "| 使うエリアカード | 27枚 | 33枚 |"),
])
def test_correct_numbers_in_prose_pass(project, file, game, sentence):
    if sentence.startswith("|"):
        edit(project, file, "| 使うエリアカード | {{ count('area-cards', where='card.number < 10') }}枚（「10」「11」を除く） | {{ count('area-cards') }}枚 |",
             sentence)
        line = 50
    else:
        line = add_line(project, file, sentence)
    assert [f.line() for f in failed(project, game) if (f.location.file, f.location.line) == (file, line)] == []


@pytest.mark.parametrize("old,new,check,expected,found", [
    ("| 手札（１人あたり） | ４枚 | ３枚 |", "| 手札（１人あたり） | ３枚 | ３枚 |", "rulebook setup deal", 4, 3),
    ("| 【王牌】 | ６枚 | ２枚 |", "| 【王牌】 | ２枚 | ６枚 |", "rulebook setup set_aside", 6, 2),
])
def test_a_hand_written_table_is_compared_cell_by_cell(project, old, new, check, expected, found):
    edit(project, TTU_RULES, old, new)
    slips = failed(project, "three-times-undress")
    assert (slips[0].check, slips[0].expected, slips[0].found) == (check, expected, found)
    assert slips[0].location.file == TTU_RULES and slips[0].location.line == 55 + ("王牌" in old)


def typed_out(project, file, game_id):
    """The rulebook with every table expression replaced by the table it generates, as a designer would type it."""
    game = load_project(project).game(game_id)
    context = make_context(game)
    path = project / file
    text = path.read_text(encoding="utf-8")
    for call in re.findall(r"\{\{ ((?:quickdraw_table|bullet_table|table)\(.*?\)) \}\}", text):
        name, args = call.split("(", 1)
        table = str(eval(f"context['{name}']({args}", {"context": context}))  # the bundled rulebook's own calls
        text = text.replace("{{ " + call + " }}", table)
    path.write_text(text, encoding="utf-8")
    return text


@pytest.mark.parametrize("file,game", [(TTU_RULES, "three-times-undress"), (OTOGI_RULES, "otogi-taisen"),
                                       (LWS_RULES, "last-wan-standing-quickdraw"), (SHEET, "last-wan-standing-quickdraw")])
def test_generated_tables_typed_out_correctly_pass(project, file, game):
    text = typed_out(project, file, game)
    assert "{{ table(" not in text and "_table()" not in text
    assert failed(project, game) == []


def test_a_typed_out_distribution_with_a_wrong_cell_fails(project):
    text = typed_out(project, TTU_RULES, "three-times-undress")
    row = next(line for line in text.splitlines() if line.startswith("| 闘牌カード（枚） | 10 |"))
    edit(project, TTU_RULES, row, row.replace("| 10 | 7 | 7 |", "| 10 | 8 | 7 |"))
    slips = failed(project, "three-times-undress")
    assert [(f.check, f.found) for f in slips] == [("rulebook count battle-cards", 8)]


def test_a_typed_out_quick_draw_table_with_a_wrong_cell_fails(project):
    text = typed_out(project, LWS_RULES, "last-wan-standing-quickdraw")
    row = next(line for line in text.splitlines() if line.startswith("| 5人 | 4人 |"))
    edit(project, LWS_RULES, row, row.replace("| 5人 | 4人 | 3人 |", "| 5人 | 4人 | 2人 |"))
    slips = failed(project, "last-wan-standing-quickdraw")
    assert [(f.check, f.expected, f.found) for f in slips] == [("rulebook figure quickdraw_downs", 3, 2)]


@pytest.mark.parametrize("file,old,new,check,found", [
    ("games/three-times-undress.yaml", "（１手番に１回）", "（１手番に２回）", "card text mahjong-players.skill_cost figure skill_per_turn", 2),
    ("games/otogi-taisen.yaml", "ゲーム中１回のみ", "ゲーム中２回のみ", "card text hero-cards.text figure hero_per_game", 2),
])
def test_a_figure_changed_in_printed_card_text_fails(project, file, old, new, check, found):
    edit(project, file, old, new)
    game = {"games/three-times-undress.yaml": "three-times-undress", "games/otogi-taisen.yaml": "otogi-taisen"}[file]
    slips = failed(project, game)
    assert [(f.check, f.found, f.location.file) for f in slips] == [(check, found, file)]


def test_strict_lists_numbers_nothing_accounts_for(project):
    line = add_line(project, OTOGI_RULES, "拠点は５つあります。")
    plain = [f for f in pnpgen.check(project, "otogi-taisen") if (f.location.file, f.location.line) == (OTOGI_RULES, line)]
    assert plain == []
    strict = [f for f in pnpgen.check(project, "otogi-taisen", strict=True) if (f.location.file, f.location.line) == (OTOGI_RULES, line)]
    assert [(f.status, f.check, f.found) for f in strict] == [("warn", "rulebook number not tied to the data", 5)]
    result = CliRunner().invoke(main, ["check", str(project), "--strict", "--game", "otogi-taisen"])
    assert result.exit_code == 0 and f"⚠ {OTOGI_RULES}:{line}:4: rulebook number not tied to the data" in result.output


def test_the_map_prints_the_rule_figures_through_the_template(project, tmp_path):
    from pypdf import PdfReader

    edit(project, "games/otogi-taisen.yaml", "majority_vp: {value: 3,", "majority_vp: {value: 5,")
    out = tmp_path / "out"
    pnpgen.build(project, pnpgen.Options(out_dir=out, game="otogi-taisen", only="components", check=False))
    text = "".join(page.extract_text() for page in PdfReader(out / "otogi-taisen" / "area-map.pdf").pages).replace("\n", "")
    assert "マーカー最多のプレイヤーが５VP" in text and "エリア数×２" in text


def test_a_figure_typed_into_a_template_is_held_to_the_data(project):
    edit(project, "templates/otogi/map.svg.j2", "words.majority|replace('{v}', v|zen if lang == 'ja' else v)",
         "'マジョリティボーナス：各エリアでマーカー最多のプレイヤーが４VP（同数なら大きい数字の磐座を持つ方）。'")
    slips = failed(project, "otogi-taisen")
    assert [(f.check, f.expected, f.found, f.location.file) for f in slips] == [
        ("template text otogi/map.svg.j2 figure majority_vp", 3, 4, "templates/otogi/map.svg.j2")]


PER_PLAYER = "\n### 人数ごとの準備\n\n| 人数 | 手札 | 【王牌】 |\n|:--|:-:|:-:|\n| ３人 | {a}枚 | {b}枚 |\n| ４人 | {c}枚 | {d}枚 |\n"
BY_NUMBER = "\n### 闘牌カードの内訳\n\n| 数字 | 枚数 |\n|:--|:-:|\n| 1 | {a} |\n| 2 | 7 |\n| 3 | 7 |\n| 4 | 6 |\n| 5 | 6 |\n| 6 | 5 |\n| 7 | 5 |\n| 計 | {b} |\n"
OTOGI_SETUP = "\n| 人数 | 使うエリアカード | 配る手札 | 残るカード |\n|:--|:-:|:-:|:-:|\n| ３人 | {a}枚 | {b}枚 | 3枚 |\n| ４人 | 33枚 | 8枚 | 1枚 |\n"


@pytest.mark.parametrize("file,game,table,old,new,check", [
    (TTU_RULES, "three-times-undress", PER_PLAYER.format(a="４", b="６", c="３", d="２"),
     "| ４人 | ３枚 | ２枚 |", "| ４人 | ３枚 | ３枚 |", "rulebook setup set_aside"),
    (TTU_RULES, "three-times-undress", BY_NUMBER.format(a="10", b="46"), "| 1 | 10 |", "| 1 | 9 |", "rulebook count battle-cards"),
    (OTOGI_RULES, "otogi-taisen", OTOGI_SETUP.format(a="27", b="8"), "| ３人 | 27枚 | 8枚 |", "| ３人 | 27枚 | 7枚 |",
     "rulebook setup deal"),
])
def test_tables_written_by_hand_in_other_shapes(project, file, game, table, old, new, check):
    """Players as rows, values as rows, a column nothing in the data gives (残るカード): correct passes, a slip fails."""
    path = project / file
    path.write_text(path.read_text(encoding="utf-8") + table, encoding="utf-8")
    assert failed(project, game) == []
    edit(project, file, old, new)
    assert [f.check for f in failed(project, game)] == [check]


@pytest.mark.parametrize("file,game,old,new,check", [
    (OTOGI_RULES, "otogi-taisen", "種族を１つ選び", "種族を２つ選び", "rulebook figure races_per_player"),
    (TTU_RULES, "three-times-undress", "山から１枚引いて", "山から２枚引いて", "rulebook figure draw_per_turn"),
    (OTOGI_RULES, "otogi-taisen", "磐座１つを占拠します", "磐座２つを占拠します", "rulebook figure occupy_per_action"),
    (SHEET, "last-wan-standing-quickdraw", "１枚を一斉に公開する", "２枚を一斉に公開する", "rulebook figure child_reveal"),
    (LWS_RULES, "last-wan-standing-quickdraw", "ランダムで２枚選択します", "ランダムで３枚選択します", "rulebook figure child_draw"),
])
def test_a_one_of_rule_changed_in_prose_fails(project, file, game, old, new, check):
    edit(project, file, old, new)
    assert [f.check for f in failed(project, game)] == [check]
