"""CMYK through the shipped press profiles: black as black ink alone, paper white as no ink, a template's own
cmyk()/device-cmyk() colours parsed, shown in RGB as they print, and kept exactly in the face's form."""
import pytest

from pnpgen.faces.cmyk import PRESSES, PROFILES_DIR, CmykConverter, converter_for
from pnpgen.faces.form import FaceForm, shape_of
from pnpgen.faces.print_colour import total_ink
from pnpgen.faces.svgpath import NotDrawable
from pnpgen.faces.svgvalues import Ink, parse_colour

from painted import painted


@pytest.mark.parametrize("name", sorted(PRESSES))
def test_every_press_separates_black_and_white_plainly(name):
    converter = CmykConverter(name)
    assert converter.to_cmyk((0.0, 0.0, 0.0)) == (0.0, 0.0, 0.0, 1.0)  # never a rich black
    assert converter.to_cmyk((1.0, 1.0, 1.0)) == (0.0, 0.0, 0.0, 0.0)
    c, m, y, k = converter.to_cmyk((1.0, 0.0, 0.0))
    assert m > 0.9 and y > 0.9 and c < 0.05 and k < 0.05
    assert (PROFILES_DIR / PRESSES[name].file).read_bytes() == converter.profile_bytes


def test_colours_go_there_and_back_near_enough():
    converter = converter_for()
    for rgb in [(0.7, 0.15, 0.18), (0.2, 0.5, 0.3), (0.9, 0.85, 0.7)]:
        assert converter.to_rgb(converter.to_cmyk(rgb)) == pytest.approx(rgb, abs=0.03)


def test_total_ink_of_a_near_black_is_what_presses_limit():
    assert total_ink((1.0, 1.0, 1.0)) == 0
    assert total_ink((0.0, 0.0, 0.0)) == 100
    assert total_ink((0.01, 0.01, 0.01)) > 300  # sRGB's near black separates as a rich black


def test_images_are_separated_whole():
    from PIL import Image

    image = converter_for().image_to_cmyk(Image.new("RGB", (3, 2), (255, 255, 255)))
    assert image.mode == "CMYK" and image.size == (3, 2) and image.getextrema() == ((0, 0),) * 4


@pytest.mark.parametrize("text, inks", [
    ("cmyk(0,100,100,0)", (0.0, 1.0, 1.0, 0.0)),
    ("CMYK(10, 20, 30, 40)", (0.1, 0.2, 0.3, 0.4)),
    ("cmyk(10% 20% 30% 40%)", (0.1, 0.2, 0.3, 0.4)),
    ("device-cmyk(0.1 0.2 0.3 0.4)", (0.1, 0.2, 0.3, 0.4)),
    ("device-cmyk(0, 1, 1, 0)", (0.0, 1.0, 1.0, 0.0)),
    ("device-cmyk(0 150% 1 -1)", (0.0, 1.0, 1.0, 0.0)),  # clamped, as rgb() is
])
def test_cmyk_colours_carry_their_inks_and_their_look(text, inks):
    colour = parse_colour(text)
    assert isinstance(colour, Ink) and colour.cmyk == inks
    assert tuple(colour) == converter_for().to_rgb(inks)


def test_a_cmyk_colour_that_is_not_four_numbers_is_refused():
    with pytest.raises(NotDrawable, match=r"colour 'cmyk\(0,a,0,0\)' \(expected four numbers\)"):
        parse_colour("cmyk(0,a,0,0)")
    for text in ("cmyk(0,100,100)", "device-cmyk(0 1 1 0 1)", "cmyk(1e400,0,0,0)"):
        with pytest.raises(NotDrawable, match=r"colour '.*'"):
            parse_colour(text)


def test_forms_keep_the_inks_a_template_gave_and_nothing_else():
    form = painted(20, 20, '<rect width="10" height="10" fill="cmyk(0,100,100,0)"/>'
                           '<rect x="10" width="10" height="10" fill="#e40b17" stroke="device-cmyk(1 0 0 0)"/>')
    shown = {ink[0]: ink[1:] for ink in form.inks}
    assert sorted(shown.values()) == [(0.0, 1.0, 1.0, 0.0), (1.0, 0.0, 0.0, 0.0)]
    again = FaceForm.from_bytes(form.to_bytes())
    assert again.inks == form.inks and again.shared() is not None
    plain = painted(20, 20, '<rect width="10" height="10" fill="#e40b17"/>')
    assert plain.inks == () and b"inks" not in plain.to_bytes()  # records of RGB faces are as they were
    assert b"inks" not in shape_of(1, 1, [], [], [], []).data


def test_a_record_with_bad_inks_is_not_a_form():
    form = painted(20, 20, '<rect width="10" height="10" fill="cmyk(0,100,100,0)"/>')
    bad = form.to_bytes().replace(b"1.0,1.0,0.0]]", b"2.0,1.0,0.0]]")
    assert bad != form.to_bytes()
    with pytest.raises(ValueError, match="bad inks"):
        FaceForm.from_bytes(bad)
