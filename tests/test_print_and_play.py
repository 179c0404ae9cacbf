"""The print-and-play PDF holds its components' pages: every page, box, form, font and word of each, in
order, with the game's document information; with or without the cache, the same bytes."""
from pathlib import Path

from pypdf import PdfReader

import pnpgen
from pdfprobe import font_is_embedded_subset, fonts
from pnpgen import Options



def test_the_print_and_play_pdf_is_every_component_page_in_the_order_that_prints_double_sided(tmp_path):
    pnpgen.build(Path(__file__).parents[1], Options(out_dir=tmp_path, game="otogi-taisen", only="components",
                                                    share_sheets=False))
    game = tmp_path / "otogi-taisen"
    combined = PdfReader(game / "otogi-taisen-print-and-play.pdf")
    order = ("area-cards", "hero-cards", "race-cards", "area-cards-box", "hero-cards-box", "race-cards-box",
             "area-map", "markers")  # as the game file lists them
    data = pnpgen.load_project(Path(__file__).parents[1]).game("otogi-taisen")
    two_sided, one_sided = [], []
    for name in order:  # a component's PDF is a front and its back, sheet by sheet, or fronts alone
        pages = PdfReader(game / f"{name}.pdf").pages
        if data.component(name).back:
            two_sided += pages
        else:
            one_sided += [page for front in pages for page in (front, None)]  # None: a blank page behind it
    expected = two_sided + one_sided
    assert len(combined.pages) == len(expected) and len(combined.pages) % 2 == 0
    for merged, original in zip(combined.pages, expected):
        if original is None:
            assert not has_faces(merged) and merged.extract_text() == ""
            continue
        for box in ("/MediaBox", "/TrimBox", "/BleedBox"):
            assert [float(v) for v in merged[box]] == [float(v) for v in original[box]]
        assert merged.extract_text() == original.extract_text()
        assert sorted(merged["/Resources"]["/XObject"]) == sorted(original["/Resources"]["/XObject"])
    assert combined.metadata.title == "御伽大戦" and combined.metadata.author == "pnpgen"
    assert combined.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    found = fonts(combined)
    assert found and all(font_is_embedded_subset(font) for font in found)


def has_faces(page) -> bool:
    return "/Resources" in page and "/XObject" in page["/Resources"] and bool(page["/Resources"]["/XObject"])


def test_the_print_and_play_pdf_is_the_same_with_and_without_the_cache(tmp_path):
    root = Path(__file__).parents[1]
    for name, cache in (("cold", True), ("warm", True), ("uncached", False)):
        pnpgen.build(root, Options(out_dir=tmp_path / name, game="otogi-taisen", only="components", cache=cache,
                                   cache_dir=tmp_path / "cache"))
    made = [(tmp_path / name / "otogi-taisen" / "otogi-taisen-print-and-play.pdf").read_bytes()
            for name in ("cold", "warm", "uncached")]
    assert made[0] == made[1] == made[2]
