"""What templates and maps print — a figure written into a template (「磐座 ３か所」), the data a map draws from (磐座 per
area), a map's `sheets:` and the sheet numbers its labels and join marks name: each slip is one located ✗, and a
correct rewrite (another numeral style, a reworded label, the same data written another way) passes."""
import pytest
from click.testing import CliRunner

import pnpgen
from pnpgen.checks.templatetext import find_printed_literals
from pnpgen.cli import main
from slips import edit, failed, line_of, located

MAP = "templates/otogi/map.svg.j2"
OTOGI_DATA = "games/otogi-taisen.yaml"
OTOGI = "otogi-taisen"
IWAKURA = "words.stones|replace('{n}', a.iwakura)"  # the data's words: a slip writes a literal in their place
MAJORITY = "words.majority|replace('{v}', v|zen if lang == 'ja' else v)"
SHEET_TOTAL = "words.sheet|replace('{n}', card.sheet)|replace('{m}', card.sheets)"
JOIN = "words.join|replace('{n}', other)"
LEGEND_END = "{#- 4. join marks"


def located_with_column(project, game):
    return [(f.check, str(f.expected), str(f.found), f.location.file, f.location.line, f.location.col)
            for f in failed(project, game)]


@pytest.mark.parametrize("old,new,check,expected,found,column", [
    # a literal in place of the data's count: full-width, kanji, and in the words of a label
    (IWAKURA, "'磐座 ３か所'", "figure iwakura_per_area", "4", "3", 13),
    (IWAKURA, "'磐座 三か所'", "figure iwakura_per_area", "4", "3", 13),
    (IWAKURA, "'磐座は３つ'", "figure iwakura_per_area", "4", "3", 13),
    # a figure the document states, written out in the middle of the legend's text
    (MAJORITY, "'マーカー最多のプレイヤーが４VP（'", "figure majority_vp", "3", "4", 103),
    # the sheet numbers a label and a join mark name
    (SHEET_TOTAL, "'／３'", "sheets area-map", "2", "3", 11),
    (JOIN, "'シート３と合わせる'", "sheets area-map", "1、2", "3", 13),
])
def test_a_number_written_into_a_template_fails_at_its_line(project, old, new, check, expected, found, column):
    edit(project, MAP, old, new)
    line = line_of(project, MAP, new)
    assert located_with_column(project, OTOGI) == [(f"template text otogi/map.svg.j2 {check}", expected, found, MAP, line,
                                                    column)]


HERO = "templates/otogi/hero.svg.j2"
HERO_LABEL = "card.words.hero, 5, 16.5"


@pytest.mark.parametrize("new,check,expected,found,column", [
    # a template only the hero cards draw with speaks of them when its text names no component
    ("'英雄（全５枚）', 5, 16.5", "count hero-cards", "4", "5", 14),
    ("'英雄（各種族２枚）', 5, 16.5", "count hero-cards", "1、4", "2", 16),
    ("'英雄（数字１３）', 5, 16.5", "count hero-cards", "12、4", "13", 15),
    ("'英雄・ゲーム中２回', 5, 16.5", "figure hero_per_game", "1", "2", 17),
])
def test_a_templates_text_speaks_of_the_component_it_draws(project, new, check, expected, found, column):
    edit(project, HERO, HERO_LABEL, new)
    line = line_of(project, HERO, new)
    assert located_with_column(project, OTOGI) == [(f"template text otogi/hero.svg.j2 {check}", expected, found, HERO, line,
                                                    column)]


@pytest.mark.parametrize("new", ["'英雄（全４枚）', 5, 16.5", "'英雄（各種族１枚）', 5, 16.5", "'英雄（数字１２）', 5, 16.5",
                                 "'英雄・ゲーム中一回', 5, 16.5"])
def test_a_templates_text_about_its_component_that_agrees_passes(project, new):
    edit(project, HERO, HERO_LABEL, new)
    assert failed(project, OTOGI) == []


def test_text_between_svg_tags_is_held_too(project):
    edit(project, MAP, LEGEND_END, '<text x="3" y="9" font-size="3">各エリアの磐座：三か所</text>\n' + LEGEND_END)
    line = line_of(project, MAP, "各エリアの磐座")
    assert located_with_column(project, OTOGI) == [("template text otogi/map.svg.j2 figure iwakura_per_area", "4", "3",
                                                    MAP, line, 41)]


@pytest.mark.parametrize("old,new", [
    (MAJORITY, "'マーカー最多のプレイヤーが３VP（'"),
    (MAJORITY, "'マーカー最多のプレイヤーが三ＶＰ（'"),
    (MAJORITY, "'マーカー最多のプレイヤーが3 VP（'"),
    (SHEET_TOTAL, "'／２'"),
    (SHEET_TOTAL, "' / 2'"),
    (JOIN, "'シート' ~ other ~ 'に合わせて置く'"),
])
def test_a_number_written_into_a_template_that_agrees_passes(project, old, new):
    edit(project, MAP, old, new)
    assert failed(project, OTOGI) == []


@pytest.mark.parametrize("new", ["'磐座 ４か所'", "'磐座 四箇所'", "'磐座：4'"])
def test_a_printed_figure_the_document_does_not_state_is_an_assumption(project, new):
    edit(project, MAP, IWAKURA, new)
    findings = [f for f in pnpgen.check(project, OTOGI) if f.location.file == MAP and "iwakura" in f.check]
    assert [(f.status, f.location.line, f.expected, f.found) for f in findings] == [
        ("warn", line_of(project, MAP, new), "not stated", 4)]
    assert findings[0].detail.startswith("assumption: the template prints 4, which the document does not state (各エリアの")


@pytest.mark.parametrize("old,new,check,expected,found,at", [
    # one area of the map drawn with three 磐座: the value's own line
    ("icon: mountain, iwakura: 4", "icon: mountain, iwakura: 3",
     "figure iwakura_per_area in defaults.area_style.*.iwakura", "4", "3", "icon: mountain, iwakura: 3"),
    # a race card with one skill fewer than an area has 磐座
    ("            - {occupied: 4, text: {ja: 【仮】共通スキル（占拠４）の効果テキスト未定。, en: \"[TBD] Common skill (4 stones): "
     "effect to come.\"}}\n", "", "figure iwakura_per_area in race-cards.skills|length", "4", "3", "    skills:"),
    # the map drawn with two of the three areas
    ("          order: [霊峰（仮）, 水郷（仮）, 古森（仮）]", "          order: [霊峰（仮）, 水郷（仮）]",
     "figure areas in area-map.order|length", "3", "2", "order: [霊峰（仮）, 水郷（仮）]"),
])
def test_a_count_the_map_or_cards_print_from_the_data_is_held_to_the_figure(project, old, new, check, expected, found,
                                                                           at):
    edit(project, OTOGI_DATA, old, new)
    held = [f for f in located(project, OTOGI) if not f[0].startswith("invariant ")]  # an invariant may hold it too
    assert held == [(check, expected, found, OTOGI_DATA, line_of(project, OTOGI_DATA, at))]


def test_sheets_for_a_sheet_that_does_not_exist_fail_at_the_sheets_line(project):
    edit(project, OTOGI_DATA, "          sheets: 2\n", "          sheets: 3\n")
    line = line_of(project, OTOGI_DATA, "sheets: 3")
    assert located(project, OTOGI) == [
        ("figure map_sheets in area-map.sheets", "2", "3", OTOGI_DATA, line),
        ("sheets area-map", "3", "2", OTOGI_DATA, line),
    ]
    detail = failed(project, OTOGI)[1].detail
    assert detail == ("sheets: 3, but no piece is sheet 3: sheet 2 prints a join mark to a sheet 3 that does not exist "
                      "and every label reads ／3; expected sheets: 2 or a card {sheet: 3}")


def test_a_sheet_beyond_the_maps_sheets_fails_at_its_card(project):
    edit(project, OTOGI_DATA, "          - {sheet: 2}\n", "          - {sheet: 2}\n          - {sheet: 3}\n")
    line = line_of(project, OTOGI_DATA, "{sheet: 3}")
    assert ("sheets area-map", "a sheet of 1–2", "3", OTOGI_DATA, line) in located(project, OTOGI)


def test_a_sheet_printed_twice_fails_at_its_card(project):
    edit(project, OTOGI_DATA, "          - {sheet: 2}\n", "          - {sheet: 2, copies: 2}\n")
    line = line_of(project, OTOGI_DATA, "{sheet: 2, copies: 2}")
    assert ("sheets area-map", "each sheet 1×", "sheet 2 2×", OTOGI_DATA, line) in located(project, OTOGI)


@pytest.mark.parametrize("old,new", [
    # the sheets as a matrix axis instead of cards, and in the other order
    ("        cards:\n          - {sheet: 1}\n          - {sheet: 2}\n",
     "        matrix:\n          sheet: {from: 1, to: 2}\n"),
    ("          - {sheet: 1}\n          - {sheet: 2}\n", "          - {sheet: 2}\n          - {sheet: 1}\n"),
    # the count written on each card rather than in the defaults
    ("          - {sheet: 1}\n          - {sheet: 2}\n",
     "          - {sheet: 1, sheets: 2}\n          - {sheet: 2, sheets: 2}\n"),
])
def test_sheets_written_another_way_pass(project, old, new):
    edit(project, OTOGI_DATA, old, new)
    assert failed(project, OTOGI) == []


def test_a_figure_in_names_data_that_exists(project):
    edit(project, OTOGI_DATA, "in: [area-map.sheets]", "in: [area-map.sheet_count]")
    assert located(project, OTOGI) == [("figure map_sheets in area-map.sheet_count", "2", "nothing", OTOGI_DATA,
                                        line_of(project, OTOGI_DATA, "map_sheets:"))]


def test_printed_literals_are_code_strings_and_text_between_tags_but_not_comments():
    source = ("{#- 「磐座 ９か所」 in a comment -#}\n"
              "{{ text('手札 ' ~ n ~ '枚', 1, 2, 3, 4) }}\n"
              '<text x="1">磐座 ３か所</text>\n'
              "{% set label = \"シート\" %}<rect fill=\"#fff\"/>")
    assert find_printed_literals(source) == (
        ("手札 ", source.index("手札")), ("枚", source.index("枚")), ("シート", source.index("シート")),
        ("磐座 ３か所", source.index("磐座 ３")))


@pytest.mark.parametrize("old,new,message", [
    ("      tricks: {value: 6, words: [トリック],",
     "      tricks: {value: players * 2, inputs: [players], in: [area-map.sheets], words: [トリック],",
     "'in' names the data that holds a number; an expression figure has no one value"),
    ("      turn_direction: {kind: direction,", "      turn_direction: {in: [area-map.sheets], kind: direction,",
     "'in' names the data that holds a number; a rule in words has none"),
])
def test_in_on_a_figure_without_one_number_is_a_located_error(project, old, new, message):
    edit(project, OTOGI_DATA, old, new)
    result = CliRunner().invoke(main, ["check", str(project)])
    output = result.output + result.stderr
    line = line_of(project, OTOGI_DATA, new)
    assert result.exit_code == 1 and f"{OTOGI_DATA}:{line}:" in output and message in output and "Traceback" not in output


@pytest.mark.parametrize("new,fails", [("'重ね順（１雀士３枚）'", False), ("'重ね順（１雀士４枚）'", True)])
def test_a_count_per_one_owner_is_read_as_per_owner(project, new, fails):
    """「１雀士３枚」, as the document writes it, counts per character: right at 3, wrong at 4."""
    player = "templates/three-times/player.svg.j2"
    edit(project, player, "card.words.stack_order", new)
    found = [(f.check, f.found, f.location.line) for f in failed(project, "three-times-undress")]
    assert found == ([("template text three-times/player.svg.j2 count mahjong-players", 4, line_of(project, player, new))]
                     if fails else [])
