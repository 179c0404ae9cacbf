"""The print-and-play PDF is its components' PDFs merged object by object: every page, box, form, font and
word of each, in order, with the game's document information."""
import io
from pathlib import Path

from pypdf import PdfReader

import pnpgen
from pnpgen import Options
from pnpgen.press.merge_pdf import merge_pdfs

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_the_print_and_play_pdf_is_every_component_page_in_order(tmp_path):
    pnpgen.build(Path(__file__).parents[2], Options(out_dir=tmp_path, game="otogi-taisen", only="components"))
    game = tmp_path / "otogi-taisen"
    combined = PdfReader(game / "otogi-taisen-print-and-play.pdf")
    order = ("area-cards", "hero-cards", "race-cards", "area-map", "markers")  # as the game file lists them
    parts = [PdfReader(game / f"{name}.pdf") for name in order]
    pages = [page for part in parts for page in part.pages]
    assert len(combined.pages) == len(pages)
    for merged, original in zip(combined.pages, pages):
        for box in ("/MediaBox", "/TrimBox", "/BleedBox"):
            assert [float(v) for v in merged[box]] == [float(v) for v in original[box]]
        assert merged.extract_text() == original.extract_text()
        assert sorted(merged["/Resources"]["/XObject"]) == sorted(original["/Resources"]["/XObject"])
    assert combined.metadata.title == "御伽大戦" and combined.metadata.author == "pnpgen"
    fonts = {font["/BaseFont"] for page in combined.pages for font in page["/Resources"]["/Font"].values()}
    assert fonts and all("+" in name for name in fonts)  # subsets, embedded from the components


def test_merging_is_deterministic_and_keeps_streams_intact(tmp_path):
    pnpgen.build(FIXTURES / "minimal", Options(out_dir=tmp_path))
    deck = (tmp_path / "tiny" / "deck.pdf").read_bytes()
    once = merge_pdfs([deck, deck], title="二つ", subject="s")
    assert once == merge_pdfs([deck, deck], title="二つ", subject="s")
    reader = PdfReader(io.BytesIO(once))
    single = PdfReader(io.BytesIO(deck))
    assert len(reader.pages) == 2 * len(single.pages)
    assert reader.pages[-1].extract_text() == single.pages[-1].extract_text()
    assert reader.metadata.subject == "s"
