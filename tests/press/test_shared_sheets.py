"""Small components share sheets in the print-and-play PDF (the pieces per sheet reported), with an option to
keep one component per sheet; shared sheets keep every print rule: no clip on another trim, marks in the
printable area, backs behind their fronts."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pdfprobe import clipped_boxes, segments, sheet_sides
from pnpgen import Options, build
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.press.shared_sheets import Laid, laid_out, share_sheets
from pnpgen.project.model import Size
from pnpgen.project.validate import load_project
from pnpgen.units import mm, to_mm

REPO = Path(__file__).resolve().parents[2]
A4 = Size(mm(210), mm(297))
LWS = "last-wan-standing-quickdraw"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("share")
    shared = build(REPO, Options(out_dir=root / "shared", only="components", check=False, cache_dir=root / "cache"))
    apart = build(REPO, Options(out_dir=root / "apart", only="components", check=False, cache_dir=root / "cache",
                                share_sheets=False))
    return root, shared, apart


BLEEDS = {}  # (form width, height) in mm -> the bleed of the component drawn, from the bundled project


def trim_of(drawn) -> tuple[float, float, float, float]:
    if not BLEEDS:
        from pnpgen.project.validate import load_project

        for game in load_project(REPO).games:
            for c in game.components:
                b = to_mm(c.bleed)
                BLEEDS[round(to_mm(c.size.width) + 2 * b, 2), round(to_mm(c.size.height) + 2 * b, 2)] = b
    x0, y0, x1, y1 = drawn.box
    b = BLEEDS.get((round(x1 - x0, 2), round(y1 - y0, 2)))
    return None if b is None else (x0 + b, y0 + b, x1 - b, y1 - b)


def fronts(pdf: Path) -> int:
    return len(PdfReader(pdf).pages)


def test_small_components_share_sheets_and_the_build_says_how_many_pieces_each(built):
    root, shared, apart = built
    notes = [n for n in shared.notes if "is shared by" in n]
    # the lone battle card of the last battle-card sheet joins the part-filled sheet of the other poker cards
    assert "three-times-undress-print-and-play.pdf: sheet 7 is shared by battle-cards × 1, mahjong-players × 6 " \
           "(7 pieces); `--sheet-per-component` keeps them apart" in notes
    assert any(n.startswith("otogi-taisen-print-and-play.pdf: sheet ") and "markers × 32" in n for n in notes), notes
    assert not any("is shared by" in n for n in apart.notes)
    # 49 bullet and 49 target chips: each fills most of a 70-chip sheet, so neither is split to share
    assert not any(n.startswith(LWS) for n in notes)
    for game in ("otogi-taisen", "three-times-undress"):
        together = root / "shared" / game / f"{game}-print-and-play.pdf"
        alone = root / "apart" / game / f"{game}-print-and-play.pdf"
        assert fronts(together) < fronts(alone)
        # every piece is still there, once
        count = sum(len(clipped_boxes(r, p)) for r in [PdfReader(together)] for p in r.pages)
        assert count == sum(len(clipped_boxes(r, p)) for r in [PdfReader(alone)] for p in r.pages)
    lws = PdfReader(root / "shared" / LWS / f"{LWS}-print-and-play.pdf")
    assert [len(clipped_boxes(lws, page)) for page in lws.pages] == [49, 49, 49, 49]


@pytest.mark.parametrize("game", [LWS, "otogi-taisen", "three-times-undress"])
def test_shared_sheets_keep_every_print_rule(built, game):
    root, _, _ = built
    reader = PdfReader(root / "shared" / game / f"{game}-print-and-play.pdf")
    for page in reader.pages:
        width, height = to_mm(float(page.mediabox.width)), to_mm(float(page.mediabox.height))
        drawn = [d for d in clipped_boxes(reader, page) if d.clip is not None and trim_of(d) is not None]
        for a in drawn:  # (die-cut pieces, clipped to their outlines, are measured by test_dieline)
            assert a.clip[0] >= 6 - 0.01 and a.clip[1] >= 6 - 0.01
            assert a.clip[2] <= width - 6 + 0.01 and a.clip[3] <= height - 6 + 0.01
        for x0, y0, x1, y1 in segments(reader, page):
            assert min(x0, x1, y0, y1) >= 6 - 0.01 and max(x0, x1) <= width - 6 + 0.01 and max(y0, y1) <= height - 6 + 0.01
        trims = [trim_of(d) for d in drawn]
        for d in drawn:  # a face's bleed may meet another's bleed, never another piece's trim
            for t in trims:
                if t != trim_of(d):
                    assert min(d.clip[2], t[2]) - max(d.clip[0], t[0]) <= 0.01 or \
                        min(d.clip[3], t[3]) - max(d.clip[1], t[1]) <= 0.01


def test_backs_stay_behind_their_fronts_when_blocks_are_stacked():
    cards = [Item(f"card-{i}", f"back-{i}", Size(mm(63), mm(88))) for i in range(4)]
    chips = [Item(f"chip-{i}", None, Size(mm(20), mm(20))) for i in range(12)]
    card_spec, chip_spec = SheetSpec(A4), SheetSpec(A4, gap=mm(3), crop_marks=False, cut_lines=True, bleed=mm(1))
    laid = [Laid("cards", tuple(cards), card_spec, tuple(impose(cards, card_spec))),
            Laid("chips", tuple(chips), chip_spec, tuple(impose(chips, chip_spec)))]
    pages, shared = share_sheets(laid)
    assert [p.side for p in pages] == ["front", "back"] and shared == [(1, {"cards": 4, "chips": 12})]
    front, back = pages
    by_face = {p.face: p for p in front.placements}
    for p in back.placements:  # long-edge duplex on portrait: mirrored across, at the same height
        twin = by_face[p.face.replace("back", "card")]
        assert p.y == pytest.approx(twin.y) and p.x + p.width == pytest.approx(A4.width - twin.x)
    assert len(back.placements) == 4


def test_a_component_keeps_only_the_pieces_of_its_part_filled_last_sheet():
    """share_sheets imposes only those again: the rest of a deck's pieces are not held until writing."""
    spec = SheetSpec(Size(mm(210), mm(297)))
    decks = [[Item(f"{name}-{i}", "back", Size(mm(63), mm(88)), f"{name} #{i}") for i in range(count)]
             for name, count in (("big", 9 * 30 + 2), ("small", 5), ("full", 18))]
    whole = [Laid(items[0].label.split()[0], tuple(items), spec, tuple(impose(items, spec))) for items in decks]
    kept = [laid_out(entry.name, entry.items, entry.spec, entry.pages) for entry in whole]
    assert [len(entry.items) for entry in kept] == [2, 5, 0]
    assert kept[0].items == whole[0].items[-2:] and kept[0].pages == whole[0].pages
    assert share_sheets(kept) == share_sheets(whole) and share_sheets(whole)[1]  # big and small share a sheet


@pytest.mark.parametrize("kind", ["shared", "apart"])
@pytest.mark.parametrize("game", [LWS, "otogi-taisen", "three-times-undress"])
def test_printed_double_sided_every_back_shares_its_fronts_sheet(built, kind, game):
    root, _, _ = built
    reader = PdfReader(root / kind / game / f"{game}-print-and-play.pdf")
    data = load_project(REPO).game(game)
    sides = sheet_sides(root / kind / game, {c.id for c in data.components if c.back})
    assert len(sides) % 2 == 0
    assert all(side == "front" for side in sides[0::2]), sides  # page 2k-1: the front of sheet k
    assert all(side in ("back", "blank") for side in sides[1::2]), sides  # page 2k: its back, or nothing
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
