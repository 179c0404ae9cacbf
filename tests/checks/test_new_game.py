"""A game encoded from the README alone, as a new user would: its correct rulebook passes, and each slip of the
checker's classes — card values, removals, counts in words, rules in words — is one located ✗."""
import pytest

import pnpgen

DOCUMENT = """\
■お茶会（草案）

■コンポーネント
　３〜５人用
◇茶葉カード（４０枚）
　４種類の茶葉があり、１〜１０の数字が各種類１枚ずつあります。
◇菓子カード（１２枚）
　１〜６の数字が２枚ずつあります。

■準備
　３人プレイ時は、茶葉カードの９と１０を抜いてください。
　茶葉カードをよく混ぜ、各プレイヤーに５枚ずつ配ります。
　菓子カードは数字の小さい順に並べて場に置きます。

■進行
　スタートプレイヤーから時計回りに手番を行います。
　手番では手札から好きな１枚を出します。
　同じ数字なら、先に出した方が勝ちます。勝ったプレイヤーは５の菓子カードを受け取ることができます。
　得点は、取った菓子カードの数字の合計の半分（端数切り上げ）です。
"""

GAME = """\
games:
  - id: tea
    title: お茶会
    document: tea.txt
    rulebook: rules/tea.md
    players: {min: 3, max: 5}
    components:
      - id: leaves
        name: 茶葉カード
        front: card.svg.j2
        matrix:
          kind: [緑茶, 紅茶, 烏龍, 白茶]
          number: {from: 1, to: 10}
      - id: sweets
        name: 菓子カード
        front: card.svg.j2
        matrix:
          number: {from: 1, to: 6}
          copy: {from: 1, to: 2}
    expectations:
      - total: leaves
        equals: 40
        source: {document: tea.txt, quote: "◇茶葉カード（４０枚）"}
      - total: sweets
        equals: 12
        source: {document: tea.txt, quote: "◇菓子カード（１２枚）"}
      - setup: leaves
        players: [3]
        remove: {value: card.number >= 9, quote: "３人プレイ時は、茶葉カードの９と１０を抜いてください"}
        deal: 5
        rest: 残りは山にする。
        source: {document: tea.txt, quote: "各プレイヤーに５枚ずつ配ります"}
      - setup: leaves
        players: [4, 5]
        deal: 5
        rest: 残りは山にする。
        source: {document: tea.txt, quote: "各プレイヤーに５枚ずつ配ります"}
    figures:
      score_rounding: {kind: rounding, value: 切り上げ, words: [半分, 得点], quote: "得点は、取った菓子カードの数字の合計の半分（端数切り上げ）です"}
      turn_direction: {kind: direction, value: 時計回り, words: [手番], quote: "スタートプレイヤーから時計回りに手番を行います"}
      sweets_order: {kind: order, value: 小さい, words: [並べ], quote: "菓子カードは数字の小さい順に並べて場に置きます"}
      play_choice: {kind: choice, value: 好きな, words: [手札から], quote: "手番では手札から好きな１枚を出します"}
      play_count: {value: 1, words: [手札から], quote: "手番では手札から好きな１枚を出します"}
"""

RULEBOOK = """\
# お茶会

## コンポーネント

### 茶葉カード（４０枚）

４種類の茶葉があり、１〜１０の数字が各種類１枚ずつあります。

### 菓子カード（１２枚）

１〜６の数字が２枚ずつあります。

## 準備

1. ３人プレイ時は、茶葉カードの９と１０を抜きます（計８枚）。
2. 茶葉カードをよく混ぜ、各プレイヤーに５枚ずつ配ります。
3. 菓子カードは数字の小さい順に並べて場に置きます。

## 進行

スタートプレイヤーから時計回りに手番を行います。手番では、手札から好きな１枚を出します。

同じ数字なら、先に出した方が勝ちます。勝ったプレイヤーは５の菓子カードを受け取ることができます。

## 得点

取った菓子カードの数字の合計の半分（端数切り上げ）が得点です。
"""


@pytest.fixture()
def tea(tmp_path):
    project = tmp_path / "tea"
    for folder in ("documents", "games", "rules", "templates"):
        (project / folder).mkdir(parents=True)
    (project / "documents/tea.txt").write_text(DOCUMENT, encoding="utf-8")
    (project / "games/tea.yaml").write_text(GAME.replace("kind: [緑茶", "leaf: [緑茶"), encoding="utf-8")
    (project / "rules/tea.md").write_text(RULEBOOK, encoding="utf-8")
    (project / "templates/card.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}"/>{{ card.leaf }}', encoding="utf-8")
    (project / "cards.yaml").write_text("include: [games/tea.yaml]\n", encoding="utf-8")
    return project


def failures(project):
    return [(f.check, str(f.expected), str(f.found), f.location.line) for f in pnpgen.check(project) if f.status == "fail"]


def test_the_new_game_passes(tea):
    findings = pnpgen.check(tea)
    assert [f.line() for f in findings if f.status != "pass"] == []


@pytest.mark.parametrize("old,new,finding", [
    ("９と１０を抜きます（計８枚）", "８と９を抜きます（計８枚）", ("rulebook removal leaves at 3 players", "9、10", "8、9", 15)),
    ("９と１０を抜きます（計８枚）", "９と１０を抜きます（計１０枚）", ("rulebook count leaves", "17、32、40、8", "10", 15)),
    ("各プレイヤーに５枚ずつ", "各プレイヤーに六枚ずつ", ("rulebook setup deal", "5", "6", 16)),
    ("（端数切り上げ）", "（端数切り捨て）", ("rulebook rule score_rounding", "切り上げ", "切り捨て", 27)),
    ("数字の小さい順に並べて", "数字の大きい順に並べて", ("rulebook rule sweets_order", "小さい", "大きい", 17)),
    ("手札から好きな１枚", "手札からランダムに１枚", ("rulebook rule play_choice", "好きな", "ランダム", 21)),
    ("時計回りに手番", "反時計回りに手番", ("rulebook rule turn_direction", "時計回り", "反時計回り", 21)),
    ("勝ったプレイヤーは５の菓子カード", "勝ったプレイヤーは７の菓子カード", ("rulebook count sweets", "12", "7", 23)),
    ("### 茶葉カード（４０枚）", "### 茶葉カード（四十四枚）", ("rulebook count leaves", "40", "44", 5)),
    ("１〜６の数字が２枚ずつあります", "１〜６の数字が３枚ずつあります", ("rulebook count sweets", "1、12、2、6", "3", 11)),
    ("手札から好きな１枚を出します", "手札から好きな２枚を出します", ("rulebook figure play_count", "1", "2", 21)),
])
def test_a_slip_in_the_new_game_fails(tea, old, new, finding):
    path = tea / "rules/tea.md"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert failures(tea) == [finding]


@pytest.mark.parametrize("old,new", [
    ("９と１０を抜きます（計８枚）", "「９」と「１０」の茶葉カード（８枚）を取り除きます"),
    ("各プレイヤーに５枚ずつ配ります", "手札として、各自に五枚ずつ配ります"),
    ("（端数切り上げ）", "（端数は切上げ）"),
    ("勝ったプレイヤーは５の菓子カード", "勝ったプレイヤーは、数字が５の菓子カード"),
    ("１〜６の数字が２枚ずつあります", "数字は１〜６で、各数字２枚ずつ、計１２枚です"),
])
def test_a_correct_rewrite_in_the_new_game_passes(tea, old, new):
    path = tea / "rules/tea.md"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert failures(tea) == []
