"""A project of two languages: per-language values (a mapping, or name@en beside name in YAML and spreadsheets) read
into editions whose cards hold one language's text in the same shape, every mistake reported where it is written."""
from __future__ import annotations

import shutil
import tracemalloc
from pathlib import Path

import pytest

from pnpgen.errors import PnpError
from pnpgen.project.editions import edition
from pnpgen.project.translations import find_missing
from pnpgen.project.validate import load_project

FIXTURES = Path(__file__).parent.parent / "fixtures"


def names(project, component="winds"):
    return [card.fields["name"] for card in project.games[0].component(component).cards]


def write_project(root: Path, cards: str, languages: str = "[ja, en]", extra: str = "") -> Path:
    (root / "templates").mkdir(parents=True, exist_ok=True)
    (root / "templates" / "f.svg.j2").write_text("<rect/>", encoding="utf-8")
    (root / "cards.yaml").write_text(f"project:\n  languages: {languages}\ngames:\n  - id: g\n    title: G\n"
                                     f"    components:\n      - id: deck\n        front: f.svg.j2\n{extra}"
                                     f"        cards:\n{cards}", encoding="utf-8")
    return root


def problems_of(root: Path) -> list[str]:
    with pytest.raises(PnpError) as caught:
        load_project(root)
    return [str(problem) for problem in caught.value.problems]


def test_the_original_edition_is_what_load_project_gives_and_english_is_the_same_cards_in_english():
    project = load_project(FIXTURES / "two-editions")
    assert project.languages == ("ja", "en") and project.language == "ja"
    assert names(project) == ["東風", "南風", "西風", "北風"] and project.games[0].title == "風の札"
    english = edition(project, "en")
    assert english.language == "en" and english.games[0].title == "Wind Cards"
    assert names(english) == ["East Wind", "South Wind", "West Wind", "North Wind"]
    assert [c.fields["effect"] for c in english.games[0].components[0].cards] == [
        "Draw 2 cards.", "Gain 3 points.", "No effect.", "Discard 4 cards."]  # the third inherits the default's
    assert [c.name for c in english.games[0].components] == ["Wind cards", "Score chips"]
    assert [dict(c.fields) for c in english.games[0].component("chips").cards] == [
        {"value": 1, "label": "One"}, {"value": 5, "label": "Five"}]  # label@en: a spreadsheet's column
    for japanese, translated in zip(project.games[0].components, english.games[0].components):
        for a, b in zip(japanese.cards, translated.cards):  # numbers and places stay as they are
            assert (a.copies, a.location, a.fields.get("number")) == (b.copies, b.location, b.fields.get("number"))
    assert str(english.games[0].components[0].cards[3].where("name")) == "cards.yaml:21:31"
    assert edition(english) == project and edition(english, "en") is english
    assert "name@en" not in dict(project.games[0].components[0].field_locations)
    assert find_missing(project, ("en",)) == []


def test_a_project_without_languages_is_read_exactly_as_before():
    project = load_project(FIXTURES / "minimal")
    assert project.languages == () and project.language is None and project.texts is None
    assert edition(project) is project
    with pytest.raises(PnpError, match=r"^--lang en: the project has one language; expected `project: "):
        edition(project, "en")
    with pytest.raises(PnpError, match=r"^--lang fr: not one of the project's languages; expected one of: ja, en"):
        edition(load_project(FIXTURES / "two-editions"), "fr")


def test_without_languages_a_mapping_of_language_codes_and_a_tagged_key_stay_fields(tmp_path):
    root = write_project(tmp_path, "          - {name: {ja: 東風, en: East}, name@en: East}\n", languages="[ja]")
    card = load_project(root).games[0].components[0].cards[0]
    assert dict(card.fields["name"]) == {"ja": "東風", "en": "East"} and card.fields["name@en"] == "East"


@pytest.mark.parametrize("languages, message", [
    ("[jp, en]", "cards.yaml:2:15: unknown language code text 'jp'; expected a two-letter ISO 639-1 code such as "
                 "ja or en; did you mean 'ja'?"),
    ("[ja, en, ja]", "cards.yaml:2:23: 'ja' is listed twice; expected each language once"),
    ("ja", "cards.yaml:2:14: 'languages' must be a list of language codes, the original first, such as [ja, en]; "
           "found text 'ja'"),
])
def test_a_bad_list_of_languages_is_reported_at_its_item(tmp_path, languages, message):
    assert problems_of(write_project(tmp_path, "          - {name: a}\n", languages=languages)) == [message]


@pytest.mark.parametrize("card, message", [
    ("{name: {ja: 東風, fr: Vent}}", "cards.yaml:10:20: 'name': 'fr' is not one of the project's languages (ja, en); "
                                   "add it to project: languages, or expected one of the project's languages (ja, en)"),
    ("{name: {ja: 東風, eng: East}}", "cards.yaml:10:20: 'name': unknown language code text 'eng'; expected one of "
                                    "the project's languages (ja, en); did you mean 'en'?"),
    ("{name: {en: East}}", "cards.yaml:10:20: 'name' has no text in ja, the original language; expected "
                           "{ja: …, en: …}"),
    ("{cost: {ja: 3, en: 3}}", "cards.yaml:10:20: 'cost': 'cost' in ja is 3; only text has one value per language "
                               "(numbers and ids stay single)"),
    ("{name: 東風, name@fr: Vent}", "cards.yaml:10:33: 'name@fr': 'fr' is not one of the project's languages (ja, en); "
                                  "add it to project: languages, or expected one of the project's languages (ja, en)"),
    ("{name: 東風, name@ja: 東}", "cards.yaml:10:33: 'name@ja' names the original language; expected the text as "
                                "'name' itself"),
    ("{cost: 3, cost@en: three}", "cards.yaml:10:32: 'cost@en' translates 'cost', which is not text; numbers and ids "
                                  "stay single"),
    ("{title@en: East}", "cards.yaml:10:24: 'title@en' translates 'title', which this card does not have; expected "
                         "'title' beside it"),
    ("{name: {ja: 東風, en: East}, name@en: East}", "cards.yaml:10:49: 'name@en' gives the en text of 'name' a second "
                                                  "time; expected it once"),
])
def test_a_per_language_value_that_is_not_one_is_reported_where_it_is_written(tmp_path, card, message):
    assert problems_of(write_project(tmp_path, f"          - {card}\n")) == [message]


def test_a_field_an_expectation_groups_by_stays_single(tmp_path):
    root = write_project(tmp_path, "          - {suit: {ja: 桜, en: Cherry}}\n")
    text = (root / "cards.yaml").read_text(encoding="utf-8")
    (root / "cards.yaml").write_text(text + "    expectations:\n      - distribution: deck\n        by: suit\n"
                                     "        equals: {桜: 1}\n", encoding="utf-8")
    assert problems_of(root) == ["cards.yaml:10:20: 'suit' has one value per language, but the expectation at "
                                 "cards.yaml:12:9 groups cards by it; expected one value (ids stay single)"]


def test_a_spreadsheets_translation_column_is_reported_at_its_cell(tmp_path):
    root = write_project(tmp_path, "", extra="")
    (root / "deck.csv").write_text("name,name@de,cost,cost@en\n東風,Ost,1,one\n", encoding="utf-8")
    text = (root / "cards.yaml").read_text(encoding="utf-8")
    text = text.replace("        cards:\n", "        cards: {from: deck.csv}\n")
    (root / "cards.yaml").write_text(text, encoding="utf-8")
    assert problems_of(root) == [
        "deck.csv:B2: 'name@de': 'de' is not one of the project's languages (ja, en); add it to project: languages, "
        "or expected one of the project's languages (ja, en)",
        "deck.csv:D2: 'cost@en' translates 'cost', which is not text; numbers and ids stay single"]


def test_a_missing_translation_is_found_at_the_line_of_its_original(tmp_path):
    root = shutil.copytree(FIXTURES / "two-editions", tmp_path / "p")
    text = (root / "cards.yaml").read_text(encoding="utf-8")
    text = text.replace("name: {ja: 南風, en: South Wind}", "name: 南風").replace("{ja: 風牌, en: Wind cards}", "風牌")
    (root / "cards.yaml").write_text(text.replace("en: No effect.", "ko: 효과 없음", 1).replace("[ja, en]", "[ja, en, ko]"),
                                     encoding="utf-8")
    project = load_project(root)
    shown = [f"{m.location}: {m.message()}" for m in find_missing(project, ("en",))]
    assert shown == [
        "cards.yaml:11:9: the name of component winds/winds has no en text (the original: '風牌'); expected a "
        "translation as {…, en: …}",
        "cards.yaml:19:31: 'name' of card 2 of winds has no en text (the original: '南風'); expected a translation "
        "as {…, en: …} or beside it as name@en",
        "cards.yaml:16:20: 'effect' of winds has no en text (the original: '効果なし。'); expected a translation as "
        "{…, en: …} or beside it as effect@en"]
    assert edition(project, "en").games[0].components[0].cards[1].fields["name"] == "南風"  # the original stands in
    assert len(find_missing(project, ("en", "ko"))) == 16  # Korean: the title, names, texts but one, rulebook


def test_translated_names_cost_a_big_deck_a_few_hundred_bytes_a_card(tmp_path):
    count = 3000  # bytes a card do not grow with the deck (a 10,000-card deck costs the same a card)
    def kept(translated: bool) -> int:
        folder = tmp_path / str(translated)
        rows = "".join(f"          - {{number: {n}, cost: {n % 7}, name: "
                       + (f"{{ja: カード{n}, en: Card {n}}}" if translated else f"カード{n}") + "}\n"
                       for n in range(count))
        root = write_project(folder, rows)
        tracemalloc.start()
        try:
            project = load_project(root)
            english = edition(project, "en")
            size = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        last = f"Card {count - 1}" if translated else f"カード{count - 1}"
        assert english.games[0].components[0].cards[-1].fields["name"] == last
        return size

    single, both = kept(False), kept(True)
    # the English texts, a small tuple of the two a card, and each edition's own cards: under 700 bytes a card more
    assert both - single < count * 700


def test_an_editions_rulebook_is_the_file_beside_the_original_named_with_its_language(tmp_path):
    root = shutil.copytree(FIXTURES / "two-editions", tmp_path / "p")
    project = load_project(root)
    assert Path(edition(project, "en").games[0].rulebook) == root / "rules" / "winds.en.md"
    assert Path(edition(edition(project, "en")).games[0].rulebook) == root / "rules" / "winds.md"
    (root / "rules" / "winds.en.md").unlink()
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# Not the project's\n", encoding="utf-8")
    (root / "rules" / "winds.en.md").symlink_to(outside)  # a link out of the project is not read
    project = load_project(root)
    assert Path(edition(project, "en").games[0].rulebook) == root / "rules" / "winds.md"  # the original stands in
    assert [f"{m.location}: {m.message()}" for m in find_missing(project, ("en",))] == [
        "cards.yaml:6:5: the rulebook rules/winds.md has no en edition; expected rules/winds.en.md beside it"]


def test_an_expectations_and_a_figures_reasons_are_one_per_language_and_each_edition_reads_its_own(tmp_path):
    root = write_project(tmp_path, "          - {number: 1}\n")
    text = (root / "cards.yaml").read_text(encoding="utf-8")
    (root / "cards.yaml").write_text(text + (
        "    expectations:\n"
        "      - total: deck\n"
        "        equals: {value: 1, assumed: {ja: 枚数は仮定。, en: The count is assumed.}}\n"
        "      - setup: deck\n"
        "        deal: 1\n"
        "        known: {deal: {ja: 資料の矛盾。, en: The document contradicts itself.}}\n"
        "    figures:\n"
        "      hand: {value: 1, assumed: {ja: 手札は仮定。, en: The hand is assumed.}}\n"), encoding="utf-8")
    original = load_project(root)
    english = edition(original, "en")
    for project, reasons in ((original, ("枚数は仮定。", "資料の矛盾。", "手札は仮定。")),
                             (english, ("The count is assumed.", "The document contradicts itself.",
                                        "The hand is assumed."))):
        game = project.games[0]
        assert (game.expectations[0].assumed, game.expectations[1].known, game.figures[0].assumed) == (
            (("equals", reasons[0]),), (("deal", reasons[1]),), reasons[2])
