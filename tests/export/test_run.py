"""Export PNGs of real projects: names and counts, exact pixel sizes, the same pixels as the print PDF,
byte-identical re-exports, stale files removed, proof sheets, and the errors a user can make."""
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageStat
from pypdf import PdfReader

import pnpgen
from pnpgen import PnpError
from pnpgen.export.run import ExportOptions, export

FIXTURES = Path(__file__).parents[1] / "fixtures"
MINIMAL, NUMBERED = FIXTURES / "minimal", FIXTURES / "numbered-backs"


def px(mm: float, dpi: int = 300) -> int:
    return round(mm / 25.4 * dpi)


def run(project: Path, kind: str, out: Path, **options) -> pnpgen.export.run.ExportReport:
    return export(project, kind, ExportOptions(out_dir=out, **options))


@pytest.fixture(scope="module")
def minimal_png(tmp_path_factory):
    out = tmp_path_factory.mktemp("png")
    return out, run(MINIMAL, "png", out)


def test_one_png_per_piece_and_side_named_for_uploaders(minimal_png):
    out, report = minimal_png
    folder = out / "tiny" / "png"
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(f"deck-{i:03d}-{side}.png" for i in range(1, 7) for side in ("front", "back"))
    assert report.pieces == 6 and report.faces == 4  # 3 distinct fronts and the shared back, each rendered once
    assert sorted(report.written) == sorted(folder.iterdir())


def test_poker_pngs_with_bleed_at_300_dpi(minimal_png):
    out, _ = minimal_png
    image = Image.open(out / "tiny" / "png" / "deck-001-front.png")
    assert image.size == (px(63 + 6), px(88 + 6)) == (815, 1110)
    assert image.mode == "RGB"
    assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_poker_pngs_without_bleed_are_the_trim(tmp_path):
    run(MINIMAL, "png", tmp_path, bleed=False)
    for path in (tmp_path / "tiny" / "png").iterdir():
        assert Image.open(path).size == (px(63), px(88)) == (744, 1039), path.name


def test_copies_share_the_bytes_of_their_face(minimal_png):
    out, _ = minimal_png
    folder = out / "tiny" / "png"
    fronts = [(folder / f"deck-{i:03d}-front.png").read_bytes() for i in range(1, 7)]
    assert fronts[0] == fronts[1] == fronts[2] != fronts[3]  # 剣 ×3, then 盾 ×2, then 弓
    assert fronts[3] == fronts[4] != fronts[5]
    assert len({(folder / f"deck-{i:03d}-back.png").read_bytes() for i in range(1, 7)}) == 1


def test_png_pixels_are_those_of_the_print_pdf(tmp_path):
    """The first card's trim on the built A4 sheet, rendered by pypdfium2, against its no-bleed PNG."""
    pnpgen.build(MINIMAL, pnpgen.Options(out_dir=tmp_path / "pdf"))
    run(MINIMAL, "png", tmp_path / "png", bleed=False)
    png = Image.open(tmp_path / "png" / "tiny" / "png" / "deck-001-front.png").convert("RGB")
    document = pdfium.PdfDocument(str(tmp_path / "pdf" / "tiny" / "deck.pdf"))
    page = document[0]
    left, _, _, top = page.get_trimbox()  # the grid's top-left corner is card 1's
    sheet = page.render(scale=300 / 72).to_pil().convert("RGB")
    x, y = round(left / 72 * 300), round((page.get_height() - top) / 72 * 300)
    region = sheet.crop((x, y, x + png.width, y + png.height))
    document.close()
    want, got = ImageStat.Stat(region).mean, ImageStat.Stat(png).mean
    assert got == pytest.approx(want, abs=1.5)  # mean colour of the whole trim, per channel
    for xy in [(png.width // 2, 40), (60, png.height // 2), (png.width // 2, png.height - 60)]:
        assert png.getpixel(xy) == pytest.approx(region.getpixel(xy), abs=8), xy


def test_two_exports_are_byte_identical(tmp_path):
    run(NUMBERED, "png", tmp_path / "a")
    run(NUMBERED, "png", tmp_path / "b", workers=1)  # one process, against the default of every core
    a = sorted((tmp_path / "a" / "numbers" / "png").iterdir())
    b = sorted((tmp_path / "b" / "numbers" / "png").iterdir())
    assert [p.name for p in a] == [p.name for p in b] and len(a) == 24
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b))


def test_double_sided_backs_differ_per_piece(tmp_path):
    report = run(NUMBERED, "png", tmp_path, dpi=60)
    folder = tmp_path / "numbers" / "png"
    backs = [folder / f"deck-{i:03d}-back.png" for i in range(1, 13)]
    assert len({p.read_bytes() for p in backs}) == 12
    assert report.faces == 24
    assert Image.open(backs[0]).size == (px(69, 60), px(94, 60))


def test_stale_images_of_removed_pieces_go(tmp_path):
    folder = tmp_path / "tiny" / "png"
    folder.mkdir(parents=True)
    (folder / "deck-007-front.png").write_bytes(b"old")
    (folder / "notes.txt").write_text("mine")
    report = run(MINIMAL, "png", tmp_path, dpi=30)
    assert not (folder / "deck-007-front.png").exists()
    assert report.removed == [folder / "deck-007-front.png"]
    assert (folder / "notes.txt").read_text() == "mine"


def test_proof_sheet_shows_every_distinct_face(tmp_path):
    report = run(NUMBERED, "proof", tmp_path)
    path = tmp_path / "numbers" / "proof" / "deck.pdf"
    assert report.written == [path]
    reader = PdfReader(path)
    assert len(reader.pages) == 2  # 24 distinct faces, 20 poker faces at 50 % to an A4 page
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)
    text = reader.pages[0].extract_text()
    assert "front #1 (1×)" in text and "number=1" in text
    assert "back #1" in reader.pages[1].extract_text()
    document = pdfium.PdfDocument(str(path))
    assert len(document) == 2 and document[1].render(scale=0.2).to_pil().size[0] > 0
    document.close()


def test_proof_of_a_deck_with_a_shared_back(tmp_path):
    run(MINIMAL, "proof", tmp_path)
    reader = PdfReader(tmp_path / "tiny" / "proof" / "deck.pdf")
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "front #1–3 (3×)" in text and "back #1–6 (6×)" in text and "shared by 3 different cards" in text


@pytest.mark.parametrize("kind, options, message", [
    ("jpeg", {}, "export 'jpeg': expected one of png, tts, shop, proof"),
    ("png", {"dpi": 20}, "--dpi 20: expected a resolution from 30 to 1200 dpi"),
    ("png", {"dpi": 1201}, "--dpi 1201: expected a resolution from 30 to 1200 dpi"),
    ("shop", {"bleed": False}, "--no-bleed: shop files always show the bleed"),
    ("png", {"preset": "mpc-poker"}, "--preset mpc-poker: presets are print-shop sizes; expected it only with shop"),
])
def test_bad_options_are_refused_before_any_work(tmp_path, kind, options, message):
    with pytest.raises(PnpError) as err:
        run(MINIMAL, kind, tmp_path, **options)
    assert message in str(err.value)
    assert not (tmp_path / "tiny").exists()


def test_unknown_game_names_the_known_ones(tmp_path):
    with pytest.raises(PnpError, match="--game nope: no such game .*expected one of: tiny"):
        run(MINIMAL, "png", tmp_path, game="nope")


def test_failing_checks_stop_the_export_unless_told(tmp_path):
    project = FIXTURES / "errors" / "check-fails-build"
    with pytest.raises(PnpError, match="pnpgen export --no-check"):
        run(project, "png", tmp_path, dpi=30)
    assert not any(tmp_path.iterdir())
    report = run(project, "png", tmp_path, dpi=30, check=False)
    assert report.written


def test_a_new_process_exports_from_a_warm_cache(tmp_path):
    """Faces rendered and converted by an earlier run come from the cache, fonts included, same bytes."""
    import os
    import subprocess
    import sys

    script = ("import sys; from pnpgen.export.run import export, ExportOptions; "
              "r = export(sys.argv[1], 'png', ExportOptions(out_dir=sys.argv[2], dpi=60)); print(len(r.written))")
    env = dict(os.environ, PNPGEN_CACHE=str(tmp_path / "cache"))
    root = Path(__file__).parents[2]
    for run in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-c", script, str(MINIMAL), str(tmp_path / run)], env=env, cwd=root,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "12"
    cold, warm = (sorted((tmp_path / run / "tiny" / "png").iterdir()) for run in ("cold", "warm"))
    assert [p.read_bytes() for p in cold] == [p.read_bytes() for p in warm]


def test_progress_is_told_per_component_and_per_image(tmp_path):
    calls = []
    export(MINIMAL, "png", ExportOptions(out_dir=tmp_path, dpi=30), progress=lambda *call: calls.append(call))
    assert calls[0] == ("rendering", 1, 1, "tiny/deck")
    assert [c[:3] for c in calls[1:]] == [("writing", n, 4) for n in range(1, 5)]
