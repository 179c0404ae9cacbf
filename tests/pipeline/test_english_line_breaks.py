"""Build a project's English edition and open its PDFs: card text and rulebook cells hyphenated where a line would
be too empty, with the hyphen at the break and none inside 3rd or 10-card; a title twice the Japanese's length
shrunk and wrapped inside its one-line box (measured in mm); the Japanese edition as it always was."""
from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

import pnpgen
from pnpgen import Options
from pnpgen.units import to_mm

from pdfprobe import drawn_forms

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CARD_HEIGHT = 63.0  # mm: mini cards, no bleed, so a card's form starts at its trim
TITLE_BOX = (3.0, 14.0, 38.0, 6.0)  # the front template's text(card.name, SAFE, 14, W - 2*SAFE, 6): x, y, w, h in mm


def lines(pdf: Path) -> list[str]:
    return [line for page in PdfReader(pdf).pages for line in page.extract_text().split("\n")]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    root = shutil.copytree(FIXTURES / "english-line-breaks", tmp_path_factory.mktemp("english") / "p")
    pnpgen.build(root, Options(lang="all"))
    return root / "output" / "long-words"


def test_english_card_text_is_hyphenated_at_the_break_and_never_inside_numbers(out):
    assert lines(out / "en" / "cards.pdf") == [
        "1", "The Unforgettable Eastern", "Whirlwind",
        "Your opponent discards the", "remaining cards, then every-", "one draws a 10-card hand", "for the 3rd round.",
        "2", "South Wind",
        "Place it face-down on the", "draw/discard pile — “con-", "gratulations”, everyone’s", "turn is over."]


def test_the_japanese_edition_takes_no_hyphen_and_breaks_as_before(out):
    assert lines(out / "cards.pdf") == [
        "1", "忘れがたき東の大旋風", "相手は残りの手札をすべて", "捨てる。そのあと３回目の", "ラウンドのために１０枚の", "手札を引く。",
        "2", "南風", "裏向きで山札／捨て札の上に", "置く。「おめでとう」、", "全員の番が終わる。"]


def test_a_title_twice_as_long_as_the_japanese_shrinks_and_wraps_inside_its_one_line_box(out):
    page = pypdfium2.PdfDocument(str(out / "en" / "cards.pdf"))[0]
    text = page.get_textpage()
    every = text.get_text_range()
    card = min(drawn_forms(PdfReader(out / "en" / "cards.pdf"), PdfReader(out / "en" / "cards.pdf").pages[0]),
               key=lambda drawn: drawn.x_mm)  # the first card: the long title
    x, y, w, h = TITLE_BOX
    left, right = card.x_mm + x, card.x_mm + x + w
    top, bottom = card.y_mm + CARD_HEIGHT - y, card.y_mm + CARD_HEIGHT - y - h
    title = every.index("The Unforgettable")
    end = every.index("Whirlwind") + len("Whirlwind")
    boxes = [text.get_charbox(at, loose=True) for at in range(title, end) if not every[at].isspace()]
    assert all(left <= to_mm(box[0]) and to_mm(box[2]) <= right and bottom <= to_mm(box[1]) and to_mm(box[3]) <= top
               for box in boxes)
    bottoms = sorted(box[1] for box in boxes)
    assert sum(1 for low, high in zip(bottoms, bottoms[1:]) if high - low > 2) == 1  # two lines
    south = every.index("South Wind")  # the other card's title, set at the full 11 pt: loose boxes scale with size
    here, there = text.get_charbox(title, loose=True), text.get_charbox(south, loose=True)
    assert 5 <= 11 * (here[3] - here[1]) / (there[3] - there[1]) < 11  # shrunk from 11 pt, not below min_size


def test_an_english_rulebooks_narrow_cells_hyphenate_and_keep_numbers_whole(out):
    assert lines(out / "en" / "rulebook.pdf")[1:] == [
        " Long Words", " Uses the 2 word cards.", " Card", "Effect", "Reminder", "East",
        "Your opponent discards the remaining cards,", "then everyone draws a 10-card hand for the 3rd", "round.",
        "The whirlwind takes everything: it is extraordi-", "narily unpredictable and unforgettable.", "South",
        "Place it face-down on the draw/discard pile —", "“congratulations”, everyone’s turn is over.",
        "Nothing else happens.", "Contents",
        " ." + "  ." * 41 + " 1",  # the contents' dot leaders to the page number
        "When the supporters of both sides in a battle are tied and nobody holds any cards, the",
        "battle is resolved by the lead",  # the contents' entry, wrapped at a space
        "When the supporters of both sides in a battle are tied and nobody",
        "holds any cards, the battle is resolved by the lead", "Nobody scores.", ""]
    assert not any(line.endswith("-") for line in lines(out / "rulebook.pdf"))
