"""Opacity on shapes survives the trip into a Form XObject."""
from pathlib import Path

import pypdfium2
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.project.model import Size
from pnpgen.units import mm
from pnpgen.press.write_pdf import write_pdf
from painted import painted


def test_fill_opacity_inside_a_form_blends(tmp_path: Path):
    size = Size(mm(63), mm(88))
    w, h = size.width + 2 * mm(3), size.height + 2 * mm(3)
    drawing = painted(w, h, f'<rect width="{w}" height="{h}" fill="#f00"/>'
                            f'<rect width="{w}" height="{h}" fill="#00f" fill-opacity="0.5"/>')
    pages = impose([Item("face", None, size)], SheetSpec(paper=Size(mm(210), mm(297))))
    target = tmp_path / "alpha.pdf"
    write_pdf(pages, {"face": drawing}, target, title="alpha", initial_font=FontBook([BUNDLED_FONTS]).resolve(None), bleed=mm(3))
    image = pypdfium2.PdfDocument(str(target))[0].render(scale=1).to_pil().convert("RGB")
    r, g, b = image.getpixel((image.width // 6, image.height // 8))
    assert 100 < r < 160 and 100 < b < 160, (r, g, b)  # half red, half blue: purple, not solid blue
