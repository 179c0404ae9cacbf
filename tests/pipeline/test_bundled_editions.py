"""Build both editions of the bundled project and open the English PDFs: each component's pages carry its English
text, in embedded fonts, with a glyph for every character (no tofu), and every English card carries the same numbers
as its Japanese twin, read from the PDFs and from the editions' models."""
from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import pnpgen
from pnpgen import Options, units
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.faces.truetype import open_truetype
from pnpgen.project.editions import edition
from pnpgen.project.languages import Texts
from pnpgen.project.model import Fields
from pnpgen.project.validate import load_project

from pdfprobe import clipped_boxes, font_is_embedded_subset, fonts

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

REPO = Path(__file__).resolve().parents[2]
# what each English component prints somewhere on its pages (short words: a line break never falls inside one)
EXPECTED = {
    "three-times-undress/battle-cards": ["Ron card.", "Three Times Undress", "Battle cards"],
    "three-times-undress/mahjong-players": ["Fighter A (TBD)", "Secret Art", "Skill", "Stack order", "Art (TBD)"],
    "three-times-undress/battle-cards-box": ["Battle cards", "Three Times Undress"],
    "three-times-undress/mahjong-players-box": ["Fighter cards"],
    "three-times-undress/score-chips": ["1 han"],
    "otogi-taisen/area-cards": ["Sacred Peak (TBD)", "Water Village (TBD)", "Otogi Taisen", "OT"],
    "otogi-taisen/hero-cards": ["Crow Tengu Hero", "HERO", "Trump:"],
    "otogi-taisen/race-cards": ["Crow Tengu", "Oni", "4 levels occupied (TBD)", "[TBD] Common skill (1 stone)"],
    "otogi-taisen/area-cards-box": ["Area cards"],
    "otogi-taisen/hero-cards-box": ["Hero cards"],
    "otogi-taisen/race-cards-box": ["Race cards"],
    "otogi-taisen/area-map": ["Old Forest (TBD)", "4 sacred stones (TBD)", "Join to sheet 2", "Sheet 1/2",
                              "Connections:", "Dominance bonus:", "Connected"],
    "otogi-taisen/markers": ["C", "K", "I", "O"],
    "last-wan-standing-quickdraw/bullet-chips": ["DOWN", "Red", "Purple", "PURPLE"],
    "last-wan-standing-quickdraw/target-chips": ["→Blue", "QUICK DRAW", "PINK"],
}
DESIGN = set("〇一二三四五六七")  # the battle cards' kanji numerals are part of the tile in both editions
JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("bundled") / "p"
    root.mkdir()
    for name in ("cards.yaml", "games", "rules", "templates", "documents"):
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copy
        copy(REPO / name, root / name)
    pnpgen.build(root, Options(lang="all"))
    return root


def pdf(root: Path, component: str, language: str) -> Path:
    game, name = component.split("/")
    return root / "output" / game / ("en" if language == "en" else "") / f"{name}.pdf"


def page_texts(path: Path) -> list[str]:
    document = pypdfium2.PdfDocument(path)
    return [document[index].get_textpage().get_text_range() for index in range(len(document))]


def test_the_english_edition_has_every_component_and_prints_its_english_on_its_pages(built):
    english = edition(load_project(built), "en")
    assert sorted(f"{g.id}/{c.id}" for g in english.games for c in g.components) == sorted(EXPECTED)
    for component, words in EXPECTED.items():
        pages = page_texts(pdf(built, component, "en"))
        assert all(text.strip() for text in pages), component  # every page has text a reader can extract
        text = " ".join(" ".join(pages).split())
        assert [word for word in words if word not in text] == [], component
        assert set(JAPANESE.findall(text)) - DESIGN == set(), component  # nothing left in Japanese


def test_the_english_pdfs_embed_their_fonts_and_show_no_missing_glyph(built):
    for component in EXPECTED:
        reader = PdfReader(pdf(built, component, "en"))
        assert fonts(reader) and all(font_is_embedded_subset(font) for font in fonts(reader)), component
        shown = list(glyphs_shown(reader))
        assert shown and 0 not in shown, component  # glyph 0 is .notdef: a box where a character should be


def glyphs_shown(reader: PdfReader):
    """The glyph IDs every text operator of every form on every page shows (two bytes each: Identity-H)."""
    seen = set()

    def visit(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            form = ref.get_object()
            if ref.idnum in seen or form.get("/Subtype") != "/Form":
                continue
            seen.add(ref.idnum)
            for operands, operator in ContentStream(form, reader).operations:
                strings = operands[0] if operator == b"TJ" else operands if operator in (b"Tj", b"'", b'"') else []
                for item in strings:
                    if isinstance(item, (bytes, str)):
                        data = item if isinstance(item, bytes) else item.original_bytes
                        yield from (int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
            yield from visit(form.get("/Resources"))

    for page in reader.pages:
        yield from visit(page.get("/Resources"))


def test_every_character_of_the_english_editions_text_has_a_glyph_in_the_bundled_font(built):
    book = FontBook([BUNDLED_FONTS])
    faces = [open_truetype(book.find_face(None, weight).path) for weight in ("normal", "bold")]
    english = edition(load_project(built), "en")
    characters = set()
    for game in english.games:
        characters |= set(game.title)
        for component in game.components:
            characters |= set(component.name)
            for card in component.cards:
                characters |= {c for text in texts_in(card.fields) for c in text}
    characters -= {"\n"}
    assert len(characters) > 60  # the whole Latin alphabet and its punctuation, at least
    assert [c for c in sorted(characters) if any(face.glyph_id(c) == 0 for face in faces)] == []


def texts_in(value):
    if isinstance(value, str):
        yield value
    elif type(value) in (Fields, dict):
        for item in value.values():
            yield from texts_in(item)
    elif isinstance(value, tuple) and type(value) is not Texts:
        for item in value:
            yield from texts_in(item)


def numbers(text: str) -> set[int]:
    """The numbers a text states in digits (full-width ones too): the figures a translation must keep. A figure the
    Japanese words twice (１手番に１回) may be said once in English, so the numbers are compared as sets."""
    return {int(run) for run in re.findall(r"\d+", unicodedata.normalize("NFKC", text))}


def test_every_english_card_prints_the_numbers_its_japanese_twin_prints(built):
    for component in EXPECTED:
        readers = {code: PdfReader(pdf(built, component, code)) for code in ("ja", "en")}
        documents = {code: pypdfium2.PdfDocument(pdf(built, component, code)) for code in ("ja", "en")}
        assert len(readers["ja"].pages) == len(readers["en"].pages), component
        faces = 0
        for index, page in enumerate(readers["ja"].pages):
            boxes = {code: clipped_boxes(readers[code], readers[code].pages[index]) for code in ("ja", "en")}
            assert [b.clip for b in boxes["ja"]] == [b.clip for b in boxes["en"]], component  # the same places
            text_pages = {code: documents[code][index].get_textpage() for code in ("ja", "en")}
            for box in boxes["ja"]:
                x0, y0, x1, y1 = (units.mm(v) for v in (box.clip or box.box))
                said = {code: numbers(text_pages[code].get_text_bounded(x0, y0, x1, y1)) for code in ("ja", "en")}
                assert said["ja"] == said["en"], (component, index, box.clip)
                faces += 1
        assert faces, component


def test_every_english_card_holds_the_numbers_of_its_japanese_twin_in_the_editions_models(built):
    project = load_project(built)
    japanese, english = edition(project, "ja"), edition(project, "en")
    cards = 0
    for game_ja, game_en in zip(japanese.games, english.games):
        assert numbers(game_ja.title) == numbers(game_en.title)
        for one, other in zip(game_ja.components, game_en.components):
            assert numbers(one.name) == numbers(other.name), one.id
            assert len(one.cards) == len(other.cards)
            for card_ja, card_en in zip(one.cards, other.cards):
                said = [set().union(*map(numbers, texts_in(card.fields))) for card in (card_ja, card_en)]
                assert said[0] == said[1], (one.id, card_ja.location)
                cards += 1
    assert cards > 100


# what pnpgen itself prints on each edition's rulebook pages, around the rulebook's own text (and the names the data
# gives its areas and races per language, in the helpers' tables and lists)
RULEBOOK_WORDS = {
    "en": {"three-times-undress/rulebook": ["Contents", "Assumed figures", "Figures marked TBD are", "Number of Chips",
                                            "(document: 001_e1dff157cadda2dc.txt)", "Conflicts in the documents",
                                            "Passages marked NOTE are", "Battle cards (3 players)", "Total"],
           "otogi-taisen/rulebook": ["Contents", "Assumed figures", "Number of Area map: 2", "Sacred Peak (TBD)",
                                     "Old Forest (TBD)", "Total", "“Crow Tengu”, “Kappa”, “Inugami”, “Oni”",
                                     "(document: 003_04ce32e9bd80a31c.txt)", "2 (TBD) sheets"],
           "last-wan-standing-quickdraw/rulebook": ["Contents", "Players \\ Bullet", "Bullet chips used", "Beats down",
                                                   "Per player", "All players", "1, 2, 3, down"],
           "last-wan-standing-quickdraw/rules-sheet": ["Players \\ Bullet", "Bullet chips used", "All players"]},
    "ja": {"three-times-undress/rulebook": ["目次", "仮の数値", "右肩に仮とある数は", "チップ（1翻）の数", "資料との食い違い",
                                            "右肩に注とある箇所は", "（資料：001_e1dff157cadda2dc.txt）", "闘牌カード（3人）", "計"],
           "otogi-taisen/rulebook": ["目次", "仮の数値", "エリアマップの数：2", "霊峰（仮）", "「烏天狗」「河童」「狗神」「鬼族」",
                                     "（資料：003_04ce32e9bd80a31c.txt）"],
           "last-wan-standing-quickdraw/rulebook": ["目次", "人数＼バレット", "使うバレットチップ", "downを倒せる数字", "全員",
                                                   "1・2・3・down", "4枚"],
           "last-wan-standing-quickdraw/rules-sheet": ["人数＼バレット", "使うバレットチップ"]},
}


def test_each_editions_rulebooks_print_pnpgens_own_words_in_its_language(built):
    for language, books in RULEBOOK_WORDS.items():
        for book, words in books.items():
            text = " ".join(" ".join(page_texts(pdf(built, book, language))).split())
            assert [word for word in words if word not in text] == [], (language, book)
            if language == "en":  # nothing of pnpgen's in Japanese; the battle cards' pictures keep their numerals
                assert set(JAPANESE.findall(text)) - DESIGN == set(), book
                assert not any(word in text for word in ("目次", "仮の数値", "資料", "人数", "計")), book
