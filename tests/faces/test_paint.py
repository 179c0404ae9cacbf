"""paint.py draws what templates write exactly as svglib does: each kind of SVG content, rendered both ways
and compared pixel by pixel; what paint.py does not draw goes to svglib."""
from pathlib import Path

import pypdfium2
import pytest
from PIL import ImageChops

from pnpgen.faces.art import FaceArt
from pnpgen.faces.convert import Converter, parse_svg, render_with_svglib
from pnpgen.faces.fonts import FontBook, font_dirs
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.press.write_pdf import write_pdf
from pnpgen.project.model import Size
from pnpgen.units import mm

FIXTURE = Path(__file__).parent.parent / "fixtures" / "minimal"
W, H = 40, 30  # mm

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


@pytest.fixture(scope="module")
def fontbook():
    return FontBook(font_dirs(FIXTURE))


def svg_of(content: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}mm" height="{H}mm" viewBox="0 0 {W} {H}">'
            f'{content}</svg>')


def rendered(drawing, path: Path, font: str):
    size = Size(mm(W), mm(H))
    pages = impose([Item("face", None, size)], SheetSpec(paper=Size(mm(100), mm(100)), crop_marks=False))
    write_pdf(pages, {"face": drawing}, path, title="t", initial_font=font, bleed=0)
    return pypdfium2.PdfDocument(str(path))[0].render(scale=4).to_pil().convert("RGB")


@pytest.mark.parametrize("case", sorted(CONTENT))
def test_paint_draws_like_svglib(tmp_path, fontbook, case):
    converter = Converter(fontbook, FIXTURE)
    svg = svg_of(CONTENT[case])
    art = converter.convert("k", svg, "t.svg.j2")
    assert isinstance(art, FaceArt), "this content is meant to be drawn without svglib"
    reference = render_with_svglib(parse_svg(svg, "t.svg.j2", FIXTURE), "t.svg.j2", fontbook.svglib_font_map(), FIXTURE,
                                   converter.images)
    font = fontbook.resolve(None)
    ours, theirs = rendered(art, tmp_path / "ours.pdf", font), rendered(reference, tmp_path / "svglib.pdf", font)
    difference = ImageChops.difference(ours, theirs).convert("L").point(lambda v: 255 if v > 64 else 0)
    changed = difference.histogram()[255]
    assert changed <= ours.width * ours.height * 0.002, f"{changed} pixels differ"
    assert ours.getextrema() != ((255, 255), (255, 255), (255, 255))  # something was drawn


def test_opacity_on_a_shape_blends_it(tmp_path, fontbook):
    """svglib ignores opacity="…" on a shape and paints it solid; paint.py follows SVG and blends."""
    svg = svg_of('<rect width="40" height="30" fill="#f00"/><rect width="40" height="30" fill="#00f" opacity="0.5"/>')
    image = rendered(Converter(fontbook, FIXTURE).convert("k", svg, "t.svg.j2"), tmp_path / "o.pdf", fontbook.resolve(None))
    r, g, b = image.getpixel((image.width // 5, image.height // 5))
    assert 100 < r < 160 and g < 30 and 100 < b < 160, (r, g, b)


def test_a_stroke_of_width_zero_is_not_drawn(tmp_path, fontbook):
    svg = svg_of('<rect x="5" y="5" width="30" height="20" fill="none" stroke="#000" stroke-width="0"/>')
    image = rendered(Converter(fontbook, FIXTURE).convert("k", svg, "t.svg.j2"), tmp_path / "z.pdf", fontbook.resolve(None))
    assert image.getextrema() == ((255, 255), (255, 255), (255, 255))


@pytest.mark.parametrize("content", [
    '<linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient><rect width="5" height="5" fill="url(#g)"/>',
    '<rect id="r" width="5" height="5"/><use href="#r" x="10"/>',
    '<text x="1" y="5">a<tspan fill="red">b</tspan></text>',
    '<clipPath id="c"><rect width="5" height="5"/></clipPath><circle r="9" clip-path="url(#c)"/>',
])
def test_what_paint_does_not_draw_goes_to_svglib(fontbook, content):
    drawing = Converter(fontbook, FIXTURE).convert("k", svg_of(content), "t.svg.j2")
    assert not isinstance(drawing, FaceArt)


def test_face_art_survives_its_bytes_and_refuses_anything_else():
    art = FaceArt(10.0, 20.0, ["1 0 0 RG", ["T", 0, 3.5, "字(x)"], ["A", "ca", 0.5], ["I", 0, 2, 3]],
                  [("Noto Sans JP", "bold", "normal")], ["images/a.png"])
    again = FaceArt.from_bytes(art.to_bytes())
    assert (again.width, again.height, again.parts, again.fonts, again.images) == \
        (art.width, art.height, art.parts, art.fonts, art.images)
    for bad in (b"\x80\x05K.", b"[]", b'{"format":1}', art.to_bytes().replace(b"1 0 0 RG", b"(x) Tj"),
                art.to_bytes().replace(b'["T",0', b'["T",5'), art.to_bytes().replace(b'"ca",0.5', b'"ca",7')):
        with pytest.raises(ValueError):
            FaceArt.from_bytes(bad)
