"""The condition a figure belongs to — a player count written before it (４人なら, ３人プレイ時は, ３人の場合), in a
heading or in a list's lead line — and the subject a sentence without a noun takes from the heading or sentence
before it; and card values named bare (９と１０を抜く, ５の闘牌カード), read as values and held to the removal."""
import pytest

from slips import append, edit, failed, line_of, located

TTU_RULES = "rules/three-times-undress.md"
OTOGI_RULES = "rules/otogi-taisen.md"
TTU = "three-times-undress"
OTOGI = "otogi-taisen"


@pytest.mark.parametrize("file,game,text,offset,check,expected,found", [
    # the hand size of the other player count, under 「N人なら」
    (OTOGI_RULES, OTOGI, "４人なら各自９枚、３人なら各自８枚を配ります。", 0, "rulebook setup deal", "8", "9"),
    (TTU_RULES, TTU, "手札は、４人なら各自４枚です。", 0, "rulebook setup deal", "3", "4"),
    (TTU_RULES, TTU, "３人の場合、【王牌】は２枚です。", 0, "rulebook setup set_aside", "6", "2"),
    # a heading states the player count
    (OTOGI_RULES, OTOGI, "### ３人プレイの場合\n\n手札は各自７枚です。", 2, "rulebook setup deal", "8", "7"),
    (TTU_RULES, TTU, "### ３人プレイの場合\n\n手札は各自３枚です。", 2, "rulebook setup deal", "4", "3"),
    (TTU_RULES, TTU, "### ４人プレイの場合\n\n各プレイヤーに３枚ずつ配ります。【王牌】は６枚です。", 2, "rulebook setup set_aside", "2", "6"),
    # a list's lead line states it
    (TTU_RULES, TTU, "４人プレイ時：\n\n- 手札：３枚\n- 【王牌】：６枚", 3, "rulebook setup set_aside", "2", "6"),
    (TTU_RULES, TTU, "### ４人プレイ時：\n\n- 手札：４枚\n- 【王牌】：２枚", 2, "rulebook setup deal", "3", "4"),
    # a sentence without a noun takes it from the sentence or the heading before it
    (TTU_RULES, TTU, "闘牌カードは４６枚です。このうち八枚は、ロンできるカードです。", 0, "rulebook count battle-cards", "46、7", "8"),
    (OTOGI_RULES, OTOGI, "### マーカー\n\n各種族毎に７個ずつあります。", 2, "rulebook count markers", "1、32、4、8", "7"),
])
def test_a_figure_of_another_condition_fails(project, file, game, text, offset, check, expected, found):
    line = append(project, file, text) + offset
    assert located(project, game) == [(check, expected, found, file, line)]


@pytest.mark.parametrize("file,game,text", [
    (OTOGI_RULES, OTOGI, "### ３人プレイの場合\n\n手札は各自８枚です。"),
    (TTU_RULES, TTU, "### ３人プレイの場合\n\n闘牌カードの「１」を抜いた３６枚を使い、各プレイヤーに４枚ずつ配ります。【王牌】は６枚です。"),
    (TTU_RULES, TTU, "### ４人プレイの場合\n\n闘牌カード４６枚をすべて使い、各プレイヤーに３枚ずつ配ります。【王牌】は２枚です。"),
    (TTU_RULES, TTU, "４人プレイ時：\n\n- 手札：３枚\n- 【王牌】：２枚\n\n３人プレイ時：\n\n- 手札：４枚\n- 【王牌】：６枚"),
    (TTU_RULES, TTU, "- 手札：４人プレイでは３枚、３人プレイでは４枚\n- 【王牌】：４人プレイでは２枚、３人プレイでは６枚"),
    (TTU_RULES, TTU, "手札は、３人なら各自４枚、４人なら各自３枚です。"),
    (OTOGI_RULES, OTOGI, "３人プレイでは、配られずに残るエリアカードは３枚です。"),
    (OTOGI_RULES, OTOGI, "４人プレイでは、配られずに残るエリアカードは１枚です。"),
    (TTU_RULES, TTU, "闘牌カードは４６枚です。このうち七枚は、ロンできるカードです。"),
    (OTOGI_RULES, OTOGI, "### マーカー\n\n各種族毎に８個ずつあります。"),
])
def test_a_figure_of_its_own_condition_passes(project, file, game, text):
    append(project, file, text)
    assert failed(project, game) == []


@pytest.mark.parametrize("file,game,old,new,text,check,expected,found", [
    (OTOGI_RULES, OTOGI, "３人プレイ時は、エリアカードの「１０」と「１１」を抜き", "３人プレイ時は、エリアカードの９と１０を抜き", None,
     "rulebook removal area-cards at 3 players", "10、11", "9、10"),
    (TTU_RULES, TTU, None, None, "３人プレイでは、７の闘牌カードを抜きます。", "rulebook removal battle-cards at 3 players", "1", "7"),
])
def test_card_values_a_sentence_takes_out_are_the_removals(project, file, game, old, new, text, check, expected, found):
    if text:
        line = append(project, file, text)
    else:
        edit(project, file, old, new)
        line = line_of(project, file, new)
    assert located(project, game) == [(check, expected, found, file, line)]


@pytest.mark.parametrize("file,game,text", [
    (OTOGI_RULES, OTOGI, "３人プレイなら、エリアカードの10と11を取り除きます。"),  # values, not counts, and the right ones
    (OTOGI_RULES, OTOGI, "３人プレイ時は、１０と１１のエリアカードを使いません。"),
    (OTOGI_RULES, OTOGI, "エリアカードの５を１枚抜きます。"),
    (OTOGI_RULES, OTOGI, "5のエリアカードは各スートに１枚ずつあります。"),
    (TTU_RULES, TTU, "３人プレイでは、１の闘牌カードを抜きます。"),
    (TTU_RULES, TTU, "闘牌カードの6と7は、ロンできないカードです。"),
])
def test_card_values_named_bare_pass(project, file, game, text):
    append(project, file, text)
    assert failed(project, game) == []


@pytest.mark.parametrize("file,game,old,new,check,expected,found", [
    # an ordinal that says when the game ends states the number of rounds
    (OTOGI_RULES, OTOGI, "３ラウンド目が終わったら、ゲームが終了します。", "４ラウンド目が終わったら、ゲームが終了します。",
     "rulebook figure rounds", "3", "4"),
    # card text without a noun speaks of its own component; a number that ends the sentence is read too
    ("games/otogi-taisen.yaml", OTOGI, "{ja: リードと同じスートがない時に出せる切札。", "{ja: リードと同じスートがない時に出せる切札。数字は１３。",
     "card text hero-cards.text count hero-cards", "12、4", "13"),
])
def test_ordinals_of_the_end_and_card_text_subjects(project, file, game, old, new, check, expected, found):
    edit(project, file, old, new)
    line = line_of(project, file, new.strip())
    assert located(project, game) == [(check, expected, found, file, line)]


@pytest.mark.parametrize("file,game,text", [
    (OTOGI_RULES, OTOGI, "２ラウンド目終了時は「１」と「２」の磐座のマーカーが残ります。"),  # an ordinal, not the last round
    (OTOGI_RULES, OTOGI, "３ラウンド目が終わると、ゲームの終了です。"),
    (TTU_RULES, TTU, "３回目の脱衣ができないとき、ゲームが終了します。"),
])
def test_ordinals_that_agree_pass(project, file, game, text):
    append(project, file, text)
    assert failed(project, game) == []


LWS_RULES = "rules/last-wan-standing-quickdraw.md"
LEFT_OVER = "| 配られずに残るカード | {{ count('area-cards', where='card.number < 10') - 8 * 3 }}枚 | {{ count('area-cards') - 8 * 4 }}枚 |"
BULLETS = ("最低人数である{{ players|first|zen }}人プレイの場合、バレットチップは１〜{{ figure('bullet_numbers', players=players|first)|zen }}"
           "の{{ figure('bullet_numbers', players=players|first)|zen }}枚と、downの計{{ (figure('bullet_numbers', players=players|first) + 1)|zen }}枚を使います。")
CHARACTERS = "{{ values('mahjong-players', 'character')|length|zen }}人の雀士に、それぞれ{{ each('mahjong-players', 'character')|zen }}枚のカードがあり"


@pytest.mark.parametrize("file,game,old,new,finding", [
    (OTOGI_RULES, OTOGI, LEFT_OVER, "| 配られずに残るカード | 3枚 | 1枚 |", None),  # typed out: cards left, not a deal
    (OTOGI_RULES, OTOGI, LEFT_OVER, "| 配られずに残るカード | 3枚 | 2枚 |", ("rulebook count area-cards", "1、33", "2")),
    (LWS_RULES, "last-wan-standing-quickdraw", BULLETS, "最低人数である４人プレイの場合、バレットチップは１〜３の３枚と、downの計４枚を使います。", None),
    (TTU_RULES, TTU, CHARACTERS, "５人の雀士に、それぞれ３枚のカードがあり", None),
    # 脱衣 (a figure counted in 回) in the same sentence does not hide the count from the heading's component
    (TTU_RULES, TTU, CHARACTERS, "５人の雀士に、それぞれ４枚のカードがあり", ("rulebook count mahjong-players", "1、15、2、3、5", "4")),
])
def test_expressions_typed_out(project, file, game, old, new, finding):
    edit(project, file, old, new)
    expected = [finding + (file, line_of(project, file, new))] if finding else []
    assert located(project, game) == expected
