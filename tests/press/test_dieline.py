"""Die-cut pieces measured in the PDF: tuck box panels, hex tiles, path outlines with bleed, standees."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.units import to_mm

from pdfprobe import clipped_forms, paths

FIXTURE = Path(__file__).parents[1] / "fixtures" / "die-cut"
TOL = 0.1  # mm
BLEED = 3.0


def build(tmp_path: Path, paper: str = "a4", edit=None) -> Path:
    project = tmp_path / "die-cut"
    shutil.copytree(FIXTURE, project)
    if edit:
        source = project / "cards.yaml"
        source.write_text(edit(source.read_text(encoding="utf-8")), encoding="utf-8")
    pnpgen.build(project, Options(out_dir=tmp_path / "out", paper=paper, check=False))
    return tmp_path / "out" / "cut"


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory):
    return build(tmp_path_factory.mktemp(request.param), request.param)


def page_paths(pdf: Path, index: int = 0):
    reader = PdfReader(pdf)
    return reader, reader.pages[index], paths(reader, reader.pages[index])


def cut_segments(found) -> list:
    return [s for p in found if p.use == "stroke" and not p.dashed for s in p.segments()]


def fold_segments(found) -> list:
    return [s for p in found if p.use == "stroke" and p.dashed for s in p.segments()]


def length(segment) -> float:
    return math.dist(*segment)


# Tuck box ---------------------------------------------------------------------------------------

def box_lines(out: Path):
    _, _, found = page_paths(out / "deck-box.pdf")
    folds, cuts = fold_segments(found), cut_segments(found)
    xs = sorted({round(a[0], 3) for a, b in folds if abs(a[0] - b[0]) < 1e-6})  # vertical folds
    ys = sorted({round(a[1], 3) for a, b in folds if abs(a[1] - b[1]) < 1e-6})  # horizontal folds
    points = [p for s in cuts for p in s]
    left = min(p[0] for p in points)
    return xs, ys, cuts, folds, left, points


def test_box_panels_are_card_plus_clearance_and_deck_deep(built):
    xs, ys, _, _, left, _ = box_lines(built)
    width, height, depth = 63 + 1, 88 + 1, 46 * 0.30 + 1  # poker + 1 mm clearance; 46 cards × 0.30 mm + 1 mm
    assert len(xs) == 4  # front | side | back | side | glue tab
    panels = [xs[0] - left, xs[1] - xs[0], xs[2] - xs[1], xs[3] - xs[2]]
    for found, expected in zip(panels, (width, depth, width, depth)):
        assert found == pytest.approx(expected, abs=TOL)
    # tuck flap | end | body | end | tuck flap: the body between the two hinges of the ends
    assert len(ys) == 4
    assert ys[2] - ys[1] == pytest.approx(height, abs=TOL)
    assert ys[1] - ys[0] == pytest.approx(depth, abs=TOL)
    assert ys[3] - ys[2] == pytest.approx(depth, abs=TOL)


def test_box_cuts_are_solid_folds_dashed_and_never_the_same_line(built):
    xs, ys, cuts, folds, _, _ = box_lines(built)
    assert cuts and folds
    for a, b in cuts:  # no cut runs along a fold, and there are no crop marks: every cut is on the outline
        on_fold = [f for f in folds if _collinear_overlap((a, b), f)]
        assert not on_fold
    outline_edges = {tuple(sorted((tuple(round(v, 2) for v in a), tuple(round(v, 2) for v in b)))) for a, b in cuts}
    assert len(outline_edges) == len(cuts)  # each cut once
    ends = [p for f in folds for p in f]
    cut_points = {tuple(round(v, 1) for v in p) for s in cuts for p in s}
    for p in ends:  # every fold ends on the outline or on another fold
        assert tuple(round(v, 1) for v in p) in cut_points or any(_on_segment(p, f) for f in folds if p not in f)


def test_the_tuck_flap_is_on_the_side_that_opens(built):
    xs, ys, cuts, folds, left, points = box_lines(built)
    front = (left, xs[0])
    top = ys[2]
    # the thumb notch dips into the front's top edge: that is where the box opens
    notch = [p for p in points if front[0] + 5 < p[0] < front[1] - 5 and top - 12 < p[1] < top - 1]
    assert notch and min(p[1] for p in notch) == pytest.approx(top - 10, abs=TOL)
    # the front's bottom edge is straight: no notch there
    assert not [p for p in points if front[0] + 1 < p[0] < front[1] - 1 and ys[1] + 1 < p[1] < ys[1] + 12]
    # the lid (end) and its tuck flap hinge on the back's top edge, on the same side as the notch
    back = (xs[1], xs[2])
    lid_folds = [f for f in folds if abs(f[0][1] - f[1][1]) < 1e-6 and f[0][1] > top - 0.01
                 and back[0] - 0.01 <= min(f[0][0], f[1][0]) and max(f[0][0], f[1][0]) <= back[1] + 0.01]
    assert sorted(round(f[0][1], 2) for f in lid_folds) == [round(ys[2], 2), round(ys[3], 2)]
    highest = max(p[1] for p in points if back[0] <= p[0] <= back[1])
    assert highest > ys[3] + 10  # the tuck flap beyond the lid


def test_box_art_stays_inside_its_panels_bleed(built):
    reader, page, _ = page_paths(built / "deck-box.pdf")
    xs, ys, _, _, left, _ = box_lines(built)
    forms = clipped_forms(reader, page)
    assert len(forms) == 12  # front, back, 2 sides, 2 ends, 2 tuck flaps, 4 dust flaps (the glue tab is blank)
    xobjects = page["/Resources"]["/XObject"]
    for drawn, clip, ctm in forms:
        box = [float(v) for v in xobjects["/FormXob." + drawn.form]["/BBox"]]
        w, h = (box[2] - box[0]) / 72 * 25.4, (box[3] - box[1]) / 72 * 25.4
        x0, y0 = min(drawn.x_mm, drawn.x_mm + ctm[0] * w / abs(ctm[0])), min(drawn.y_mm, drawn.y_mm + ctm[3] * h / abs(ctm[3]))
        points = [p for sub in clip.subpaths for p in sub]
        assert min(p[0] for p in points) >= x0 - 0.01 and max(p[0] for p in points) <= x0 + w + 0.01
        assert min(p[1] for p in points) >= y0 - 0.01 and max(p[1] for p in points) <= y0 + h + 0.01
    # the front panel's art stops at its fold to the side panel, and bleeds 3 mm past its cut edges
    front = [c for d, c, _ in forms if abs(d.x_mm - (left - BLEED)) < TOL and abs(d.y_mm - (ys[1] - BLEED)) < TOL]
    assert len(front) == 1
    points = [p for sub in front[0].subpaths for p in sub]
    assert min(p[0] for p in points) == pytest.approx(left - BLEED, abs=0.02)
    edges = front[0].segments()
    side = [(xs[0] + 0.05 + i * (xs[1] - xs[0] - 0.1) / 9, ys[1] + 0.05 + j * (ys[2] - ys[1] - 0.1) / 29)
            for i in range(10) for j in range(30)]
    assert not [p for p in side if _inside(p, edges)]  # nothing of the front's art on the side panel
    assert _inside((xs[0] - 0.05, (ys[1] + ys[2]) / 2), edges)  # … right up to the fold


def test_box_grows_with_the_deck(tmp_path):
    out = build(tmp_path, edit=lambda text: text.replace("copies: 46", "copies: 52"))
    xs, _, _, _, _, _ = box_lines(out)
    assert xs[1] - xs[0] == pytest.approx(52 * 0.30 + 1, abs=TOL)


def test_sleeves_and_card_thickness_change_the_box(tmp_path):
    out = build(tmp_path, edit=lambda text: "project: {card_thickness: 0.35mm}\n" +
                text.replace("box: {deck: deck}", "box: {deck: deck, sleeves: true}"))
    xs, _, _, _, left, _ = box_lines(out)
    assert xs[0] - left == pytest.approx(63 + 3 + 1, abs=TOL)
    assert xs[1] - xs[0] == pytest.approx(46 * 0.45 + 1, abs=TOL)


def test_a_box_too_big_for_the_paper_names_the_largest_deck_that_fits(tmp_path):
    with pytest.raises(PnpError) as raised:
        build(tmp_path / "big", edit=lambda text: text.replace("copies: 46", "copies: 400"))
    message = str(raised.value)
    assert "cards.yaml:" in message and "box 'deck-box' for deck 'deck' (400 cards)" in message
    largest = int(message.split("the largest deck of these cards that fits is ")[1].split(" ")[0])
    build(tmp_path / "fits", edit=lambda text: text.replace("copies: 46", f"copies: {largest}"))
    with pytest.raises(PnpError):
        build(tmp_path / "one-more", edit=lambda text: text.replace("copies: 46", f"copies: {largest + 1}"))


def test_check_states_the_box_depth(tmp_path):
    project = tmp_path / "die-cut"
    shutil.copytree(FIXTURE, project)
    lines = [f.line() for f in pnpgen.check(project)]
    assert any("deck-box" in line and "46 cards × 0.30 mm" in line and "14.8 mm" in line for line in lines)


# Hexes, paths, rounded rectangles -----------------------------------------------------------------

@pytest.mark.parametrize("component, side", [("hexes", 20.0), ("pointy", 30 / 2)])
def test_hex_sides_are_exact_and_neighbours_share_cuts(built, component, side):
    _, _, found = page_paths(built / f"{component}.pdf")
    cuts = cut_segments(found)
    assert cuts and all(length(s) == pytest.approx(side, abs=0.01) for s in cuts)
    keys = [tuple(sorted((tuple(round(v, 2) for v in a), tuple(round(v, 2) for v in b)))) for a, b in cuts]
    assert len(set(keys)) == len(keys)  # a shared edge is cut once
    pieces = {"hexes": 12, "pointy": 7}[component]
    assert len(cuts) < 6 * pieces  # edges are shared


def test_hex_bleed_stops_at_neighbours(built):
    reader, page, _ = page_paths(built / "hexes.pdf")
    forms = clipped_forms(reader, page)
    assert len(forms) == 12
    shapes = [[p for sub in c.subpaths for p in sub] for _, c, _ in forms]
    areas = [_area(sub) for _, c, _ in forms for sub in c.subpaths[:1]]
    hexagon = 3 * math.sqrt(3) / 2 * 20 ** 2
    assert all(a >= hexagon - 1 for a in areas)
    assert min(areas) < hexagon + 3 * 20 * 6 * 0.7  # inner hexes lose the bleed over shared edges
    assert shapes


def test_pointy_hex_backs_mirror_their_fronts(built):
    reader = PdfReader(built / "pointy.pdf")
    assert len(reader.pages) == 2
    width, height = (float(v) / 72 * 25.4 for v in reader.pages[0].mediabox.upper_right)
    extent = (30 * math.sqrt(3) / 2 + 2 * BLEED, 30 + 2 * BLEED)
    fronts = sorted((round(d.x_mm, 1), round(d.y_mm, 1)) for d, _, _ in clipped_forms(reader, reader.pages[0]))
    backs = [(d.x_mm, d.y_mm) for d, _, _ in clipped_forms(reader, reader.pages[1])]
    if height >= width:  # long-edge duplex turns a portrait sheet about its vertical middle
        mirrored = [(width - x - extent[0], y) for x, y in backs]
    else:
        mirrored = [(x, height - y - extent[1]) for x, y in backs]
    assert fronts == sorted((round(x, 1), round(y, 1)) for x, y in mirrored)


def test_path_outline_gets_its_bleed_outward(built):
    reader, page, found = page_paths(built / "shield.pdf")
    cuts = cut_segments(found)
    (drawn, clip, _), = clipped_forms(reader, page)
    outline = cuts
    ring = [p for sub in clip.subpaths for p in sub]
    distances = [min(_distance(p, s) for s in outline) for p in ring]
    assert min(distances) == pytest.approx(BLEED, abs=0.05) and max(distances) == pytest.approx(BLEED, abs=0.05)
    xs = [p[0] for s in cuts for p in s]
    ys = [p[1] for s in cuts for p in s]
    assert max(xs) - min(xs) == pytest.approx(40, abs=0.01) and max(ys) - min(ys) == pytest.approx(50, abs=0.01)
    assert all(_inside(p, cuts) is False for p in ring)  # the bleed ring lies outside the cut


def test_rounded_corners_have_their_radius(built):
    _, _, found = page_paths(built / "rounded.pdf")
    cuts = cut_segments(found)
    points = [p for s in cuts for p in s]
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    corner = [p for p in points if p[0] < x0 + 4 and p[1] < y0 + 4]  # bottom-left corner of the lowest-left card
    centre = (x0 + 4, y0 + 4)
    assert corner and all(math.dist(p, centre) == pytest.approx(4, abs=0.03) for p in corner)


# Standees -----------------------------------------------------------------------------------------

def test_standee_back_is_the_front_mirrored_about_the_fold(built):
    import pypdfium2 as pdfium

    reader, page, found = page_paths(built / "hero.pdf")
    folds = fold_segments(found)
    ys = sorted({round(a[1], 3) for a, b in folds})
    assert len(ys) == 3 and ys[1] - ys[0] == pytest.approx(60, abs=TOL) and ys[2] - ys[1] == pytest.approx(60, abs=TOL)
    head = ys[1]
    (front, _, front_m), (back, _, back_m) = clipped_forms(reader, page)
    assert front_m[3] > 0 and back_m[3] < 0  # the back is drawn upside down …
    assert front_m[0] > 0 and back_m[0] > 0  # … and not turned left to right: mirrored about the fold
    # render and compare: the 60 mm above the fold is the 60 mm below it, flipped
    dpi = 100
    image = pdfium.PdfDocument(str(built / "hero.pdf"))[0].render(scale=dpi / 72).to_pil().convert("RGB")
    height_mm = float(page.mediabox.height) / 72 * 25.4
    px = lambda mm: round(mm / 25.4 * dpi)
    xs = sorted(p[0] for s in cut_segments(found) for p in s)
    left, right = px(xs[0]) + 3, px(xs[-1]) - 3
    fold_row = px(height_mm - head)
    mismatches = 0
    for k in range(3, px(60) - 3, 7):
        for x in range(left, right, 5):
            above, below = image.getpixel((x, fold_row - k)), image.getpixel((x, fold_row + k))
            mismatches += max(abs(a - b) for a, b in zip(above, below)) > 40
    assert mismatches == 0


def _collinear_overlap(a, b) -> bool:
    (p, q), (r, s) = a, b
    if _distance(r, (p, q)) > 0.01 or _distance(s, (p, q)) > 0.01:
        return False
    ax = sorted([p, q])
    bx = sorted([r, s])
    return min(ax[1], bx[1]) > max(ax[0], bx[0]) and length(a) > 0.01 and length(b) > 0.01 and \
        math.dist(max(ax[0], bx[0]), min(ax[1], bx[1])) > 0.05


def _on_segment(p, segment) -> bool:
    return _distance(p, segment) < 0.01


def _distance(p, segment) -> float:
    (ax, ay), (bx, by) = segment
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _inside(p, segments) -> bool:
    crossings = 0
    for (ax, ay), (bx, by) in segments:
        if (ay > p[1]) != (by > p[1]) and p[0] < ax + (p[1] - ay) * (bx - ax) / (by - ay):
            crossings += 1
    return crossings % 2 == 1


def _area(points) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


def test_die_cut_builds_are_byte_identical(tmp_path):
    first, second = build(tmp_path / "one"), build(tmp_path / "two")
    for name in ("deck-box", "hexes", "pointy", "shield", "rounded", "hero", "cut-print-and-play"):
        assert (first / f"{name}.pdf").read_bytes() == (second / f"{name}.pdf").read_bytes(), name


def test_gutterfold_leaves_die_cut_backs_on_duplex_pages_and_says_so(tmp_path):
    project = tmp_path / "die-cut"
    shutil.copytree(FIXTURE, project)
    report = pnpgen.build(project, Options(out_dir=tmp_path / "out", gutterfold=True, check=False))
    assert any("cut/pointy: die-cut pieces are not folded in the gutter" in note for note in report.notes)
    assert len(PdfReader(tmp_path / "out" / "cut" / "pointy.pdf").pages) == 2


def test_the_readme_examples_build_on_letter(tmp_path):
    docs = Path(__file__).parents[2] / "docs" / "die-cut"
    report = pnpgen.build(docs, Options(out_dir=tmp_path, paper="letter"))
    assert {p.name for p in report.written} >= {"terrain.pdf", "shields.pdf", "spells.pdf", "heroes.pdf", "spells-box.pdf"}
    for pdf in tmp_path.rglob("*.pdf"):
        for page in PdfReader(pdf).pages:
            assert [round(float(v) / 72 * 25.4, 1) for v in page.mediabox.upper_right] in ([215.9, 279.4], [279.4, 215.9])


def test_slot_standee_has_a_base_card_with_a_slit_as_wide_as_the_figure(built):
    reader, page, found = page_paths(built / "archer.pdf")
    cuts = cut_segments(found)
    horizontal = [s for s in cuts if abs(s[0][1] - s[1][1]) < 1e-6]
    ys = sorted({round(s[0][1], 2) for s in horizontal})
    # base card bottom and top, the slit halfway up it, the figure's feet and head
    bottom = ys[0]
    slit = [s for s in horizontal if abs(s[0][1] - (bottom + 9)) < 0.01]
    assert len(slit) == 1 and length(slit[0]) == pytest.approx(30, abs=0.01)
    card = [s for s in horizontal if abs(s[0][1] - bottom) < 0.01]
    assert sum(length(s) for s in card) == pytest.approx(40, abs=0.01)  # 5 mm past each side of the figure
    folds = fold_segments(found)
    assert len(folds) == 1 and length(folds[0]) == pytest.approx(30, abs=0.01)  # only the head: no fold-out base
    (_, _, front_m), (_, _, back_m) = clipped_forms(reader, page)
    assert front_m[0] > 0 and front_m[3] > 0 and back_m[0] < 0 and back_m[3] < 0  # a back drawn from behind turns half round


def test_hexes_with_a_gap_are_cut_one_by_one(tmp_path):
    out = build(tmp_path, edit=lambda text: text.replace("size: {width: 40mm}\n", "size: {width: 40mm}\n        layout: {gap: 3mm}\n"))
    _, _, found = page_paths(out / "hexes.pdf")
    cuts = cut_segments(found)
    assert len(cuts) == 6 * 12 and all(length(s) == pytest.approx(20, abs=0.01) for s in cuts)


def test_every_bundled_deck_has_a_tuck_box_in_its_print_and_play(tmp_path):
    root = Path(__file__).parents[2]
    project = pnpgen.load_project(root)
    for game in project.games:
        decks = {c.id for c in game.components if c.kind == "card"}
        boxed = [c.box.deck for c in game.components if c.box]
        assert sorted(boxed) == sorted(decks), game.id
    pnpgen.build(root, Options(out_dir=tmp_path, game="three-times-undress", only="components", check=False))
    combined = PdfReader(tmp_path / "three-times-undress" / "three-times-undress-print-and-play.pdf")
    labels = [" ".join(line for line in page.extract_text().splitlines() if "box for" in line) for page in combined.pages]
    assert sum("battle-cards-box: box for battle-cards" in label for label in labels) == 1
    assert sum("mahjong-players-box: box for mahjong-players" in label for label in labels) == 1
    _, _, found = page_paths(tmp_path / "three-times-undress" / "mahjong-players-box.pdf")
    vertical = sorted({round(a[0], 3) for a, b in fold_segments(found) if abs(a[0] - b[0]) < 1e-6})
    assert vertical[1] - vertical[0] == pytest.approx(15 * 0.30 + 1, abs=TOL)  # 15 雀士 cards: 5.5 mm deep


@pytest.mark.parametrize("paper, left", [("a4", 1.5), ("letter", None)])  # Letter leaves room for all 3 mm
def test_a_die_cut_piece_whose_bleed_the_margin_cuts_says_so_as_a_grid_does(tmp_path, paper, left):
    project = tmp_path / "die-cut"
    shutil.copytree(FIXTURE, project)
    report = pnpgen.build(project, Options(out_dir=tmp_path / "out", paper=paper, check=False))
    said = [n for n in report.notes if n.startswith("cut/rounded: ")]
    assert said == ([f"cut/rounded: on {paper.upper()} the outer bleed is {left} mm on some edges (asked 3 mm) to keep "
                     "the 6 mm margin home printers cannot print clear"] if left else [])
    reader = PdfReader(tmp_path / "out" / "cut" / "rounded.pdf")
    for page in reader.pages:  # and that is what the page holds: no clip past the margin, some short of 3 mm
        width, height = to_mm(float(page.mediabox.width)), to_mm(float(page.mediabox.height))
        clips = [(min(xs), min(ys), max(xs), max(ys)) for _, path, _ in clipped_forms(reader, page)
                 for xs, ys in [([x for sub in path.subpaths for x, _ in sub], [y for sub in path.subpaths for _, y in sub])]]
        assert clips and all(c[0] >= 6 - TOL and c[1] >= 6 - TOL and c[2] <= width - 6 + TOL and c[3] <= height - 6 + TOL
                             for c in clips)
        nearest = min(min(c[0], c[1], width - c[2], height - c[3]) for c in clips)
        assert nearest == pytest.approx(6, abs=TOL) if left else nearest >= 6 - TOL
