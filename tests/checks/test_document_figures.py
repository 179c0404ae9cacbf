"""Slips between the documents and the data: quotes carry numbers, cited documents exist, `known:` excuses one
figure, setup figures cite their own phrases, combinations and names, rule figures. Each test applies one slip to
a copy of the bundled project and asserts the exact finding."""
import json

import pytest
from click.testing import CliRunner

import pnpgen
from pnpgen.cli import main

from slips import edit, failed

TTU = "games/three-times-undress.yaml"
OTOGI = "games/otogi-taisen.yaml"
LWS = "games/last-wan-standing-quickdraw.yaml"


def by_check(findings):
    return {f.check: f for f in findings}


# 1. Quotes carry numbers --------------------------------------------------------------------------------------

def test_equals_edited_with_the_data_still_disagrees_with_the_quote(project):
    edit(project, OTOGI, "        equals: 32\n", "        equals: 24\n")
    edit(project, OTOGI, "copy: {from: 1, to: 8}", "copy: {from: 1, to: 6}")
    edit(project, OTOGI, "        each: 8\n", "        each: 6\n")
    found = by_check(failed(project, "otogi-taisen"))
    total = found["total markers: equals as the document states"]
    assert (total.expected, total.found, total.figure) == (32, 24, "equals")
    assert "the quote states ３２" not in total.detail and "the quote states 32, not 24" in total.detail
    assert found["per markers by race: each as the document states"].detail.startswith("the quote states 8, not 6")
    assert "total markers" not in found and "per markers by race (each)" not in found


def test_a_distribution_edited_with_the_data_fails_value_by_value(project):
    edit(project, TTU, "- {number: 7, copies: 5}", "- {number: 7, copies: 4}")
    edit(project, TTU, "- {number: 6, copies: 4}", "- {number: 6, copies: 5}")
    edit(project, TTU, "equals: {1: 10, 2: 7, 3: 7, 4: 6, 5: 6, 6: 5, 7: 5}", "equals: {1: 10, 2: 7, 3: 7, 4: 6, 5: 6, 6: 6, 7: 4}")
    found = by_check(failed(project, "three-times-undress"))
    stated = found["distribution battle-cards by number: equals as the document states"]
    assert stated.detail == "6: the quote states 5, equals says 6; 7: the quote states 5, equals says 4"


def test_ron_pairs_in_the_quote_are_read(project):
    edit(project, TTU, "equals: {2: 1, 3: 1, 4: 2, 5: 2, 6: 1}", "equals: {2: 1, 3: 1, 4: 2, 5: 1, 6: 2}")
    edit(project, TTU, "          - number: 5\n            copies: 2\n            ron: true",
         "          - number: 5\n            copies: 1\n            ron: true")
    edit(project, TTU, "- {number: 5, copies: 4}", "- {number: 5, copies: 5}")
    edit(project, TTU, "          - number: 6\n            ron: true", "          - number: 6\n            copies: 2\n            ron: true")
    edit(project, TTU, "- {number: 6, copies: 4}", "- {number: 6, copies: 3}")
    stated = by_check(failed(project, "three-times-undress"))[
        "distribution battle-cards by number where card.ron: equals as the document states"]
    assert "5: the quote states 2, equals says 1" in stated.detail and "6: the quote states 1, equals says 2" in stated.detail


def test_a_kanji_numeral_in_the_quote_is_read(project):
    (project / "documents" / "kanji.txt").write_text("〇カード（四十六枚）\n", encoding="utf-8")
    edit(project, TTU, 'source: {document: 001_e1dff157cadda2dc.txt, quote: "〇闘牌カード（４６枚）"}',
         'source: {document: kanji.txt, quote: "〇カード（四十六枚）"}')
    edit(project, TTU, "        equals: 46\n", "        equals: 45\n")
    found = by_check(failed(project, "three-times-undress"))
    assert found["total battle-cards: equals as the document states"].detail.startswith("the quote states 46, not 45")


def test_a_quote_without_a_figure_is_an_assumption_not_a_citation():
    findings = pnpgen.check(pnpgen.__path__[0] + "/..", "otogi-taisen")
    sheets = by_check(findings)["total area-map: equals as the document states"]
    assert sheets.status == "warn" and sheets.detail.startswith("assumption:")
    assert sheets.expected == "not stated" and sheets.source.quote == "◇エリアマップ（　枚）"


# 2. A cited document must exist inside documents/ ------------------------------------------------------------

@pytest.mark.parametrize("name,message", [
    ("003_04ce32e9bd80a31d.txt", "documents/003_04ce32e9bd80a31d.txt does not exist; did you mean '003_04ce32e9bd80a31c.txt'?"),
    ("../cards.yaml", "'../cards.yaml' is a path out of documents/; expected the name of a file inside documents/"),
    ("/etc/hostname", "'/etc/hostname' is a path out of documents/; expected the name of a file inside documents/"),
])
def test_a_cited_document_must_be_a_file_inside_documents(project, name, message):
    edit(project, OTOGI, 'quote: "◇マーカー（３２個）"}', 'quote: "◇マーカー（３２個）"}'.replace("{", "{"))
    text = (project / OTOGI).read_text(encoding="utf-8")
    text = text.replace('{document: 003_04ce32e9bd80a31c.txt, quote: "◇マーカー（３２個）"}',
                        '{document: ' + name + ', quote: "◇マーカー（３２個）"}')
    (project / OTOGI).write_text(text, encoding="utf-8")
    cited = [f for f in failed(project, "otogi-taisen") if f.check == "cited document"]
    assert len(cited) == 1 and cited[0].detail == message and cited[0].location.file == OTOGI


def test_no_documents_folder_fails_every_citation(project):
    import shutil

    shutil.rmtree(project / "documents")
    cited = [f for f in failed(project, "otogi-taisen") if f.check in ("cited document", "game document")]
    assert cited and all("the project has no documents/ folder" in f.detail for f in cited)


def test_a_documents_folder_that_links_out_of_the_project_is_not_read(project, tmp_path):
    import shutil

    outside = tmp_path / "outside"
    shutil.move(project / "documents", outside)
    (project / "documents").symlink_to(outside)
    cited = [f for f in failed(project, "otogi-taisen") if f.check in ("cited document", "game document")]
    assert cited and all("is not a plain file inside the project" in f.detail for f in cited)


def test_a_link_in_documents_is_not_read(project):
    target = project / "documents" / "003_04ce32e9bd80a31c.txt"
    target.rename(project / "elsewhere.txt")
    target.symlink_to(project / "elsewhere.txt")
    cited = [f for f in failed(project, "otogi-taisen") if f.check == "cited document"]
    assert cited and "is not a plain file" in cited[0].detail


# 3. known: excuses one figure ---------------------------------------------------------------------------------

def test_a_wrong_removal_does_not_hide_behind_the_known_contradiction(project):
    edit(project, TTU, "remove: {value: card.number == 1,", "remove: {value: card.number <= 2,")
    result = CliRunner().invoke(main, ["check", str(project), "--game", "three-times-undress"])
    assert result.exit_code == 1
    found = by_check(failed(project, "three-times-undress"))
    removed = found["setup battle-cards at 3 players: pieces removed as the document states"]
    assert (removed.expected, removed.found) == ("1", "number 1, 2")
    warned = by_check(pnpgen.check(project, "three-times-undress"))
    assert warned["setup battle-cards at 3 players: pieces needed ≤ available"].status == "warn"


def test_a_changed_hand_size_fails_although_the_setup_is_known(project):
    edit(project, TTU, 'deal: {value: 4, quote: "３人プレイ時は、４枚配って手札としてください"}',
         'deal: {value: 5, quote: "３人プレイ時は、４枚配って手札としてください"}')
    deal = by_check(failed(project, "three-times-undress"))["setup battle-cards at 3 players: deal as the document states"]
    assert deal.detail.startswith("the quote states 4, not 5")


def test_known_must_name_a_figure_the_expectation_checks(project):
    edit(project, TTU, "          needed: {ja: 草案２の矛盾。", "          neded: {ja: 草案２の矛盾。")
    found = [f for f in failed(project, "three-times-undress") if f.figure == "known"]
    assert len(found) == 1 and "known: names 'neded', which this expectation does not check" in found[0].detail
    assert "needed" in found[0].detail  # the list of figures it could name


def test_known_as_plain_text_is_a_located_error(project):
    edit(project, TTU, "        known:\n          needed: {ja: 草案２の矛盾。４枚配ると 12＋21＋王牌6＝39 枚が必要で、「１」を抜いた36枚では3枚足りない。,",
         "        known: 草案２の矛盾。\n        x_needed: {ja: x,")
    edit(project, TTU, "          arithmetic: {ja:", "        x_arithmetic: {ja:")
    result = CliRunner().invoke(main, ["check", str(project)])
    assert result.exit_code == 1 and "'known' must name the figure it excuses" in result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr


# 4. Setup figures are first-class -----------------------------------------------------------------------------

@pytest.mark.parametrize("old,new,check,detail", [
    ('deal: {value: 3, quote: "各プレイヤーに３枚ずつ配って手札とします"}', 'deal: {value: 4, quote: "各プレイヤーに３枚ずつ配って手札とします"}',
     "setup battle-cards at 4 players: deal as the document states", "the quote states 3, not 4"),
    ('set_aside: {value: 2, quote: "４人プレイ時は２枚、', 'set_aside: {value: 6, quote: "４人プレイ時は２枚、',
     "setup battle-cards at 4 players: set_aside as the document states", "the quote states 2, not 6"),
    ("        turns: 7\n        stated_needed: 40", "        turns: 6\n        stated_needed: 40",
     "setup battle-cards at 4 players: turns as the document states", "the quote states 4、7、3、40, not 6"),
])
def test_each_setup_figure_is_held_to_its_phrase(project, old, new, check, detail):
    edit(project, TTU, old, new)
    found = by_check(failed(project, "three-times-undress"))
    assert found[check].detail.startswith(detail)


def test_otogi_hand_size(project):
    edit(project, OTOGI, "        players: [4]\n        deal: 8", "        players: [4]\n        deal: 7")
    found = by_check(failed(project, "otogi-taisen"))
    assert found["setup area-cards at 4 players: deal as the document states"].detail.startswith("the quote states 8, not 7")


def test_cards_left_unaccounted_for_are_a_warning_until_the_data_says_where_they_go(project):
    rest = by_check(pnpgen.check(project, "three-times-undress"))["setup battle-cards at 4 players: pieces left over"]
    assert (rest.status, rest.found) == ("warn", 4) and "does not say where they go" in rest.detail
    edit(project, TTU, "        turns: 7\n        stated_needed: 40", "        turns: 7\n        rest: 山に残る。\n        stated_needed: 40")
    rest = by_check(pnpgen.check(project, "three-times-undress"))["setup battle-cards at 4 players: pieces left over"]
    assert rest.status == "pass" and "山に残る。" in rest.detail


# 5. Combinations and names ------------------------------------------------------------------------------------

def written_out_area_cards(swap: bool = False) -> str:
    areas = ["霊峰（仮）", "水郷（仮）", "古森（仮）"]
    cards = [(a, n) for a in areas for n in range(1, 12)]
    if swap:  # two mislabels that cancel out: the suit and number counts stay right
        cards[2] = (areas[1], 3)
        cards[11 + 4] = (areas[0], 5)
    return "\n".join(f"          - {{area: {a}, number: {n}, tbd: [area]}}" for a, n in cards)


def use_written_out_cards(project, swap=False):
    edit(project, OTOGI, "        matrix:\n          area: [霊峰（仮）, 水郷（仮）, 古森（仮）]\n          number: {from: 1, to: 11}\n"
                         "        cards:\n          - {tbd: [area]}",
         "        cards:\n" + written_out_area_cards(swap))


def test_a_matrix_written_out_card_by_card_passes(project):
    use_written_out_cards(project)
    assert failed(project, "otogi-taisen") == []


def test_two_mislabels_that_cancel_out_fail_the_combinations(project):
    use_written_out_cards(project, swap=True)
    found = failed(project, "otogi-taisen")
    assert [f.check for f in found] == ["combinations area-cards of area × number"]
    assert "水郷（仮）・3 ×2" in found[0].detail and "霊峰（仮）・3 missing" in found[0].detail


def test_a_race_misspelled_on_one_component_fails_names(project):
    edit(project, OTOGI, "          race: [烏天狗, 河童, 狗神, 鬼族]\n          copy:", "          race: [烏天狗, 河重, 狗神, 鬼族]\n          copy:")
    found = [f for f in failed(project, "otogi-taisen") if f.check == "names race in markers"]
    assert len(found) == 1 and found[0].detail.startswith("not in the list: 河重") and "missing: 河童" in found[0].detail


def test_a_player_colour_that_differs_between_chips_fails_names(project):
    edit(project, LWS, "          player: [赤, 青, 緑, 黄, 紫, 桃, 黒]\n          aim:", "          player: [赤, 青, 緑, 黄, 紫, 桃, 白]\n          aim:")
    checks = {f.check for f in failed(project, "last-wan-standing-quickdraw")}
    assert "names player in target-chips" in checks


def test_copies_written_as_separate_cards_pass(project):
    edit(project, TTU, "- {number: 1, copies: 10}", "\n".join(["- {number: 1, copies: 4}", "          - {number: 1, copies: 6}"]))
    assert failed(project, "three-times-undress") == []


# 6. Rule figures ----------------------------------------------------------------------------------------------

def test_a_rule_figure_changed_in_the_data_fails_against_its_quote(project):
    edit(project, OTOGI, "tricks: {value: 6,", "tricks: {value: 7,")
    found = by_check(failed(project, "otogi-taisen"))
    assert found["figure tricks: value as the document states"].detail.startswith("the quote states 1、6, not 7")
    assert "rulebook figure tricks" in found  # the rulebook's １ラウンドは６トリック now disagrees with the data


def test_a_rule_expression_is_held_to_the_documents_examples(project):
    edit(project, LWS, "value: players - bullet\n", "value: players - bullet + 1\n")
    found = [f for f in failed(project, "last-wan-standing-quickdraw") if f.check.startswith("figure quickdraw_downs")]
    assert found[0].check == "figure quickdraw_downs at players=4, bullet=1" and (found[0].expected, found[0].found) == (3, 4)


def test_the_rulebook_reads_figures_through_expressions(project):
    edit(project, "rules/otogi-taisen.md", "１ラウンドは６トリックで構成され、３ラウンドが終わるとゲームが終了します。最後に",
         "１ラウンドは{{ figure('tricks')|zen }}トリックで構成されます。最後に")
    edit(project, OTOGI, "tricks: {value: 6,", "tricks: {value: 7,")
    from pnpgen.rules.context import make_context
    from pnpgen.project.validate import load_project

    game = load_project(project).game("otogi-taisen")
    assert make_context(game)["figure"]("tricks") == 7
    assert make_context(game)["figure"]("majority_vp") == 3


def test_json_adds_col_and_figure(project):
    edit(project, OTOGI, "        players: [4]\n        deal: 8", "        players: [4]\n        deal: 7")
    result = CliRunner().invoke(main, ["check", str(project), "--json", "--game", "otogi-taisen"])
    data = json.loads(result.output)
    deal = [f for f in data["findings"] if f["check"] == "setup area-cards at 4 players: deal as the document states"][0]
    assert (deal["status"], deal["figure"], deal["col"], data["version"]) == ("fail", "deal", 9, 1)


def test_a_colour_table_key_that_no_longer_names_a_race_fails_names(project):
    edit(project, OTOGI, "        河童: {name: {ja: 河童", "        かっぱ: {name: {ja: 河童")
    found = [f for f in failed(project, "otogi-taisen") if f.check == "names race in defaults.race_style"]
    assert len(found) == 1 and found[0].detail == "not in the list: かっぱ (defaults.race_style); missing: 河童"


@pytest.mark.parametrize("old,new,message", [
    ("      tricks: {value: 6, words: [トリック], quote: \"１ラウンドは６トリックで構成され\"}",
     "      tricks: 6", "figure 'tricks' must be a mapping with 'value:' and 'quote:'"),
    ("        value: players - bullet\n        inputs: [players, bullet]\n", "        value: players - bullet\n",
     "an expression figure needs 'inputs:', the names it takes, such as [players, bullet]"),
    ("examples: [{players: 4, bullet: 1, value: 3},", "examples: [{players: 4, value: 3},",
     "an example gives every input (players, bullet) and the 'value' the document states"),
    ("        in: [race-cards, hero-cards, markers, defaults.race_style]", "        in: [race-cards, heroes]",
     "'heroes' is not a component of this game"),
    ("owners: {value: 4, quote: \"「烏天狗」「河童」「狗神」「鬼族」の４つの種族を表すカードです\"}\n        source: {document: 003_04ce32e9bd80a31c.txt, quote: \"各種族に",
     "owners: {value: 4}\n        source: {document: 003_04ce32e9bd80a31c.txt, quote: \"各種族に",
     "'owners' needs 'quote:', the phrase that states it, or 'assumed:', why it stands without one"),
])
def test_malformed_figures_are_located_errors_never_tracebacks(project, old, new, message):
    file = LWS if "bullet" in old else OTOGI
    edit(project, file, old, new)
    result = CliRunner().invoke(main, ["check", str(project)])
    output = result.output + result.stderr
    assert result.exit_code == 1 and message in output and "Traceback" not in output
    assert f"{file}:" in output


def test_an_expression_figure_that_fails_is_a_finding(project):
    edit(project, LWS, "value: players - bullet\n", "value: players // (bullet - bullet)\n")
    found = [f for f in failed(project, "last-wan-standing-quickdraw") if f.check.startswith("figure quickdraw_downs at")]
    assert found and str(found[0].found).startswith("error:")


def test_the_games_player_range_is_held_to_the_document(project):
    edit(project, TTU, "    players: {min: 3, max: 4}", "    players: {min: 3, max: 5}")
    found = by_check(failed(project, "three-times-undress"))
    assert (found["players: max_players"].expected, found["players: max_players"].found) == (4, 5)


def test_a_special_file_in_documents_is_never_opened(project):
    import os

    os.mkfifo(project / "documents" / "pipe.txt")  # opening a FIFO would wait for a writer for ever
    edit(project, OTOGI, '{document: 003_04ce32e9bd80a31c.txt, quote: "◇マーカー（３２個）"}', '{document: pipe.txt, quote: "◇マーカー（３２個）"}')
    cited = [f for f in failed(project, "otogi-taisen") if f.check == "cited document"]
    assert len(cited) == 1 and "is not a plain file" in cited[0].detail


def plain(value):
    if hasattr(value, "items"):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


@pytest.mark.parametrize("game_file,component", [(TTU, "mahjong-players"), (OTOGI, "area-cards"), (OTOGI, "markers")])
def test_every_matrix_written_out_card_by_card_passes(project, game_file, component):
    """A correct rewrite: the cards a matrix makes, typed out one by one (game defaults stay in the game). The
    chips are left out: a component that others extend would hand its written-out cards to them."""
    import yaml

    from pnpgen.project.validate import load_project

    loaded = load_project(project)
    game = next(g for g in loaded.games if g.component(component))
    cards = [{**{k: plain(v) for k, v in card.fields.items() if k not in game.defaults},
              **({"tbd": list(card.tbd)} if card.tbd else {}), "copies": card.copies}
             for card in game.component(component).cards]
    path = project / game_file
    text = path.read_text(encoding="utf-8")
    start = text.index(f"      - id: {component}\n")
    end = text.find("\n      - id: ", start + 1)
    end = text.index("\n    expectations:") if end < 0 else end
    block = text[start:end]
    head = block[:block.index("\n        matrix:")] if "\n        matrix:" in block else block[:block.index("\n        cards:")]
    head = "\n".join(line for line in head.splitlines() if not line.startswith("        defaults:")
                     and not line.startswith("          ") or line.startswith("        "))
    written = yaml.safe_dump(cards, allow_unicode=True, default_flow_style=True, width=10_000)
    items = "\n".join("          - " + yaml.safe_dump(c, allow_unicode=True, default_flow_style=True, width=10_000).strip()
                      for c in cards)
    path.write_text(text[:start] + head.split("\n        defaults:")[0] + "\n        cards:\n" + items + text[end:], encoding="utf-8")
    assert written and failed(project, game.id) == []
