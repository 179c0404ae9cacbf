"""marking reads what the painter paints as marks in mm on the face: boxes through transforms and clips,
sizes in points at print size, the element each comes from."""
from pathlib import Path

import pytest

from pnpgen.faces.convert import parse_svg
from pnpgen.faces.fonts import FontBook, font_dirs
from pnpgen.faces.images import ImageChecker
from pnpgen.faces.marking import mark_face
from pnpgen.faces.stored import StoredForms

FIXTURE = Path(__file__).parent.parent / "fixtures" / "minimal"
IMAGES = Path(__file__).parent.parent / "fixtures" / "images"
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="46mm" height="36mm" viewBox="-3 -3 46 36">'


def marks_of(content: str, project: Path = FIXTURE):
    fontbook = FontBook(font_dirs(project))
    tree = parse_svg(HEAD + content + "</svg>", "front.svg.j2", project)
    return mark_face(tree, StoredForms(None, fontbook, ImageChecker(project)).font_of)


def rounded(box):
    return tuple(round(v, 3) for v in box)


def test_a_shape_s_box_is_in_mm_on_the_face_through_its_transform():
    (mark,) = marks_of('<g transform="translate(10 5) scale(2)"><rect x="1" y="1" width="4" height="3" fill="#c33"/></g>')
    assert (mark.kind, rounded(mark.box), mark.colour) == ("fill", (12.0, 7.0, 20.0, 13.0), (0.8, 0.2, 0.2))
    assert mark.source.sourceline == 1


def test_a_stroke_s_width_is_in_points_and_its_box_grows_by_half_of_it():
    (mark,) = marks_of('<line x1="0" y1="10" x2="20" y2="10" stroke="#000" stroke-width="0.5"/>')
    assert mark.kind == "stroke"
    assert mark.size == pytest.approx(0.5 * 72 / 25.4)
    assert rounded(mark.box) == (-0.25, 9.75, 20.25, 10.25)


def test_a_clip_path_cuts_the_box_down():
    (mark,) = marks_of('<clipPath id="c"><rect x="0" y="0" width="10" height="10"/></clipPath>'
                       '<rect x="-3" y="-3" width="46" height="36" fill="#fff" clip-path="url(#c)"/>')
    assert rounded(mark.box) == (0.0, 0.0, 10.0, 10.0)


def test_text_is_measured_in_points_at_print_size_with_its_words():
    (mark,) = marks_of('<text x="5" y="10" font-size="3.5278" fill="#123456">Hi</text>')
    assert (mark.kind, mark.text, round(mark.size, 2)) == ("text", "Hi", 10.0)
    assert mark.box[0] == pytest.approx(5.0) and mark.box[1] < 10 < mark.box[3]


def test_an_image_knows_its_placed_size_in_inches():
    (mark,) = marks_of('<image href="images/seal.png" x="2" y="3" width="25.4" height="12.7"/>', IMAGES)
    assert (mark.kind, mark.image, rounded(mark.box)) == ("image", "images/seal.png", (2.0, 3.0, 27.4, 15.7))
    assert mark.inches == pytest.approx((1.0, 0.5))


def test_what_a_data_safe_group_holds_is_marked_safe():
    plain, marked = marks_of('<rect width="4" height="4" fill="#000"/><g data-safe="">'
                             '<rect x="5" width="4" height="4" fill="#000"/></g>')
    assert (plain.safe, marked.safe) == (False, True)
