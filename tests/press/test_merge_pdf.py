"""The print-and-play PDF is its components' PDFs merged object by object: every page, box, form, font and
word of each, in order, with the game's document information; the sheets small components share are drawn
once and merged with them, and every page looks as the PDF drawn the ordinary way would."""
import io
from pathlib import Path

from pypdf import PdfReader

import pypdfium2 as pdfium

import pnpgen
from pnpgen import Options, pipeline
from pnpgen.press.merge_pdf import merge_pdfs, plan_merge

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_the_print_and_play_pdf_is_every_component_page_in_order(tmp_path):
    pnpgen.build(Path(__file__).parents[2], Options(out_dir=tmp_path, game="otogi-taisen", only="components",
                                                    share_sheets=False))
    game = tmp_path / "otogi-taisen"
    combined = PdfReader(game / "otogi-taisen-print-and-play.pdf")
    order = ("area-cards", "hero-cards", "race-cards", "area-cards-box", "hero-cards-box", "race-cards-box",
             "area-map", "markers")  # as the game file lists them
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


def test_shared_sheets_are_drawn_and_every_page_looks_as_drawn_the_ordinary_way(tmp_path, monkeypatch):
    drawn_anew = {}
    merge = pipeline.print_and_play

    def both(output, made, draw, subject):
        _, shared = plan_merge([part.pages for part in output.parts], output.pages)
        whole = pipeline.Output(output.target, "", output.pages, output.faces, output.title, None)
        drawn_anew[output.target.name] = (draw(whole), len(shared))
        return merge(output, made, draw, subject)

    monkeypatch.setattr(pipeline, "print_and_play", both)
    pnpgen.build(Path(__file__).parents[2], Options(out_dir=tmp_path, game="otogi-taisen", only="components"))
    reference, shared = drawn_anew["otogi-taisen-print-and-play.pdf"]
    assert shared >= 1  # the boxes' and markers' part-filled sheets share
    merged = (tmp_path / "otogi-taisen" / "otogi-taisen-print-and-play.pdf").read_bytes()
    ours, theirs = pdfium.PdfDocument(merged), pdfium.PdfDocument(reference)
    assert len(ours) == len(theirs)
    for mine, drawn in zip(ours, theirs):
        assert mine.get_size() == drawn.get_size()
        assert mine.get_textpage().get_text_range() == drawn.get_textpage().get_text_range()
        assert mine.render(scale=1).to_pil().tobytes() == drawn.render(scale=1).to_pil().tobytes()
    pnpgen.build(Path(__file__).parents[2], Options(out_dir=tmp_path / "again", game="otogi-taisen",
                                                    only="components", cache=False))
    assert (tmp_path / "again" / "otogi-taisen" / "otogi-taisen-print-and-play.pdf").read_bytes() == merged


def test_merging_chosen_pages_keeps_only_the_objects_they_use(tmp_path):
    pnpgen.build(FIXTURES / "minimal", Options(out_dir=tmp_path))
    deck = (tmp_path / "tiny" / "deck.pdf").read_bytes()
    count = len(PdfReader(io.BytesIO(deck)).pages)
    last = merge_pdfs([None, deck], title="t", order=[(1, count - 1)])
    reader = PdfReader(io.BytesIO(last))
    assert len(reader.pages) == 1
    assert reader.pages[0].extract_text() == PdfReader(io.BytesIO(deck)).pages[-1].extract_text()
    assert len(last) < len(merge_pdfs([deck], title="t"))
