"""The image() template helper: a picture from images/ fitted to a box in mm (contain or cover), measured in the
PDF, and its mistakes told at the template's line."""
import shutil
from pathlib import Path

import pypdfium2
import pytest
from PIL import ImageChops
from pypdf import PdfReader

import pnpgen
from pnpgen import Options
from pnpgen.errors import PnpError
from tests.pdfprobe import drawn_forms

FIXTURE = Path(__file__).parents[1] / "fixtures" / "image-helper"
SCALE = 8  # 576 dpi: a pixel is 0.044 mm
MM = 25.4 / 72 / SCALE  # millimetres a rendered pixel spans
BLUE, GREEN = (0, 0, 255), (0, 200, 0)  # the left and right halves of images/banner.png (200 × 100 px)


def build(project: Path, tmp_path: Path) -> Path:
    pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False))
    return tmp_path / "out" / "pictures" / "deck.pdf"


def painted_boxes(pdf: Path) -> list[dict]:
    """Per card (in card order), the box each colour covers, in mm from the card's top-left corner."""
    reader = PdfReader(pdf)
    page_height = float(reader.pages[0].mediabox.height) * 25.4 / 72
    origins = drawn_forms(reader, reader.pages[0])
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=SCALE).to_pil().convert("RGB")
    cards = []
    for origin in origins:
        left, top = origin.x_mm, page_height - origin.y_mm - 80  # the card is 80 mm high, without bleed
        crop = image.crop((round(left / MM), round(top / MM), round((left + 60) / MM), round((top + 80) / MM)))
        boxes = {}
        for name, colour in (("blue", BLUE), ("green", GREEN)):
            found = mask_of(crop, colour).getbbox()
            boxes[name] = pytest.approx(tuple(v * MM for v in found), abs=0.15) if found else None
        cards.append(boxes)
    return cards


def mask_of(image, colour):
    """White where the image has the colour (each channel within 40 of it)."""
    bands = [band.point(lambda v, c=c: 255 if abs(v - c) < 40 else 0) for band, c in zip(image.split(), colour)]
    return ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])


def test_contain_shows_the_whole_picture_centred_in_its_box_and_cover_fills_it_clipped(tmp_path):
    contain, cover = painted_boxes(build(FIXTURE, tmp_path))
    # The box is 40 × 40 mm at (10, 20). A 2:1 picture contained is 40 × 20 mm, centred: y from 30 to 50.
    assert {"blue": (10, 30, 30, 50), "green": (30, 30, 50, 50)} == contain
    # Covered it is 80 × 40 mm, centred on the box and clipped to it: the middle half shows, blue then green.
    assert {"blue": (10, 20, 30, 60), "green": (30, 20, 50, 60)} == cover


def test_the_helper_writes_the_tag_a_template_could_write_itself(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    helper = build(project, tmp_path / "helper")
    (project / "templates" / "front.svg.j2").write_text(
        '<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#ff0000"/>\n'
        '{% if card.fit == "contain" %}<image href="images/banner.png" x="10.0000" y="30.0000" width="40.0000" '
        'height="20.0000"/>{% else %}{{ image("banner.png", 10, 20, 40, 40, fit="cover") }}{% endif %}\n',
        encoding="utf-8")
    raw = build(project, tmp_path / "raw")
    assert helper.read_bytes() == raw.read_bytes()


@pytest.mark.parametrize("call, message", [
    ('image("nothere.png", 10, 20, 40, 40)',
     "image('nothere.png'): images/nothere.png not found; expected a file in the project's images/ folder; "
     "did you mean 'banner.png'?"),
    ('image("../cards.yaml", 10, 20, 40, 40)',
     "image('../cards.yaml') leaves the project's images/ folder; expected a file inside it, such as 'seal.png'"),
    ('image("/etc/hostname", 10, 20, 40, 40)',
     "image('/etc/hostname'): expected the name of a file in the project's images/ folder, such as 'seal.png'"),
    ('image("banner.png", 10, 20, 40, 40, fit="fill")',
     "image('banner.png'): fit='fill' is not a way to fit a picture; expected fit=\"contain\" or fit=\"cover\""),
    ('image("banner.png", 10, 20, 0, 40)',
     "image('banner.png'): width must be more than 0 mm, got 0; expected a box to fit it in"),
    ('image("banner.png", 10, 20, 40, -5)',
     "image('banner.png'): height must be more than 0 mm, got -5; expected a box to fit it in"),
    (f'image("{"a" * 300}.png", 10, 20, 40, 40)',  # a name longer than the file system takes
     f"image('{'a' * 60}'): images/{'a' * 60} not found; expected a file in the project's images/ folder "
     "(it holds banner.png)"),
    ('image("banner.png", "left", 20, 40, 40)',
     "image('banner.png'): x must be a number of millimetres, got 'left'"),
])
def test_a_mistake_is_told_at_the_template_line(tmp_path, call, message):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    (project / "templates" / "front.svg.j2").write_text(f'<rect width="1" height="1"/>\n{{{{ {call} }}}}\n',
                                                        encoding="utf-8")
    with pytest.raises(PnpError) as caught:
        build(project, tmp_path)
    assert str(caught.value.problems[0]) == f"cards.yaml:11:13: deck card (fit=contain): front.svg.j2 line 2: {message}"
