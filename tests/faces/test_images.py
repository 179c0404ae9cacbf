"""Images in templates: drawn from the project's files as one shared XObject each, with alpha kept."""
import shutil
from pathlib import Path

import pypdfium2
from PIL import Image
from pypdf import PdfReader

import pnpgen
from pnpgen import Options

FIXTURES = Path(__file__).parents[1] / "fixtures"


def build(project: Path, out: Path, cache: Path) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache))


def test_png_alpha_shows_the_background_through(tmp_path):
    build(FIXTURES / "images", tmp_path / "out", tmp_path / "cache")
    page = pypdfium2.PdfDocument(str(tmp_path / "out" / "pictures" / "deck.pdf"))[0]
    image = page.render(scale=2).to_pil().convert("RGB")
    # Card 1's trim starts at 10.5 mm, 16.5 mm from the top; the seal is 40 mm wide at the card's centre.
    px = 2 * 72 / 25.4
    centre = (round((10.5 + 31.5) * px), round((16.5 + 44) * px))
    corner_of_seal = (round((10.5 + 31.5 - 18) * px), round((16.5 + 44 - 18) * px))  # transparent there
    assert image.getpixel(centre)[2] > 200 and image.getpixel(centre)[0] < 60  # the opaque blue disc
    assert image.getpixel(corner_of_seal)[0] > 200 and image.getpixel(corner_of_seal)[2] < 60  # red shows through


def test_the_image_is_embedded_once_for_every_copy(tmp_path):
    build(FIXTURES / "images", tmp_path / "out", tmp_path / "cache")
    path = tmp_path / "out" / "pictures" / "deck.pdf"
    assert len(PdfReader(path).pages[0]["/Resources"]["/XObject"]) == 1  # one face form for nine copies
    raw = path.read_bytes()
    assert raw.count(b"/Subtype /Image") == 2  # the picture and its alpha (soft mask), once for nine copies
    assert b"/SMask" in raw


def test_replacing_the_image_file_rebuilds_the_pdf(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "images", project)
    out, cache = tmp_path / "out", tmp_path / "cache"
    build(project, out, cache)
    before = (out / "pictures" / "deck.pdf").read_bytes()
    Image.new("RGBA", (200, 200), (0, 255, 0, 255)).save(project / "images" / "seal.png")
    again = build(project, out, cache)
    assert (out / "pictures" / "deck.pdf") in again.written
    assert (out / "pictures" / "deck.pdf").read_bytes() != before
