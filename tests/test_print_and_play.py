"""The print-and-play PDF holds its components' pages: every page, box, form, font and word of each, in
order, with the game's document information, then its rulebook (or rules sheet) on sheets of its own; with or
without the cache, the same bytes."""
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import pnpgen
from pdfprobe import font_is_embedded_subset, fonts
from pnpgen import Options



@pytest.mark.long
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


@pytest.mark.long
def test_the_rulebook_ends_the_print_and_play_pdf_page_for_page_on_sheets_of_its_own(tmp_path):
    root = Path(__file__).parents[1]
    cache = tmp_path / "cache"  # the components' build takes the faces of the first; the last one none
    pnpgen.build(root, Options(out_dir=tmp_path / "all", game="otogi-taisen", cache_dir=cache))
    pnpgen.build(root, Options(out_dir=tmp_path / "components", game="otogi-taisen", only="components", cache_dir=cache))
    game = tmp_path / "all" / "otogi-taisen"
    combined = PdfReader(game / "otogi-taisen-print-and-play.pdf")
    components = PdfReader(tmp_path / "components" / "otogi-taisen" / "otogi-taisen-print-and-play.pdf")
    rulebook = PdfReader(game / "rulebook.pdf")
    assert len(components.pages) % 2 == 0  # so the rulebook's first page is the front of a sheet
    assert len(combined.pages) == len(components.pages) + len(rulebook.pages)
    for merged, original in zip(combined.pages, [*components.pages, *rulebook.pages]):
        assert [float(v) for v in merged.mediabox] == [float(v) for v in original.mediabox]
        assert merged.extract_text() == original.extract_text()
    assert "目次" in combined.pages[len(components.pages)].extract_text()
    assert combined.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    assert combined.metadata.title == "御伽大戦" and combined.metadata.producer == "pnpgen"
    found = fonts(combined)  # each font of either part once, for all the pages that use it
    assert len(found) == len(fonts(components)) + len(fonts(rulebook))
    assert all(font_is_embedded_subset(font) for font in found)
    pnpgen.build(root, Options(out_dir=tmp_path / "again", game="otogi-taisen", cache=False))
    again = tmp_path / "again" / "otogi-taisen" / "otogi-taisen-print-and-play.pdf"
    assert again.read_bytes() == (game / "otogi-taisen-print-and-play.pdf").read_bytes()


def test_a_print_and_play_pdf_rebuilt_beside_an_unchanged_rulebook_ends_with_it_all_the_same(tmp_path):
    """The rulebook is up to date (its digest ignores how sheets are shared): the print-and-play PDF, written
    again, takes its pages from the rulebook already in the output folder."""
    root = Path(__file__).parents[1]
    out, cache = tmp_path / "out", tmp_path / "cache"
    pnpgen.build(root, Options(out_dir=out, game="three-times-undress", cache_dir=cache))
    report = pnpgen.build(root, Options(out_dir=out, game="three-times-undress", cache_dir=cache, share_sheets=False))
    assert out / "three-times-undress" / "rulebook.pdf" in report.unchanged
    pnpgen.build(root, Options(out_dir=tmp_path / "fresh", game="three-times-undress", cache=False, share_sheets=False))
    name = "three-times-undress/three-times-undress-print-and-play.pdf"
    assert (out / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes()


def test_a_booklet_build_keeps_the_rulebook_out_of_the_print_and_play_pdf(tmp_path):
    root = Path(__file__).parents[1]
    pnpgen.build(root, Options(out_dir=tmp_path / "booklet", game="last-wan-standing-quickdraw", booklet=True,
                               cache=False))
    pnpgen.build(root, Options(out_dir=tmp_path / "components", game="last-wan-standing-quickdraw",
                               only="components", cache=False))
    name = "last-wan-standing-quickdraw/last-wan-standing-quickdraw-print-and-play.pdf"
    assert (tmp_path / "booklet" / name).read_bytes() == (tmp_path / "components" / name).read_bytes()


def test_a_game_with_only_a_rules_sheet_ends_its_print_and_play_pdf_with_the_sheet(tmp_path):
    root = Path(__file__).parents[1]
    project = tmp_path / "project"
    project.mkdir()
    for name in ("cards.yaml", "games", "rules", "templates", "documents"):
        (shutil.copytree if (root / name).is_dir() else shutil.copy)(root / name, project / name)
    game_file = project / "games" / "last-wan-standing-quickdraw.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace(
        "    rulebook: rules/last-wan-standing-quickdraw.md\n", ""), encoding="utf-8")
    pnpgen.build(project, Options(out_dir=tmp_path / "out", game="last-wan-standing-quickdraw", cache=False,
                                  check=False))
    game = tmp_path / "out" / "last-wan-standing-quickdraw"
    assert not (game / "rulebook.pdf").exists()
    combined = PdfReader(game / "last-wan-standing-quickdraw-print-and-play.pdf").pages
    sheet = PdfReader(game / "rules-sheet.pdf").pages
    assert len(sheet) == 1 and combined[-1].extract_text() == sheet[0].extract_text()
    assert len(combined) % 2 == 1  # the components on whole sheets, then the rules sheet on one more
