"""Gradients on a face print as gradients: the face's form carries its shadings in its own resources (a
form without them would be painted black)."""
import shutil
from pathlib import Path

import pypdfium2

import pnpgen
from pnpgen import Options

FIXTURE = Path(__file__).parent.parent / "fixtures" / "minimal"
GRADIENT = ('<defs><linearGradient id="g"><stop offset="0" stop-color="#223344"/>'
            '<stop offset="1" stop-color="#aa5522"/></linearGradient></defs>\n')


def test_a_gradient_on_a_face_prints_as_a_gradient(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root)
    back = root / "templates" / "back.svg.j2"
    back.write_text(GRADIENT + back.read_text(encoding="utf-8").replace('fill="#234"', 'fill="url(#g)"'),
                    encoding="utf-8")
    pnpgen.build(root, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache"))
    document = pypdfium2.PdfDocument(str(tmp_path / "out" / "tiny" / "deck.pdf"))
    page = document[len(document) - 1]  # the backs
    image = page.render(scale=1).to_pil().convert("RGB")
    width, height = page.get_size()
    placement = back_cell(width, height)
    left = image.getpixel((placement[0] + 8, placement[1]))
    right = image.getpixel((placement[2] - 8, placement[1]))
    assert sum(left) > 60 and sum(right) > 60, (left, right)  # not painted black
    assert right[0] - left[0] > 50 and left[2] > right[2], (left, right)  # dark blue on the left, orange on the right


def back_cell(width: float, height: float) -> tuple[int, int, int]:
    """The pixel row through the middle of the top-left card of a 3 × 3 A4 grid of 63 × 88 mm cards:
    (left x, y, right x)."""
    mm = 72 / 25.4
    left = (width - 3 * 63 * mm) / 2
    top = (height - 3 * 88 * mm) / 2
    return int(left), int(top + 44 * mm), int(left + 63 * mm)
