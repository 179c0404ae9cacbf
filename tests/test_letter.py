"""A Letter build prints only Letter pages — components, the pinned map, rulebooks, rules sheet, booklet — and
nothing printable in the 6 mm margin; a booklet states its duplex flip edge on its cover and in its print preset."""
from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

import pnpgen
from pnpgen import Options
from pnpgen.units import to_mm

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

REPO = Path(__file__).resolve().parents[1]
LETTER = sorted((215.9, 279.4))
DPI = 100


@pytest.fixture(scope="module")
def letter(tmp_path_factory):
    root = tmp_path_factory.mktemp("letter")
    cache = root / "cache"
    report = pnpgen.build(REPO, Options(out_dir=root / "plain", paper="letter", check=False, cache_dir=cache))
    pnpgen.build(REPO, Options(out_dir=root / "booklet", paper="letter", booklet=True, only="rules", check=False,
                               cache_dir=cache))
    pnpgen.build(REPO, Options(out_dir=root / "long", paper="letter", booklet=True, duplex="long", only="rules",
                               check=False, cache_dir=cache, game="otogi-taisen"))
    return root, report


def all_pdfs(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pdf"))


def test_every_page_of_a_letter_build_is_letter(letter):
    root, _ = letter
    pdfs = all_pdfs(root / "plain") + all_pdfs(root / "booklet")
    names = {p.name for p in pdfs}
    assert {"rulebook.pdf", "rules-sheet.pdf", "area-map.pdf", "otogi-taisen-print-and-play.pdf"} <= names
    for pdf in pdfs:
        for number, page in enumerate(PdfReader(pdf).pages, 1):
            size = sorted(round(to_mm(float(v)), 1) for v in (page.mediabox.width, page.mediabox.height))
            assert size == LETTER, (pdf.relative_to(root), number, size)


def test_a_map_pinned_to_a4_says_what_happens_on_letter(letter):
    _, report = letter
    assert ("otogi-taisen/area-map: pinned to A4 (layout: paper), printed on LETTER in this LETTER build: "
            "it fits on one sheet") in report.notes


def test_nothing_is_printed_in_the_6_mm_margin_of_any_letter_page(letter):
    root, _ = letter
    band = round(5.5 / 25.4 * DPI)  # half a millimetre inside 6 mm: the anti-aliased edge of ink that stops at 6 mm
    for pdf in all_pdfs(root / "plain") + all_pdfs(root / "booklet"):
        document = pypdfium2.PdfDocument(str(pdf))
        for number in range(len(document)):
            image = document[number].render(scale=DPI / 72).to_pil().convert("L")
            width, height = image.size
            strips = [(0, 0, width, band), (0, height - band, width, height), (0, 0, band, height),
                      (width - band, 0, width, height)]
            darkest = min(image.crop(box).getextrema()[0] for box in strips)
            assert darkest >= 250, (pdf.relative_to(root), number + 1, darkest)


def test_the_booklet_is_half_letter_two_up_and_states_its_flip_edge(letter):
    root, _ = letter
    for folder, preset, words in (("booklet", "/DuplexFlipShortEdge", "短辺とじ"), ("long", "/DuplexFlipLongEdge", "長辺とじ")):
        booklet = root / folder / "otogi-taisen" / "rulebook.pdf"
        reader = PdfReader(booklet)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == preset
        first = pypdfium2.PdfDocument(str(booklet))[0]
        width, height = first.get_size()
        text = first.get_textpage().get_text_bounded(width / 2, 0, width, height)  # the cover: right half of sheet 1
        assert words in text and "flip on" in text
        assert (round(to_mm(width), 1), round(to_mm(height), 1)) == (279.4, 215.9)
