"""paint.py draws what templates write: each kind of SVG content, rendered and measured at points whose colour
the SVG settles; what paint.py does not draw is refused, naming the template."""
from pathlib import Path

import pypdfium2
import pytest

from pnpgen.errors import PnpError
from pnpgen.faces.convert import Converter
from pnpgen.faces.fonts import FontBook, font_dirs
from pnpgen.press.impose import Page, Placement, Rect
from pnpgen.press.write_pdf import write_pdf
from pnpgen.project.model import Size
from pnpgen.units import mm

FIXTURE = Path(__file__).parent.parent / "fixtures" / "minimal"
W, H = 40, 30  # mm
SCALE = 4  # pixels a point

CONTENT = {
    "rectangles": '<rect x="2" y="3" width="20" height="10" fill="#c33"/>'
                  '<rect x="5" y="15" width="30" height="12" rx="3" fill="none" stroke="navy" stroke-width="0.8"/>'
                  '<rect x="25" y="2" width="12" height="8" rx="2" ry="4" fill="rgb(20, 160, 90)"/>',
    "circles and ellipses": '<circle cx="10" cy="10" r="7" fill="#fc0" stroke="#333" stroke-width="0.5"/>'
                            '<ellipse cx="28" cy="20" rx="9" ry="5" fill="teal"/>',
    "lines and polygons": '<line x1="1" y1="1" x2="39" y2="29" stroke="black" stroke-width="1.2" stroke-linecap="round"/>'
                          '<polyline points="2,28 10,18 18,26 26,12" fill="none" stroke="#a0a" stroke-width="0.7" '
                          'stroke-linejoin="round"/><polygon points="30,2 38,10 30,18 22,10" fill="#48f"/>',
    "paths, relative and absolute": '<path d="M2 2 L12 2 l0 8 h-10 z M15 2 C20 10 25 -4 30 6 S38 10 38 2 '
                                    'Q 34 14 26 12 T 16 16" fill="#e80" stroke="#000" stroke-width="0.4"/>',
    "arcs and evenodd": '<path d="M5 15 a10 10 0 1 0 20 0 a10 10 0 1 0 -20 0 M10 15 A5 5 0 0 1 20 15 '
                        'A5 5 0 0 1 10 15 Z" fill="#096" fill-rule="evenodd"/>'
                        '<path d="M28 5 A 6 3 30 0 1 38 12" fill="none" stroke="#900" stroke-width="0.6"/>',
    "transforms and inherited paint": '<g fill="#36c" transform="translate(20 15) rotate(30) scale(1.2 0.8)">'
                                      '<rect x="-8" y="-4" width="16" height="8"/><g transform="skewX(20)">'
                                      '<circle cx="0" cy="0" r="2" fill="white"/></g></g>'
                                      '<g transform="matrix(1 0 0 1 2 2)" stroke="red" stroke-width="0.5">'
                                      '<line x1="0" y1="20" x2="10" y2="25"/></g>',
    "dashes and opacity": '<rect x="-2" y="-2" width="44" height="34" fill="#f00"/>'
                          '<rect x="5" y="5" width="30" height="20" fill="#00f" fill-opacity="0.5" '
                          'stroke="#000" stroke-width="1" stroke-dasharray="2 1" stroke-opacity="0.3"/>'
                          '<circle cx="20" cy="15" r="4" fill="#0f0" fill-opacity="0.4"/>',
    "style attributes": '<rect x="4" y="4" width="20" height="12" style="fill: #8a2; stroke: #222; stroke-width: 0.6"/>'
                        '<circle cx="30" cy="20" r="5" style="fill:none;stroke:purple;stroke-dasharray:1,0.5"/>',
    "text and anchors": '<text x="2" y="8" font-family="Noto Sans JP" font-size="5" fill="#000">左 start</text>'
                        '<text x="20" y="16" font-size="4" font-weight="bold" text-anchor="middle" fill="#a00">中央 middle</text>'
                        '<text x="38" y="26" font-size="4" text-anchor="end" fill="#00a">  右   end  </text>',
    "hidden things": '<rect x="0" y="0" width="40" height="30" fill="#ccc"/><rect x="5" y="5" width="5" height="5" '
                     'display="none" fill="red"/><g visibility="hidden"><circle cx="20" cy="15" r="5" fill="red"/></g>'
                     '<title>not printed</title><defs><linearGradient id="unused"/></defs>',
}


# (x mm, y mm, the colour there): points well inside what the SVG paints, or well clear of it
SAMPLES = {
    "rectangles": [(10, 8, (204, 51, 51)), (20, 15, (0, 0, 128)), (31, 6, (20, 160, 90)), (20, 21, (255, 255, 255))],
    "circles and ellipses": [(10, 10, (255, 204, 0)), (10, 3, (51, 51, 51)), (28, 20, (0, 128, 128)),
                             (38, 3, (255, 255, 255))],
    "lines and polygons": [(30, 10, (68, 136, 255)), (20, 15, (0, 0, 0)), (10, 18, (170, 0, 170)),
                           (35, 25, (255, 255, 255))],
    "paths, relative and absolute": [(7, 6, (238, 136, 0)), (7, 20, (255, 255, 255))],
    "arcs and evenodd": [(15, 22, (0, 153, 102)), (15, 15, (255, 255, 255)), (8, 15, (0, 153, 102))],
    "transforms and inherited paint": [(20, 15, (255, 255, 255)), (26.2, 18.6, (51, 102, 204)), (7, 24.5, (255, 0, 0))],
    "dashes and opacity": [(12, 10, (128, 0, 128)), (20, 15, (77, 102, 77)), (2, 2, (255, 0, 0))],
    "style attributes": [(14, 10, (136, 170, 34)), (14, 4, (34, 34, 34)), (30, 20, (255, 255, 255))],
    "text and anchors": [(39, 2, (255, 255, 255))],
    "hidden things": [(2, 2, (204, 204, 204)), (7, 7, (204, 204, 204)), (20, 15, (204, 204, 204))],
}


@pytest.fixture(scope="module")
def fontbook():
    return FontBook(font_dirs(FIXTURE))


def svg_of(content: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}mm" height="{H}mm" viewBox="0 0 {W} {H}">'
            f'{content}</svg>')


def face_pdf(form, path: Path, font: str) -> pypdfium2.PdfDocument:
    """A page the face's size holding only the face."""
    size = Size(mm(W), mm(H))
    whole = Rect(0, 0, size.width, size.height)
    page = Page(size, "front", (Placement("face", x=0, y=0, width=size.width, height=size.height, clip=whole),), (),
                whole, whole)
    write_pdf([page], {"face": form}, path, title="t", initial_font=font, bleed=0)
    return pypdfium2.PdfDocument(str(path))


def rendered(form, path: Path, font: str):
    return face_pdf(form, path, font)[0].render(scale=SCALE).to_pil().convert("RGB")


def painted(fontbook, content: str, tmp_path: Path, name: str = "face.pdf"):
    """The face of the content, drawn by the painter into a PDF and rendered."""
    form = Converter(fontbook, FIXTURE).face_form("k", svg_of(content), "t.svg.j2")
    return rendered(form, tmp_path / name, fontbook.resolve(None))


def colour_at(image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((round(mm(x_mm) * SCALE), round(mm(y_mm) * SCALE)))


def near(found, expected, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, expected))


@pytest.mark.parametrize("case", sorted(CONTENT))
def test_paint_draws_each_kind_of_content_where_the_svg_puts_it(tmp_path, fontbook, case):
    image = painted(fontbook, CONTENT[case], tmp_path)
    for x, y, expected in SAMPLES[case]:
        assert near(colour_at(image, x, y), expected), (case, x, y, colour_at(image, x, y), expected)
    assert image.getextrema() != ((255, 255), (255, 255), (255, 255))  # something was drawn


def test_text_is_anchored_where_the_svg_says(tmp_path, fontbook):
    form = Converter(fontbook, FIXTURE).face_form("k", svg_of(CONTENT["text and anchors"]), "t.svg.j2")
    text = face_pdf(form, tmp_path / "t.pdf", fontbook.resolve(None))[0].get_textpage()
    shown = text.get_text_range()
    assert "左 start" in shown and "中央 middle" in shown and "右 end" in shown
    boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    right = max(box[2] for box in boxes)
    assert abs(right - mm(38)) < mm(1)  # "end" ends at x = 38 mm
    start = shown.index("中央")
    middle = boxes[start:start + len("中央 middle")]
    centre = (min(b[0] for b in middle) + max(b[2] for b in middle)) / 2
    assert abs(centre - mm(20)) < mm(1.5)  # "middle" is centred on x = 20 mm


def test_opacity_on_a_shape_blends_it(tmp_path, fontbook):
    """opacity="…" on a shape blends it, as SVG says."""
    svg = svg_of('<rect width="40" height="30" fill="#f00"/><rect width="40" height="30" fill="#00f" opacity="0.5"/>')
    image = rendered(Converter(fontbook, FIXTURE).face_form("k", svg, "t.svg.j2"), tmp_path / "o.pdf", fontbook.resolve(None))
    r, g, b = image.getpixel((image.width // 5, image.height // 5))
    assert 100 < r < 160 and g < 30 and 100 < b < 160, (r, g, b)


def test_a_stroke_of_width_zero_is_not_drawn(tmp_path, fontbook):
    svg = svg_of('<rect x="5" y="5" width="30" height="20" fill="none" stroke="#000" stroke-width="0"/>')
    image = rendered(Converter(fontbook, FIXTURE).face_form("k", svg, "t.svg.j2"), tmp_path / "z.pdf", fontbook.resolve(None))
    assert image.getextrema() == ((255, 255), (255, 255), (255, 255))


@pytest.mark.parametrize("content, expected", [
    ('<linearGradient id="g" spreadMethod="reflect"><stop offset="0" stop-color="red"/></linearGradient>\n'
     '<rect width="5" height="5" fill="url(#g)"/>', 'line 3 uses SVG the PDF cannot show: spreadMethod="reflect"'),
    ('<linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>\n'
     '<rect width="5" height="5" fill="none" stroke="url(#g)"/>', "line 3 uses SVG the PDF cannot show: a gradient on a stroke"),
    ('<text x="1" y="5">a\n<tspan rotate="30">b</tspan></text>', 'line 3 uses SVG the PDF cannot show: rotate="…" on <tspan>'),
    ('<clipPath id="c" clipPathUnits="objectBoundingBox"><rect width="1" height="1"/></clipPath>\n'
     '<circle r="9" clip-path="url(#c)"/>', "line 3 uses SVG the PDF cannot show: clipPathUnits"),
    ('<g id="a">\n<use href="#a"/></g>', 'line 3 uses SVG the PDF cannot show: <use href="#a"> shows itself'),
    ('<g id="a"/>\n<use href="other.svg#a"/>',
     'line 3 uses SVG the PDF cannot show: <use href="other.svg#a"> (expected the id of an element of the same face)'),
    ('<rect width="5" height="5"\nfill="rgb(a, b, c)"/>', "colour 'rgb(a, b, c)'"),
    ('<rect width="5" height="5"\nopacity="abc%"/>', "number 'abc'"),
])
def test_what_paint_does_not_draw_is_refused_at_its_template_line(tmp_path, fontbook, content, expected):
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    svg = svg_of("\n" + content + "\n")
    (root / "templates" / "t.svg.j2").write_text(svg, encoding="utf-8")
    with pytest.raises(PnpError) as caught:
        Converter(fontbook, root).face_form("k", svg, "t.svg.j2")
    message = caught.value.problems[0].message
    assert message.startswith("templates/t.svg.j2 ") and expected in message, message
