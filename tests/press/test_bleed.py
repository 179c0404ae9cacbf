"""Every placement of every page of the bundled build shows the full bleed on every edge no piece abuts,
on A4, Letter, A3 and gutterfold sheets, fronts and backs; the BleedBox follows the clips."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pdfprobe import clipped_boxes
from pnpgen import Options, build
from pnpgen.press.bleed import clip_trims
from pnpgen.press.cutouts import is_cutout
from pnpgen.press.marks import Rect
from pnpgen.project.validate import load_project
from pnpgen.units import mm, to_mm

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

REPO = Path(__file__).resolve().parents[2]
MARGIN = 6.0  # mm
TOL = 0.01  # mm
BUILDS = {"a4": {"paper": "a4"}, "letter": {"paper": "letter"}, "a3": {"paper": "a3"},
          "gutterfold": {"paper": "a4", "gutterfold": True}}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("bleed")
    out = {}
    for name, extra in BUILDS.items():
        out[name] = root / name
        build(REPO, Options(out_dir=out[name], only="components", check=False, cache_dir=root / "cache", **extra))
    return out


def bleeds() -> dict[str, tuple[float, bool, bool]]:
    """Component id -> (bleed in mm, has crop marks, has backs), from the bundled project."""
    project = load_project(REPO)
    return {c.id: (round(to_mm(c.bleed), 4), c.layout.crop_marks and c.shape == "rect", c.back is not None)
            for g in project.games for c in g.components if not is_cutout(c)}  # die-cut outlines: test_dieline


def printable(trim, page_size, folded) -> tuple[float, float, float, float]:
    """The 6 mm margin; on a gutterfold sheet the fold keeps the same margin on either side."""
    width, height = page_size
    x0, y0, x1, y1 = MARGIN, MARGIN, width - MARGIN, height - MARGIN
    if folded and width > height:
        x0, x1 = (x0, width / 2 - MARGIN) if trim[2] <= width / 2 + TOL else (width / 2 + MARGIN, x1)
    elif folded:
        y0, y1 = (y0, height / 2 - MARGIN) if trim[3] <= height / 2 + TOL else (height / 2 + MARGIN, y1)
    return x0, y0, x1, y1


def expected_room(trim, others, limit, bleed, marked) -> dict[str, float]:
    """The bleed each side should show: all of it, unless the margin or a facing trim (half the gap) is closer.
    Toward the margin a crop mark keeps 3 mm of white beyond the bleed, while that leaves at least 1 mm of bleed."""
    room = {"left": trim[0] - limit[0], "bottom": trim[1] - limit[1], "right": limit[2] - trim[2],
            "top": limit[3] - trim[3]}
    room = {side: max(0.0, value) for side, value in room.items()}
    room = {side: min(bleed, value - 3 if marked and value - 3 >= 1 else value) for side, value in room.items()}
    for o in others:
        beside, above = o[1] < trim[3] - TOL and o[3] > trim[1] + TOL, o[0] < trim[2] - TOL and o[2] > trim[0] + TOL
        if beside and o[0] >= trim[2] - TOL:
            room["right"] = min(room["right"], (o[0] - trim[2]) / 2)
        if beside and o[2] <= trim[0] + TOL:
            room["left"] = min(room["left"], (trim[0] - o[2]) / 2)
        if above and o[1] >= trim[3] - TOL:
            room["top"] = min(room["top"], (o[1] - trim[3]) / 2)
        if above and o[3] <= trim[1] + TOL:
            room["bottom"] = min(room["bottom"], (trim[1] - o[3]) / 2)
    return room


@pytest.mark.parametrize("paper", list(BUILDS))
def test_every_exposed_edge_of_every_placement_has_the_full_bleed(builds, paper):
    by_component = bleeds()
    checked = bare = 0
    for pdf in sorted(builds[paper].rglob("*.pdf")):
        if pdf.stem not in by_component:
            continue  # the print-and-play PDF repeats the component pages
        bleed, marked, backed = by_component[pdf.stem]
        reader = PdfReader(pdf)
        for number, page in enumerate(reader.pages, 1):
            size = (to_mm(float(page.mediabox.width)), to_mm(float(page.mediabox.height)))
            drawn = clipped_boxes(reader, page)
            trims = [(d.box[0] + bleed, d.box[1] + bleed, d.box[2] - bleed, d.box[3] - bleed) for d in drawn]
            inside = [t for t in trims if t[0] >= MARGIN - TOL and t[1] >= MARGIN - TOL
                      and t[2] <= size[0] - MARGIN + TOL and t[3] <= size[1] - MARGIN + TOL]
            if len(inside) < len(trims):
                continue  # a tile of a map larger than the sheet: its windows are tested with the tiles
            for d, trim in zip(drawn, trims):
                others = [t for t in trims if t is not trim]
                shown = {"left": trim[0] - d.clip[0], "bottom": trim[1] - d.clip[1],
                         "right": d.clip[2] - trim[2], "top": d.clip[3] - trim[3]}
                for side, room in expected_room(trim, others, printable(trim, size, backed and paper == 'gutterfold'), bleed, marked).items():
                    checked += 1
                    if shown[side] < room - TOL:
                        bare += 1
                        print(f"{pdf.name} page {number} {side}: {shown[side]:.2f} mm of bleed, expected {room:.2f}")
                for t in others:  # no clip enters another trim
                    assert min(d.clip[2], t[2]) - max(d.clip[0], t[0]) <= TOL or \
                        min(d.clip[3], t[3]) - max(d.clip[1], t[1]) <= TOL
            box = [float(v) for v in page.bleedbox]
            union = [min(d.clip[0] for d in drawn), min(d.clip[1] for d in drawn),
                     max(d.clip[2] for d in drawn), max(d.clip[3] for d in drawn)]
            assert [round(to_mm(v), 2) for v in box] == pytest.approx(union, abs=0.02), (pdf.name, number)
    assert checked > 400
    assert bare == 0


def test_a_part_filled_last_row_gets_bleed_toward_the_empty_cells():
    a4, poker = Rect(mm(6), mm(6), mm(204), mm(291)), (mm(63), mm(88))
    trims = [Rect(mm(10.5) + c * poker[0], mm(104.5) - r * poker[1], mm(10.5) + (c + 1) * poker[0],
                  mm(104.5) - r * poker[1] + poker[1]) for r in range(2) for c in range(3)][:4]  # 3 + 1
    clips = clip_trims(trims, a4, mm(3))
    lone, above_gap = clips[3], clips[1]
    assert to_mm(lone.x1 - trims[3].x1) == pytest.approx(3)  # nothing to its right
    assert to_mm(trims[1].y0 - above_gap.y0) == pytest.approx(3)  # the cell below it is empty
    assert to_mm(trims[0].y0 - clips[0].y0) == pytest.approx(0)  # the lone card abuts it
    assert to_mm(lone.x0 - trims[3].x0) == pytest.approx(-3)


def test_a_clip_stops_short_of_a_piece_across_a_corner():
    limit = Rect(0, 0, mm(200), mm(200))
    a, b = Rect(mm(50), mm(50), mm(100), mm(100)), Rect(mm(100), mm(100) + mm(0), mm(150), mm(150))  # corner to corner
    c = Rect(mm(101), mm(99), mm(150), mm(99.5))  # just right of a, a sliver below b
    clips = clip_trims([a, b, c], limit, mm(3))
    for clip, own in zip(clips, (a, b, c)):
        for other in (a, b, c):
            if other is not own:
                overlap_w = min(clip.x1, other.x1) - max(clip.x0, other.x0)
                overlap_h = min(clip.y1, other.y1) - max(clip.y0, other.y0)
                assert overlap_w <= 1e-6 or overlap_h <= 1e-6
