"""Measure imposed pages in millimetres: grids, bleed, marks, backs, gutterfold and tiles."""
from __future__ import annotations

import math

import pytest

from pnpgen.press.impose import Item, Page, Rect, SheetSpec, impose, plan_grid
from pnpgen.project.model import Size
from pnpgen.units import mm, to_mm

A4 = Size(mm(210), mm(297))
A3 = Size(mm(297), mm(420))
LETTER = Size(mm(215.9), mm(279.4))
A5, TABLOID = Size(mm(148), mm(210)), Size(mm(279.4), mm(431.8))
POKER = Size(mm(63), mm(88))
TOL = 0.1  # mm


def deck(n: int, size: Size = POKER, back: str | None = "back") -> list[Item]:
    return [Item(f"front-{i}", back, size, f"deck #{i + 1}") for i in range(n)]


def trim(p) -> Rect:
    return Rect(p.x, p.y, p.x + p.width, p.y + p.height)


def near(a_pt: float, b_mm: float) -> bool:
    return abs(to_mm(a_pt) - b_mm) <= TOL


def distinct(values) -> list[float]:
    return sorted({round(to_mm(v), 3) for v in values})


def test_poker_on_a4_is_a_centred_three_by_three_grid():
    pages = impose(deck(9, back=None), SheetSpec(A4))
    assert len(pages) == 1
    page = pages[0]
    assert (page.size, page.side) == (A4, "front")
    assert len(page.placements) == 9
    assert distinct(p.x for p in page.placements) == pytest.approx([10.5, 73.5, 136.5], abs=TOL)
    assert distinct(p.y for p in page.placements) == pytest.approx([16.5, 104.5, 192.5], abs=TOL)
    left = min(p.x for p in page.placements)
    right = page.size.width - max(p.x + p.width for p in page.placements)
    bottom = min(p.y for p in page.placements)
    top = page.size.height - max(p.y + p.height for p in page.placements)
    assert abs(to_mm(left - right)) <= TOL and abs(to_mm(top - bottom)) <= TOL
    assert near(page.trim_box.x0, 10.5) and near(page.trim_box.y1, 280.5)
    # 4.5 mm between the grid and the margin at the sides: 1.5 mm of bleed, 3 mm of white for the crop marks
    assert near(page.bleed_box.x0, 9.0) and near(page.bleed_box.y1, 283.5)


def test_clips_share_cut_lines_inside_and_bleed_outside():
    page = impose(deck(9), SheetSpec(A4))[0]
    first, centre = page.placements[0], page.placements[4]  # top-left, middle
    assert centre.clip == trim(centre)  # abutting cards: no bleed between them
    assert near(trim(first).x0 - first.clip.x0, 1.5) and near(first.clip.y1 - trim(first).y1, 3)
    assert first.clip.x1 == trim(first).x1 and first.clip.y0 == trim(first).y0


def test_letter_fits_nine_and_clamps_the_outer_bleed_to_the_margin():
    spec = SheetSpec(LETTER)
    page = impose(deck(9), spec)[0]
    assert len(page.placements) == 9
    grid = plan_grid(POKER, spec)
    assert (grid.cols, grid.rows, grid.paper) == (3, 3, LETTER)
    trim, bleed = page.trim_box, page.bleed_box  # the bleed printed beyond the trim box on each side
    assert near(trim.x0 - bleed.x0, 3) and near(bleed.x1 - trim.x1, 3)
    assert near(bleed.y1 - trim.y1, 1.7) and near(trim.y0 - bleed.y0, 1.7)
    assert near(grid.bleed[1], 1.7) and near(grid.bleed[0], 3)
    for p in page.placements:
        assert p.clip.y0 >= spec.margin - 1e-6 and p.clip.y1 <= LETTER.height - spec.margin + 1e-6


def test_gap_gives_half_the_gap_as_bleed_between_items():
    spec = SheetSpec(A4, gap=mm(3))
    page = impose(deck(9), spec)[0]
    centre = page.placements[4]
    assert near(trim(centre).x0 - centre.clip.x0, 1.5) and near(centre.clip.y1 - trim(centre).y1, 1.5)
    xs = distinct(p.x for p in page.placements)
    assert xs[1] - xs[0] == pytest.approx(66, abs=TOL)


def test_landscape_is_used_when_it_holds_more():
    spec = SheetSpec(A4)
    grid = plan_grid(Size(mm(130), mm(90)), spec)  # portrait holds 1 x 3, landscape 2 x 2
    assert (grid.paper, grid.cols, grid.rows) == (Size(A4.height, A4.width), 2, 2)
    assert impose(deck(4, Size(mm(130), mm(90))), spec)[0].size == Size(A4.height, A4.width)


def test_twenty_items_make_three_sheets_of_fronts_and_backs():
    pages = impose(deck(20), SheetSpec(A4))
    assert len(pages) == 2 * math.ceil(20 / 9)
    assert [p.side for p in pages] == ["front", "back"] * 3
    assert len(pages[-2].placements) == 2 and len(pages[-1].placements) == 2
    assert len(impose(deck(20), SheetSpec(A4, duplex="none"))) == 3
    assert len(impose(deck(20, back=None), SheetSpec(A4))) == 3


def test_long_edge_back_mirrors_x():
    front, back = impose(deck(9), SheetSpec(A4, duplex="long"))[:2]
    assert back.side == "back"
    for f, b in zip(front.placements, back.placements):
        assert b.face == "back"
        assert near(b.x, to_mm(A4.width - f.x - f.width)) and near(b.y, to_mm(f.y))
        assert b.clip == Rect(A4.width - f.clip.x1, f.clip.y0, A4.width - f.clip.x0, f.clip.y1)


def test_short_edge_back_mirrors_y():
    front, back = impose(deck(9), SheetSpec(A4, duplex="short"))[:2]
    for f, b in zip(front.placements, back.placements):
        assert near(b.x, to_mm(f.x)) and near(b.y, to_mm(A4.height - f.y - f.height))


def test_long_edge_on_a_landscape_page_mirrors_y():
    size = Size(mm(130), mm(90))
    front, back = impose(deck(4, size), SheetSpec(A4))[:2]
    page_h = front.size.height
    for f, b in zip(front.placements, back.placements):
        assert near(b.x, to_mm(f.x)) and near(b.y, to_mm(page_h - f.y - f.height))


def test_back_offset_shifts_back_placements_and_marks():
    plain = impose(deck(9), SheetSpec(A4))[1]
    shifted = impose(deck(9), SheetSpec(A4, back_offset=(mm(1), mm(-0.5))))[1]
    for a, b in zip(plain.placements, shifted.placements):
        assert near(b.x - a.x, 1) and near(b.y - a.y, -0.5)
        assert near(b.clip.x0 - a.clip.x0, 1)
    for a, b in zip(plain.marks, shifted.marks):
        assert near(b.points[0] - a.points[0], 1) and near(b.points[1] - a.points[1], -0.5)


def test_items_without_a_back_leave_a_hole():
    items = deck(9)
    items[0] = Item("front-0", None, POKER)
    front, back = impose(items, SheetSpec(A4))[:2]
    assert len(back.placements) == 8
    hole_x = A4.width - front.placements[0].x - POKER.width
    assert all(abs(p.x - hole_x) > 1 or abs(p.y - front.placements[0].y) > 1 for p in back.placements)


def test_gutterfold_pairs_fronts_and_backs_about_the_fold():
    pages = impose(deck(5), SheetSpec(A4, gutterfold=True))
    assert len(pages) == 2 and {p.side for p in pages} == {"front"}
    page = pages[0]
    assert page.size == Size(A4.height, A4.width)  # 4 pairs in landscape beat 3 in portrait
    fronts = [p for p in page.placements if p.face != "back"]
    backs = [p for p in page.placements if p.face == "back"]
    assert len(fronts) == len(backs) == 4
    width = page.size.width
    for f, b in zip(fronts, backs):
        assert f.x + f.width <= width / 2 and b.x >= width / 2
        assert near(b.x, to_mm(width - f.x - f.width)) and near(b.y, to_mm(f.y))
    folds = [m for m in page.marks if m.kind == "fold"]
    assert len(folds) == 1 and near(folds[0].points[0], 148.5) and near(folds[0].points[2], 148.5)
    crops = [m for m in page.marks if m.kind == "crop"]
    assert any(m.points[0] < width / 2 for m in crops) and any(m.points[0] > width / 2 for m in crops)
    assert_crop_marks_are_safe(page, SheetSpec(A4).margin)


def test_gutterfold_folds_horizontally_when_portrait_holds_more_pairs():
    size = Size(mm(90), mm(60))  # portrait halves hold 2 x 2, landscape halves 1 x 3
    (page,) = impose(deck(4, size), SheetSpec(A4, gutterfold=True))
    assert page.size == A4
    fronts = [p for p in page.placements if p.face != "back"]
    backs = [p for p in page.placements if p.face == "back"]
    for f, b in zip(fronts, backs):
        assert f.y >= A4.height / 2 and b.y + b.height <= A4.height / 2
        assert near(b.x, to_mm(f.x)) and near(b.y, to_mm(A4.height - f.y - f.height))
    (fold,) = [m for m in page.marks if m.kind == "fold"]
    assert near(fold.points[1], 148.5) and near(fold.points[3], 148.5)


def test_gutterfold_falls_back_to_back_pages_when_half_a_sheet_is_too_small():
    pages = impose(deck(2, Size(mm(150), mm(200))), SheetSpec(A4, gutterfold=True))
    assert [p.side for p in pages] == ["front", "back", "front", "back"]


def test_round_chips_get_circles_and_no_crop_marks():
    size = Size(mm(25), mm(25))
    page = impose(deck(12, size), SheetSpec(A4, shape="round", gap=mm(3)))[0]
    circles = [m for m in page.marks if m.kind == "circle"]
    assert len(circles) == 12 and not [m for m in page.marks if m.kind == "crop"]
    for m, p in zip(circles, page.placements):
        assert m.points == pytest.approx((p.x + p.width / 2, p.y + p.height / 2, p.width / 2, p.height / 2))


def test_cut_lines_outline_each_trim():
    page = impose(deck(3), SheetSpec(A4, cut_lines=True))[0]
    cuts = [m for m in page.marks if m.kind == "cut"]
    assert [Rect(*m.points) for m in cuts] == [trim(p) for p in page.placements]


def assert_crop_marks_are_safe(page: Page, margin: float) -> None:
    crops = [m for m in page.marks if m.kind == "crop"]
    assert crops
    edges_x = {round(v, 4) for p in page.placements for v in (p.x, p.x + p.width)}
    edges_y = {round(v, 4) for p in page.placements for v in (p.y, p.y + p.height)}
    for m in crops:
        x0, y0, x1, y1 = m.points
        for x, y in ((x0, y0), (x1, y1)):
            assert margin - 1e-6 <= x <= page.size.width - margin + 1e-6
            assert margin - 1e-6 <= y <= page.size.height - margin + 1e-6
        assert to_mm(math.hypot(x1 - x0, y1 - y0)) <= 5 + TOL
        assert (x0 == x1 and round(x0, 4) in edges_x) or (y0 == y1 and round(y0, 4) in edges_y)
        for p in page.placements:  # never inside a trim (touching its edge line is fine)
            t = trim(p)
            inside_x = t.x0 + 1e-6 < max(x0, x1) and min(x0, x1) < t.x1 - 1e-6
            inside_y = t.y0 + 1e-6 < max(y0, y1) and min(y0, y1) < t.y1 - 1e-6
            assert not (inside_x and inside_y and (x0 != x1 or t.x0 < x0 < t.x1) and (y0 != y1 or t.y0 < y0 < t.y1))
            if x0 == x1 and t.x0 - 1e-6 <= x0 <= t.x1 + 1e-6:
                assert max(y0, y1) <= t.y0 + 1e-6 or min(y0, y1) >= t.y1 - 1e-6
            if y0 == y1 and t.y0 - 1e-6 <= y0 <= t.y1 + 1e-6:
                assert max(x0, x1) <= t.x0 + 1e-6 or min(x0, x1) >= t.x1 - 1e-6


@pytest.mark.parametrize("paper, n, gap", [(A4, 9, 0), (LETTER, 9, 0), (A4, 5, 0), (A4, 7, mm(4)),
                                           (A3, 30, 0)])
def test_crop_marks_stay_off_the_margin_and_out_of_trims(paper, n, gap):
    spec = SheetSpec(paper, gap=gap)
    for page in impose(deck(n), spec):
        assert_crop_marks_are_safe(page, spec.margin)


def test_a4_crop_marks_extend_every_cut_line_outside_the_grid():
    page = impose(deck(9), SheetSpec(A4))[0]
    crops = [m.points for m in page.marks if m.kind == "crop"]
    vertical = [p for p in crops if p[0] == p[2]]
    horizontal = [p for p in crops if p[1] == p[3]]
    assert distinct(p[0] for p in vertical) == pytest.approx([10.5, 73.5, 136.5, 199.5], abs=TOL)
    assert distinct(p[1] for p in horizontal) == pytest.approx([16.5, 104.5, 192.5, 280.5], abs=TOL)
    assert len(vertical) == len(horizontal) == 8  # one at each end of each line
    top = [p for p in vertical if p[1] > page.trim_box.y1]
    assert all(near(p[1] - page.trim_box.y1, 1) and near(p[3] - p[1], 5) for p in top)


def tiles_of_map(paper: Size, size_mm=(400, 300), back=None) -> list[Page]:
    return impose([Item("map-face", back, Size(mm(size_mm[0]), mm(size_mm[1])), "map-a")], SheetSpec(paper))


def test_a_large_map_tiles_with_overlap_and_matching_align_marks():
    spec = SheetSpec(A4)
    pages = tiles_of_map(A4)
    assert len(pages) == 4
    assert [p.label for p in pages] == [f"map-a {k}/4 (row {r}, col {c})"
                                        for k, (r, c) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2)], 1)]
    usable = Rect(spec.margin, spec.margin, pages[0].size.width - spec.margin, pages[0].size.height - spec.margin)
    visible = []
    for page in pages:
        (p,) = page.placements
        c = p.clip
        assert usable.x0 - 1e-6 <= c.x0 and c.x1 <= usable.x1 + 1e-6
        assert usable.y0 - 1e-6 <= c.y0 and c.y1 <= usable.y1 + 1e-6
        visible.append(Rect(c.x0 - p.x, c.y0 - p.y, c.x1 - p.x, c.y1 - p.y))  # in item coordinates
    # neighbours overlap by tile_overlap
    assert near(visible[0].x1 - visible[1].x0, 10)  # row 1: col 1 and col 2
    assert near(visible[2].y1 - visible[0].y0, 10)  # col 1: row 2 (below) and row 1
    # together the tiles show the whole item and its bleed
    assert near(min(v.x0 for v in visible), -3) and near(max(v.x1 for v in visible), 403)
    assert near(min(v.y0 for v in visible), -3) and near(max(v.y1 for v in visible), 303)

    def aligns(i):
        (p,) = pages[i].placements
        return {(round(to_mm(m.points[0] - p.x), 3), round(to_mm(m.points[1] - p.y), 3))
                for m in pages[i].marks if m.kind == "align"}

    for a, b in ((0, 1), (2, 3), (0, 2), (1, 3)):
        shared = aligns(a) & aligns(b)
        assert len(shared) == 2
        for x, y in shared:  # inside both tiles' visible parts
            for i in (a, b):
                v = visible[i]
                assert to_mm(v.x0) <= x <= to_mm(v.x1) and to_mm(v.y0) <= y <= to_mm(v.y1)
    assert not aligns(0) & aligns(3)


def test_tiles_carry_crop_marks_at_the_real_trim_corners():
    page = tiles_of_map(A4)[0]
    (p,) = page.placements
    crops = [m.points for m in page.marks if m.kind == "crop"]
    assert any(x0 == x1 == p.x and y0 > p.y + p.height for x0, y0, x1, y1 in crops)  # left edge, above
    assert any(y0 == y1 == p.y + p.height and x0 < p.x for x0, y0, x1, y1 in crops)  # top edge, left
    assert_crop_marks_are_safe(page, SheetSpec(A4).margin)


def test_map_tiles_get_mirrored_backs():
    pages = tiles_of_map(A4, back="map-back")
    assert [p.side for p in pages] == ["front", "back"] * 4
    assert pages[1].placements[0].face == "map-back" and pages[1].label.endswith("back")


def test_a3_holds_a_map_that_fits_without_tiling():
    pages = tiles_of_map(A3, size_mm=(380, 270))
    assert len(pages) == 1
    page = pages[0]
    assert page.size == Size(A3.height, A3.width) and page.label == ""
    (p,) = page.placements
    assert near(p.x, 20) and near(p.y, 13.5)
    assert near(p.clip.x0, 17) and not [m for m in page.marks if m.kind == "align"]


def test_mixed_sizes_and_bad_specs_are_refused():
    with pytest.raises(ValueError, match="share one size"):
        impose(deck(2) + deck(1, Size(mm(44), mm(63))), SheetSpec(A4))
    with pytest.raises(ValueError, match="shape"):
        impose(deck(1), SheetSpec(A4, shape="hex"))
    with pytest.raises(ValueError, match="duplex"):
        impose(deck(1), SheetSpec(A4, duplex="sideways"))
    assert impose([], SheetSpec(A4)) == []


def test_impose_is_deterministic():
    spec = SheetSpec(LETTER, gap=mm(2), cut_lines=True, back_offset=(mm(0.5), 0))
    assert impose(deck(20), spec) == impose(deck(20), spec)
    assert tiles_of_map(A4) == tiles_of_map(A4)


SIZES = [Size(mm(w), mm(h)) for w, h in ((63, 88), (57, 89), (44, 63), (59, 92), (70, 120), (70, 70), (80, 80))]


def white_reach(mark, page) -> float:
    """How far (mm) a crop mark runs past every clip it starts in: the part drawn on white paper."""
    x0, y0, x1, y1 = mark.points
    far = (x1, y1)
    inside = [p.clip for p in page.placements
              if p.clip.x0 - 1e-6 <= far[0] <= p.clip.x1 + 1e-6 and p.clip.y0 - 1e-6 <= far[1] <= p.clip.y1 + 1e-6]
    if inside:
        return 0.0
    ends = [p.clip for p in page.placements
            if (x0 == x1 and p.clip.x0 - 1e-6 <= x0 <= p.clip.x1 + 1e-6) or (y0 == y1 and p.clip.y0 - 1e-6 <= y0 <= p.clip.y1 + 1e-6)]
    if x0 == x1:
        edge = max([c.y1 for c in ends if c.y1 <= max(y0, y1) + 1e-6] or [min(y0, y1)]) if y1 > y0 else \
            min([c.y0 for c in ends if c.y0 >= min(y0, y1) - 1e-6] or [max(y0, y1)])
        return to_mm(abs(y1 - edge))
    edge = max([c.x1 for c in ends if c.x1 <= max(x0, x1) + 1e-6] or [min(x0, x1)]) if x1 > x0 else \
        min([c.x0 for c in ends if c.x0 >= min(x0, x1) - 1e-6] or [max(x0, x1)])
    return to_mm(abs(x1 - edge))


@pytest.mark.parametrize("gutterfold", [False, True], ids=["duplex", "gutterfold"])
@pytest.mark.parametrize("paper", [A4, LETTER, A3, A5, TABLOID], ids=["a4", "letter", "a3", "a5", "tabloid"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{to_mm(s.width):g}x{to_mm(s.height):g}")
def test_every_crop_mark_reaches_3_mm_into_white_paper_or_is_a_tick_up_to_the_margin(paper, size, gutterfold):
    for n in (1, 5, 13):
        spec = SheetSpec(paper, gutterfold=gutterfold)
        for page in impose(deck(n, size), spec):
            crops = [m for m in page.marks if m.kind == "crop"]
            for mark in crops:
                x0, y0, x1, y1 = (to_mm(v) for v in mark.points)
                inside = 6 - TOL <= min(x1, y1) and x1 <= to_mm(page.size.width) - 6 + TOL and \
                    y1 <= to_mm(page.size.height) - 6 + TOL
                tick = abs(x1 - x0) + abs(y1 - y0) >= 1 - TOL and not any(  # a tick stops short of any trim
                    to_mm(p.x) - TOL < x1 < to_mm(p.x + p.width) + TOL and to_mm(p.y) - TOL < y1 < to_mm(p.y + p.height) + TOL
                    for p in page.placements)
                assert inside and (white_reach(mark, page) >= 3 - TOL or tick), (mark, page.bare_edges)
            sides = {("top" if m.points[3] > m.points[1] else "bottom") if m.points[0] == m.points[2]
                     else ("right" if m.points[2] > m.points[0] else "left") for m in crops}
            assert sides | set(page.bare_edges) == {"top", "bottom", "left", "right"}
            assert page.bare_edges == ()  # every paper leaves room for at least a tick
            for vertical, edges in ((True, ("x", "width")), (False, ("y", "height"))):  # a guide on every cut line
                lines = {round(getattr(p, edges[0]) + k * getattr(p, edges[1]), 4) for p in page.placements for k in (0, 1)}
                guided = {round(m.points[0] if vertical else m.points[1], 4) for m in crops
                          if (m.points[0] == m.points[2]) == vertical}
                assert lines <= guided, (vertical, sorted(lines - guided))
            for p in page.placements:  # and the bleed gives way no further than 1 mm
                assert min(to_mm(v) for v in (p.x - p.clip.x0, p.y - p.clip.y0)) >= -TOL


def test_letter_poker_marks_its_vertical_cuts_with_ticks_over_the_bleed_up_to_the_margin():
    page = impose(deck(9), SheetSpec(LETTER))[0]
    assert page.bare_edges == ()
    verticals = [[to_mm(v) for v in m.points] for m in page.marks if m.kind == "crop" and m.points[0] == m.points[2]]
    assert len(verticals) == 8  # above and below each of the four vertical cuts
    height = to_mm(LETTER.height)
    for x0, y0, x1, y1 in verticals:  # from just off the trim to the 6 mm margin: 1.7 mm of room
        assert y1 == pytest.approx(6, abs=TOL) or y1 == pytest.approx(height - 6, abs=TOL)
        assert 1 - TOL <= abs(y1 - y0) < 1.7
    trims = {round(to_mm(p.x), 3) for p in page.placements} | {round(to_mm(p.x + p.width), 3) for p in page.placements}
    assert {round(x0, 3) for x0, *_ in verticals} == trims
    assert len([m for m in page.marks if m.kind == "crop"]) == 16  # and left and right of each horizontal cut


def test_full_sheets_share_their_geometry_and_only_the_faces_differ():
    """A deck's pages hold one Placement a piece; its numbers, clips and marks are the same objects on every
    full sheet (fronts and backs), so memory does not grow with the deck beyond that."""
    pages = impose(deck(9 * 40 + 4), SheetSpec(A4))
    fronts, backs = pages[0:-2:2], pages[1:-2:2]
    for side in (fronts, backs):
        assert all(page.marks is side[0].marks for page in side) and len(side[0].marks) > 0
        for slot in range(9):
            first = side[0].placements[slot]
            assert all(page.placements[slot].clip is first.clip and page.placements[slot].x is first.x for page in side)
    assert [p.face for p in fronts[7].placements] == [f"front-{i}" for i in range(63, 72)]
    assert pages[-2].marks is not fronts[0].marks and len(pages[-2].placements) == 4
    assert not hasattr(fronts[0].placements[0], "__dict__")
