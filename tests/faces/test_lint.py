"""The lint's answer for an element is remembered by its tag, attributes and the scale around it: a face that repeats
an element gets the same answer, and any of the three changed is linted anew."""
import pytest
from lxml import etree

from pnpgen.errors import PnpError
from pnpgen.faces import lint as lint_module
from pnpgen.faces.lint import lint

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">{}</svg>'


def lint_message(content: str) -> str | None:
    try:
        lint(etree.fromstring(SVG.format(content)), "front.svg.j2")
    except PnpError as err:
        return err.problems[0].message
    return None


def test_a_remembered_element_is_refused_again_with_the_same_message():
    bad = '<rect x="0" y="0" width="10" height="-4" letter-spacing="1"/>'
    first = lint_message(bad)
    assert first == ("templates/front.svg.j2 uses SVG features the PDF cannot show: "
                     '<rect height="-4"> (a size must not be negative), letter-spacing=…; '
                     "expected shapes, paths, gradients, clip paths, <use> and text() only")
    assert lint_message(bad + bad) == first


def test_a_changed_attribute_is_linted_anew():
    assert lint_message('<rect x="0" y="0" width="10" height="4"/>') is None
    assert "beyond" in lint_message('<rect x="0" y="0" width="10" height="4e7"/>')


def test_the_same_element_under_a_magnifying_transform_is_linted_anew():
    path = '<path d="M 0 0 L 100000 0"/>'
    assert lint_message(path) is None
    scaled = lint_message(f'<g transform="scale(1e6)"><g transform="scale(1e6)">{path}</g></g>')
    assert 'd="M 0 0 L 100000 0" (scaled beyond ±1e+12 by the transforms around it)' in scaled


def test_long_attributes_are_linted_without_being_remembered():
    lint_module.lint_attributes.cache_clear()
    long_path = '<path d="M 0 0 ' + "L 1 1 " * 200 + '"/>'
    assert lint_message(long_path) is None
    assert lint_module.lint_attributes.cache_info().currsize == 1  # the <svg> root only


@pytest.mark.parametrize("style", ['style="letter-spacing: 1"', 'style="fill: red; x: y: z"'])
def test_style_declarations_are_linted_through_the_memo(style):
    rect = f'<rect width="1" height="1" {style}/>'
    assert lint_message(rect) is not None
    assert lint_message(rect) == lint_message(rect + rect)
