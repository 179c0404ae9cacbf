"""Export for print shops: preset pixel sizes exactly as the shops publish them, a one-card-per-page PDF
with TrimBox and BleedBox holding every piece, and presets that do not fit a component refused."""
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen import PnpError, units
from pnpgen.export.run import ExportOptions, export
from pnpgen.export.shop import PRESETS, find_preset, match_preset

FIXTURES = Path(__file__).parents[1] / "fixtures"
MINIMAL, NUMBERED = FIXTURES / "minimal", FIXTURES / "numbered-backs"


@pytest.mark.parametrize("name, size", [
    ("dtpc-poker", (825, 1125)),  # 2.75 × 3.75 in: 2.5 × 3.5 in and 1/8 in bleed at 300 dpi
    ("tgc-poker", (825, 1125)),
    ("tgc-tarot", (900, 1500)),
    ("mpc-poker", (822, 1122)),  # MPC's own figure: 36 px of bleed, not 37.5
    ("mpc-bridge", (747, 1122)),
    ("mpc-tarot", (897, 1497)),
    ("mpc-mini", (597, 822)),
])
def test_preset_pixels_are_the_published_ones(name, size):
    assert PRESETS[name].pixels() == size


def test_preset_pixels_scale_with_dpi():
    assert PRESETS["mpc-poker"].pixels(600) == (1644, 2244)
    assert PRESETS["dtpc-poker"].pixels(600) == (1650, 2250)


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(PnpError) as err:
        find_preset("mpc-jumbo")
    message = str(err.value)
    assert message.startswith("--preset mpc-jumbo: no such print-shop preset; expected one of: ")
    assert all(name in message for name in PRESETS)
    assert "mpc-poker (MakePlayingCards, 2.5 × 3.5 in, 822 × 1122 px)" in message


def test_presets_match_components_by_size():
    from pnpgen.project.validate import load_project

    project = load_project(Path(__file__).parents[2])
    matched = {c.id: getattr(match_preset(c), "name", None) for g in project.games for c in g.components}
    assert matched["battle-cards"] == "mpc-poker"
    assert matched["bullet-chips"] is None and matched["area-map"] is None


@pytest.fixture(scope="module")
def minimal_shop(tmp_path_factory):
    out = tmp_path_factory.mktemp("shop")
    return out / "tiny" / "shop", export(MINIMAL, "shop", ExportOptions(out_dir=out, preset="dtpc-poker"))


def test_shop_pngs_are_the_preset_size_exactly(minimal_shop):
    folder, report = minimal_shop
    images = sorted((folder / "dtpc-poker").iterdir())
    assert [p.name for p in images] == sorted(f"deck-{i:03d}-{s}.png" for i in range(1, 7) for s in ("front", "back"))
    for path in images:
        image = Image.open(path)
        assert image.size == (825, 1125) and image.mode == "RGB", path.name
    assert not report.notes  # 63 × 88 mm with 3 mm bleed fills 2.75 × 3.75 in within 1 %


def test_shop_pdf_has_every_piece_front_then_back_with_trim_and_bleed_boxes(minimal_shop):
    folder, _ = minimal_shop
    reader = PdfReader(folder / "deck.pdf")
    assert len(reader.pages) == 6 * 2
    for page in reader.pages:
        media = [units.to_mm(float(v)) for v in page.mediabox]
        trim = [units.to_mm(float(v)) for v in page.trimbox]
        bleed = [units.to_mm(float(v)) for v in page.bleedbox]
        assert media == pytest.approx([0, 0, 69, 94], abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)
        assert trim == pytest.approx([3, 3, 66, 91], abs=0.01)
    forms = [sorted(page["/Resources"]["/XObject"]) for page in reader.pages]
    assert forms[0] == forms[2] == forms[4] != forms[6]  # 剣 ×3: the same front form, repeated per copy
    assert forms[1] == forms[3] == forms[11]  # the shared back after every front


def test_default_preset_is_the_one_matching_the_size(tmp_path):
    report = export(NUMBERED, "shop", ExportOptions(out_dir=tmp_path))
    folder = tmp_path / "numbers" / "shop"
    assert sorted(p.name for p in folder.iterdir()) == ["deck.pdf", "mpc-poker"]
    assert Image.open(folder / "mpc-poker" / "deck-012-back.png").size == (822, 1122)
    assert len(list((folder / "mpc-poker").iterdir())) == 24
    assert len(PdfReader(folder / "deck.pdf").pages) == 24
    assert report.faces == 24


def test_a_preset_of_another_shape_is_refused_with_a_note(tmp_path):
    report = export(MINIMAL, "shop", ExportOptions(out_dir=tmp_path, preset="tgc-square"))
    folder = tmp_path / "tiny" / "shop"
    assert sorted(p.name for p in folder.iterdir()) == ["deck.pdf"]
    assert any("does not fit tgc-square" in note and "shape differs by" in note for note in report.notes)


def fit_notes(width_mm: float, height_mm: float, preset: str) -> tuple[bool, list[str]]:
    from types import SimpleNamespace

    from pnpgen.errors import Location
    from pnpgen.export.shop import judge_fit
    from pnpgen.project.model import Component, Layout, Size

    component = Component("deck", "deck", "card", Size(units.mm(width_mm), units.mm(height_mm)), "rect", units.mm(3),
                          "front.svg.j2", None, False, Layout(), (), Location("cards.yaml"))
    job = SimpleNamespace(report=SimpleNamespace(notes=[]))
    faces = SimpleNamespace(component=component, game=SimpleNamespace(id="g"))
    return judge_fit(job, faces, find_preset(preset), 300), job.report.notes


def test_a_slightly_different_shape_is_stretched_with_a_note():
    fits, notes = fit_notes(61, 88, "mpc-poker")  # 67 × 94 mm onto 822 × 1122 px: 3.9 % across, 1.1 % down
    assert fits
    assert notes == ["g/deck: stretched 2.8% more one way than the other to fill mpc-poker",
                     "g/deck: printed at 104% × 101% of its designed size (61 × 88 mm) by mpc-poker"]


def test_poker_fits_poker_presets_silently():
    assert fit_notes(63, 88, "mpc-poker") == (True, [])
    assert fit_notes(63, 88, "tgc-poker") == (True, [])


def test_components_without_a_matching_preset_get_the_pdf_only(tmp_path):
    report = export(Path(__file__).parents[2], "shop",
                    ExportOptions(out_dir=tmp_path, game="last-wan-standing-quickdraw", dpi=30))
    folder = tmp_path / "last-wan-standing-quickdraw" / "shop"
    assert sorted(p.name for p in folder.iterdir()) == ["bullet-chips.pdf", "target-chips.pdf"]
    assert len(PdfReader(folder / "bullet-chips.pdf").pages) == 49 * 2
    assert any("bullet-chips: no print-shop preset matches 25 × 25 mm" in note for note in report.notes)
