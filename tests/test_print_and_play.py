"""The print-and-play PDF holds its components' pages: every page, box, form, font and word of each, in
order, with the game's document information; with or without the cache, the same bytes."""
from pathlib import Path

from pypdf import PdfReader

import pnpgen
from pdfprobe import font_is_embedded_subset, fonts
from pnpgen import Options



def test_the_print_and_play_pdf_is_every_component_page_in_order(tmp_path):
    pnpgen.build(Path(__file__).parents[1], Options(out_dir=tmp_path, game="otogi-taisen", only="components",
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
    found = fonts(combined)
    assert found and all(font_is_embedded_subset(font) for font in found)


def test_the_print_and_play_pdf_is_the_same_with_and_without_the_cache(tmp_path):
    root = Path(__file__).parents[1]
    for name, cache in (("cold", True), ("warm", True), ("uncached", False)):
        pnpgen.build(root, Options(out_dir=tmp_path / name, game="otogi-taisen", only="components", cache=cache,
                                   cache_dir=tmp_path / "cache"))
    made = [(tmp_path / name / "otogi-taisen" / "otogi-taisen-print-and-play.pdf").read_bytes()
            for name in ("cold", "warm", "uncached")]
    assert made[0] == made[1] == made[2]
