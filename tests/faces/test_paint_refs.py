"""The painter's gradients, <use>, clip paths, <tspan>, group opacity, nested viewports and <style> rules,
measured in the PDFs they make: shading dictionaries, colours sampled from pdfium's rendering, extracted text."""
from pathlib import Path

import pypdf
import pytest

from pnpgen.errors import PnpError
from pnpgen.faces.convert import Converter

from test_paint import FIXTURE, colour_at, face_pdf, fontbook, near, painted, svg_of  # noqa: F401 (a fixture)

WHITE = (255, 255, 255)


def shadings(path: Path) -> list:
    """Every shading dictionary the forms of the PDF's first page hold."""
    found = []
    for xobject in pypdf.PdfReader(path).pages[0]["/Resources"]["/XObject"].values():
        found += list((xobject.get_object()["/Resources"].get("/Shading") or {}).values())
    return [s.get_object() for s in found]


def test_a_linear_gradient_is_an_axial_shading_from_stop_to_stop(tmp_path, fontbook):
    image = painted(fontbook, '<linearGradient id="g"><stop offset="0" stop-color="#223344"/>'
                              '<stop offset="1" stop-color="#aa5522"/></linearGradient>'
                              '<rect x="0" y="0" width="40" height="30" fill="url(#g)"/>', tmp_path)
    (shading,) = shadings(tmp_path / "face.pdf")
    assert shading["/ShadingType"] == 2 and list(shading["/Extend"]) == [True, True]
    assert [float(c) for c in shading["/Function"]["/C0"]] == pytest.approx([0x22 / 255, 0x33 / 255, 0x44 / 255], abs=1e-5)
    assert near(colour_at(image, 0.5, 15), (0x22, 0x33, 0x44), 8)
    assert near(colour_at(image, 39.5, 15), (0xaa, 0x55, 0x22), 8)
    assert near(colour_at(image, 20, 15), ((0x22 + 0xaa) // 2, (0x33 + 0x55) // 2, (0x44 + 0x22) // 2), 8)


def test_a_radial_gradient_with_three_stops_and_a_transform(tmp_path, fontbook):
    image = painted(fontbook, '<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="10" '
                              'gradientTransform="translate(20 15)"><stop offset="0" stop-color="#fff"/>'
                              '<stop offset="50%" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'
                              '</radialGradient><rect width="40" height="30" fill="url(#g)"/>', tmp_path)
    (shading,) = shadings(tmp_path / "face.pdf")
    assert shading["/ShadingType"] == 3 and shading["/Function"]["/FunctionType"] == 3
    assert near(colour_at(image, 20, 15), WHITE, 12)
    assert near(colour_at(image, 25, 15), (255, 0, 0), 12)
    assert near(colour_at(image, 39, 29), (0, 0, 255), 12)  # padded beyond the last stop


def blue_over_red(fontbook, tmp_path: Path, first: str, last: str):
    """A blue gradient, its stops' opacities first and last, over red."""
    return painted(fontbook, f'<linearGradient id="g"><stop offset="0" stop-color="#00f" stop-opacity="{first}"/>'
                             f'<stop offset="1" style="stop-color: #00f; stop-opacity: {last}"/></linearGradient>'
                             '<rect width="40" height="30" fill="#f00"/><rect width="40" height="30" fill="url(#g)"/>',
                   tmp_path)


def test_stop_opacity_shared_by_the_stops_blends_the_gradient(tmp_path, fontbook):
    image = blue_over_red(fontbook, tmp_path, "0.5", "0.5")
    assert near(colour_at(image, 20, 15), (128, 0, 128), 12)


def test_use_shows_the_element_again_moved_and_a_symbol_in_its_viewbox(tmp_path, fontbook):
    image = painted(fontbook, '<defs><rect id="r" width="5" height="5" fill="#0a0"/>'
                              '<symbol id="s" viewBox="0 0 1 1"><circle cx="0.5" cy="0.5" r="0.5" fill="#00f"/></symbol>'
                              '</defs><use href="#r" x="2" y="2"/><use href="#r" x="12" y="2"/>'
                              '<use href="#s" x="20" y="10" width="10" height="10"/>', tmp_path)
    assert near(colour_at(image, 4, 4), (0, 170, 0)) and near(colour_at(image, 14, 4), (0, 170, 0))
    assert near(colour_at(image, 9, 4), WHITE)
    assert near(colour_at(image, 25, 15), (0, 0, 255)) and near(colour_at(image, 20.5, 10.5), WHITE)


def test_nested_use_is_bounded_with_a_located_message(tmp_path, fontbook):
    levels = ['<g id="u0"><rect width="1" height="1"/><rect width="1" height="1"/></g>']
    levels += [f'<g id="u{n}"><use href="#u{n - 1}"/><use href="#u{n - 1}"/></g>' for n in range(1, 20)]
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    svg = svg_of("<defs>\n" + "\n".join(levels) + "\n</defs>\n<use href='#u19'/>\n")
    (root / "templates" / "t.svg.j2").write_text(svg, encoding="utf-8")
    with pytest.raises(PnpError) as caught:
        Converter(fontbook, root).face_form("k", svg, "t.svg.j2")
    message = caught.value.problems[0].message
    assert message.startswith("templates/t.svg.j2 line ") and "more than 20,000 elements" in message, message


def test_a_clip_path_clips_pixels(tmp_path, fontbook):
    image = painted(fontbook, '<clipPath id="c"><rect x="10" y="5" width="10" height="10"/></clipPath>'
                              '<circle cx="15" cy="10" r="9" fill="#c00" clip-path="url(#c)"/>'
                              '<g clip-path="url(#c)" transform="translate(15 10)"><rect width="40" height="30" fill="#00c"/></g>',
                    tmp_path)
    assert near(colour_at(image, 12, 7), (204, 0, 0))
    assert near(colour_at(image, 8, 10), WHITE)  # inside the circle, outside the clip
    assert near(colour_at(image, 27, 18), (0, 0, 204))  # the clip moved with the group's transform
    assert near(colour_at(image, 37, 18), WHITE)


def test_tspans_keep_their_own_fill_size_and_position_and_the_text_is_extractable(tmp_path, fontbook):
    form = Converter(fontbook, FIXTURE).face_form("k", svg_of(
        '<text x="2" y="10" font-size="6">表<tspan fill="#f00" font-weight="bold" font-size="8">赤い</tspan>'
        '<tspan x="2" dy="10">次の行</tspan></text>'), "t.svg.j2")
    document = face_pdf(form, tmp_path / "t.pdf", fontbook.resolve(None))
    text = document[0].get_textpage()
    shown = text.get_text_range()
    assert "表赤い" in shown and "次の行" in shown
    first, second = text.get_charbox(shown.index("表")), text.get_charbox(shown.index("次"))
    assert abs(first[0] - second[0]) < 1  # x="2" starts the second line where the first began
    assert first[1] - second[1] > 20  # dy="10": ten millimetres lower
    image = document[0].render(scale=4).to_pil().convert("RGB")
    pixels = image.tobytes()
    reds = sum(1 for at in range(0, len(pixels), 3) if pixels[at] > 200 and pixels[at + 1] < 80 and pixels[at + 2] < 80)
    assert reds > 50


def test_group_opacity_composites_the_group_once(tmp_path, fontbook):
    image = painted(fontbook, '<g opacity="0.5"><rect x="2" y="2" width="20" height="20" fill="#f00"/>'
                              '<rect x="12" y="2" width="20" height="20" fill="#f00"/></g>', tmp_path)
    alone, overlap = colour_at(image, 5, 10), colour_at(image, 17, 10)
    assert near(alone, (255, 128, 128), 12) and near(overlap, alone, 4)  # not darker where they overlap


def test_a_nested_svg_maps_its_viewbox_and_clips_to_its_box(tmp_path, fontbook):
    image = painted(fontbook, '<svg x="5" y="5" width="10" height="10" viewBox="0 0 1 1">'
                              '<rect width="2" height="1" fill="#00f"/></svg>', tmp_path)
    assert near(colour_at(image, 10, 10), (0, 0, 255)) and near(colour_at(image, 17, 10), WHITE)


def test_style_rules_paint_what_they_select(tmp_path, fontbook):
    image = painted(fontbook, '<style>rect { fill: #0a0 } .b { fill: #00f }</style>'
                              '<rect width="10" height="10"/><rect class="b" x="20" width="10" height="10"/>', tmp_path)
    assert near(colour_at(image, 5, 5), (0, 170, 0)) and near(colour_at(image, 25, 5), (0, 0, 255))


def test_stop_opacities_that_differ_are_a_soft_mask(tmp_path, fontbook):
    image = blue_over_red(fontbook, tmp_path, "1", "0")
    assert near(colour_at(image, 0.5, 15), (0, 0, 255), 16)
    assert near(colour_at(image, 20, 15), (128, 0, 128), 16)
    assert near(colour_at(image, 39.5, 15), (255, 0, 0), 16)
    states = [x.get_object()["/Resources"]["/ExtGState"] for x in
              pypdf.PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"]["/XObject"].values()]
    (mask,) = [s["/SMask"] for found in states for s in found.values() if "/SMask" in s]
    assert mask["/S"] == "/Luminosity" and mask["/G"].get_object()["/Group"]["/S"] == "/Transparency"


def test_group_opacity_holds_what_lies_outside_the_face_box_in_user_units(tmp_path, fontbook):
    image = painted(fontbook, '<g transform="translate(-100 -100)"><g opacity="0.5">'
                              '<rect x="110" y="110" width="10" height="10" fill="#f00"/></g></g>', tmp_path)
    assert near(colour_at(image, 15, 15), (255, 128, 128), 12)


def test_uses_nested_deeper_than_a_face_needs_are_refused_with_a_located_message(tmp_path, fontbook):
    chain = "".join(f'<g id="u{n}"><use href="#u{n - 1}"/></g>' for n in range(1, 3000))
    svg = svg_of("<defs>" + chain.replace('<use href="#u0"/>', '<rect width="1" height="1"/>') + "</defs>\n"
                 '<use href="#u2999"/>')
    with pytest.raises(PnpError) as caught:
        Converter(fontbook, FIXTURE).face_form("k", svg, "t.svg.j2")
    message = caught.value.problems[0].message
    assert message.startswith("templates/t.svg.j2 ") and "nested more than 100 deep" in message, message
