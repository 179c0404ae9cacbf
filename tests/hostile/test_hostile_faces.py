"""Hostile templates and SVG: unbounded work, huge values and numbers, CSS and styles the painter cannot take,
damaged images and icons. Each is refused within seconds with the card's location and the template line."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from attack import WHERE, assert_no_traceback, assert_refused, build, make_project

STEPS = "more than 2,000,000 loop iterations and calls; expected a template that does bounded work (nested loops over large ranges?)"
ENDLESS = ("calls itself without end (a macro that calls itself, or a template that includes itself); "
           "expected templates that finish")
GROWTH = ("would make a text of more than 1,000,000 characters (a huge width, separator or replacement); "
          "expected values of ordinary size")
TEMPLATES = [
    ("nested-loops", "{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}",
     f"front.svg.j2 line 1: {STEPS}"),
    ("loop-over-repeated-text", "{% set s = 'x' * 900000 %}{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}",
     f"front.svg.j2 line 1: {STEPS}"),
    ("exponential-macro", "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(40) }}",
     f"front.svg.j2 line 1: {STEPS}"),
    ("huge-power", "{{ 10 ** 100000000 }}",
     "front.svg.j2 line 1: 10 ** 100,000,000 is a number of more than 6,000 digits; expected numbers of ordinary size"),
    ("repeated-squaring", "{% set ns = namespace(x=10) %}{% for i in range(40) %}{% set ns.x = ns.x * ns.x %}"
                          "{% endfor %}{{ ns.x }}",
     "front.svg.j2 line 1: a product of more than 6,000 digits; expected numbers of ordinary size"),
    ("string-repeat", "{{ 'x' * 10**10 }}",
     "front.svg.j2 line 1: repeats a value to more than 1,000,000 characters or items; expected values of ordinary size"),
    ("list-repeat", "{{ [1, 2] * 10**9 }}",
     "front.svg.j2 line 1: repeats a value to more than 1,000,000 characters or items; expected values of ordinary size"),
    ("doubling-join", "{% set ns = namespace(s='xx') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "front.svg.j2 line 1: makes a value of 1,048,576 characters or items; expected at most 1,000,000"),
    ("lipsum-million", "{{ lipsum(1000000) }}",
     "front.svg.j2 line 1: lipsum(1000000, min=20, max=100): expected at most 100 paragraphs of at most 1000 words"),
    ("center-filter", "{{ 'x'|center(10**9) }}",
     "front.svg.j2 line 1: a call is given 1,000,000,000; expected numbers up to 1,000,000 "
     "(a width or a repeat count that large would take all memory)"),
    ("str-method", "{{ 'x'.ljust(10**9) }}",
     "front.svg.j2 line 1: a call is given 1,000,000,000; expected numbers up to 1,000,000 "
     "(a width or a repeat count that large would take all memory)"),
    ("format-width", "{{ '%099999999d' % 1 }}",
     "front.svg.j2 line 1: a format with a width of millions of characters; expected values of ordinary size"),
    ("replace-everywhere", "{{ ('x' * 1000)|replace('', 'y' * 5000) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("replace-method", "{{ ('x' * 1000).replace('', 'y' * 5000) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("join-separator", "{{ range(99999)|join('x' * 999999) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("indent-every-line", "{{ ('a\\n' * 100000)|indent(999999) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("expand-tabs", "{{ ('\\t' * 100000).expandtabs(999999) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("format-method-width", "{{ '{:>999999999}'.format(1) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("format-precision", "{{ '{:.99999999f}'.format(1) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("format-filter-width", "{{ '%0999999999d'|format(1) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("tojson-indent", "{{ range(99999)|list|tojson(indent=999999) }}", f"front.svg.j2 line 1: {GROWTH}"),
    ("recursive-macro", "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", f"front.svg.j2 line 1: {ENDLESS}"),
    ("self-include", '{% include "front.svg.j2" %}', f"front.svg.j2 line 1: {ENDLESS}"),
    ("text-box-of-a-book", "{{ text('あ' * 50000, 2, 2, 50, 50) }}",
     "front.svg.j2 line 1: text() is given 50,000 characters; expected at most 10,000 in one text box"),
]


@pytest.mark.parametrize("template, expected", [c[1:] for c in TEMPLATES], ids=[c[0] for c in TEMPLATES])
def test_templates_do_bounded_work(tmp_path: Path, template: str, expected: str):
    result, out = build(make_project(tmp_path, template))
    assert_refused(result, out, f"{WHERE}: {expected}")


def test_include_fan_out_is_bounded(tmp_path: Path):
    level = '{% for i in range(100) %}{% include "NEXT" %}{% endfor %}'
    files = {"templates/a.j2": level.replace("NEXT", "b.j2"), "templates/b.j2": level.replace("NEXT", "c.j2"),
             "templates/c.j2": level.replace("NEXT", "d.j2"), "templates/d.j2": "x"}
    result, out = build(make_project(tmp_path, '{% include "a.j2" %}', files=files))
    assert_refused(result, out, f"{WHERE}: c.j2 line 1: {STEPS}")


def test_a_template_that_writes_gigabytes_is_refused(tmp_path: Path):
    template = "{% for i in range(99999) %}{% for j in range(20) %}<rect width='1' height='1'/>{% endfor %}{% endfor %}"
    result, out = build(make_project(tmp_path, template))
    assert_refused(result, out, f"{WHERE}: front.svg.j2: writes more than 2,000,000 characters; "
                                "expected a template of ordinary size")


LINT = "templates/front.svg.j2 uses SVG features the PDF cannot show: {}; expected shapes, paths, gradients, clip paths, <use> and text() only"
SVG = [
    ("width-1e308", '<rect width="1e308" height="10"/>', 'width="1e308" (a number beyond ±1,000,000)'),
    ("scale-1e999", '<rect width="1" height="10" transform="scale(1e999)"/>',
     'transform="scale(1e999)" (not a finite number)'),
    ("nested-scales", '<g transform="scale(100000)"><g transform="scale(100000)"><g transform="scale(100000)">'
                      '<rect width="10" height="10"/></g></g></g>',
     'height="10" (scaled beyond ±1e+12 by the transforms around it), transform="scale(100000)" (scaled beyond '
     '±1e+12 by the transforms around it), width="10" (scaled beyond ±1e+12 by the transforms around it)'),
    ("tiny-nested-viewbox", '<svg viewBox="0 0 0.0000001 0.0000001"><svg viewBox="0 0 0.0000001 0.0000001">'
                            '<rect width="100" height="100"/></svg></svg>',
     'height="100" (scaled beyond ±1e+12 by the transforms around it), '
     'width="100" (scaled beyond ±1e+12 by the transforms around it)'),
    ("style-url-colon", '<rect width="1" height="10" style="fill:url(a:b)"/>',
     'style="fill:url(a:b)" (expected name: value; pairs, a value without another \':\')'),
    ("css-bad-selector", '<style>:nth-child(x) {fill: red}</style><rect width="1" height="1"/>',
     "<style> selector ':nth-child(x)' (Invalid arguments for :nth-child())"),
    ("css-unclosed", "<style>rect[[ {fill:red}</style><rect width='1' height='1'/>",
     "<style> (EOF reached before {} block for a qualified rule.)"),
    ("css-filter", '<style>rect {filter: url(#f)}</style><rect width="1" height="1"/>', "<style> filter"),
    ("css-mask", "<style>.a {mask: url(#m)}</style><rect class='a' width='1' height='1'/>", "<style> mask"),
    ("css-huge-number", "<style>rect {stroke-width: 1e300}</style><rect width='1' height='1'/>",
     "<style> stroke-width: 1e300 (not a number the PDF can hold)"),
    ("zero-dashes", '<line x2="10" y2="10" stroke="#000" stroke-dasharray="0 0"/>',
     'stroke-dasharray="0 0" (expected lengths of 0 or more, not all 0)'),
    ("negative-dashes", '<line x2="10" y2="10" stroke="#000" stroke-dasharray="-1 2"/>',
     'stroke-dasharray="-1 2" (expected lengths of 0 or more, not all 0)'),
    ("negative-picture", '<image href="images/a.png" x="10" width="-10" height="10"/>',
     '<image width="-10"> (a size must not be negative)'),
    ("negative-radius", '<circle cx="5" cy="5" r="-3"/>', '<circle r="-3"> (a size must not be negative)'),
    ("many-elements", "{% for i in range(25000) %}<g/>{% endfor %}", "25,001 elements (at most 20,000 a face)"),
]


@pytest.mark.parametrize("template, expected", [c[1:] for c in SVG], ids=[c[0] for c in SVG])
def test_svg_the_pdf_cannot_hold_is_refused(tmp_path: Path, template: str, expected: str):
    result, out = build(make_project(tmp_path, template))
    assert_refused(result, out, f"{WHERE}: {LINT.format(expected)}")


def test_style_rules_the_painter_takes_still_build(tmp_path: Path):
    template = ('<style>rect { fill: #c00; stroke: url(#g) } .a, g > rect { stroke-width: 0.5 }</style>'
                '<rect class="a" width="{{ W }}" height="{{ H }}" style="stroke: #000; stroke-dasharray: 1 2"/>')
    result, out = build(make_project(tmp_path, template))
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output


def test_a_truncated_png_is_refused_when_checked_not_while_writing(tmp_path: Path):
    image = tmp_path / "whole.png"
    Image.effect_noise((64, 64), 50).convert("RGB").save(image)
    data = image.read_bytes()
    root = make_project(tmp_path, '<image href="images/a.png" width="10" height="10"/>',
                        files={"images/a.png": data[: len(data) // 2]})
    result, out = build(root)
    assert_refused(result, out, f"{WHERE}: image 'images/a.png' cannot be read (OSError); expected a PNG or JPEG file")


@pytest.mark.parametrize("view_box", ["0 0 0 0", "0 0 nan 10", "0 0 -5 5"])
def test_an_icon_with_an_empty_view_box_is_refused(tmp_path: Path, view_box: str):
    icon = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}"><rect width="1" height="1"/></svg>'
    result, out = build(make_project(tmp_path, '{{ icon("x", 1, 1, 10) }}', files={"templates/icons/x.svg": icon}))
    assert_refused(result, out, f"{WHERE}: front.svg.j2 line 1: templates/icons/x.svg:1:1: an icon needs a viewBox "
                                'such as viewBox="0 0 24 24" (a width and height above 0)')


SPECIAL = [
    ("image", '<image href="images/a.png" width="10" height="10"/>', "images/a.png",
     f"{WHERE}: image 'images/a.png' is a named pipe (FIFO), not a file; expected a PNG or JPEG file"),
    ("icon", '{{ icon("x", 1, 1, 10) }}', "templates/icons/x.svg",
     f"{WHERE}: front.svg.j2 line 1: templates/icons/x.svg is a named pipe (FIFO), not a file; expected an SVG icon"),
    ("font", "", "fonts/x.ttf", "fonts/x.ttf: is a named pipe (FIFO), not a file; expected a font file"),
    ("included-template", '{% include "part.j2" %}', "templates/part.j2",
     f"{WHERE}: template 'part.j2' not found; expected it under templates/"),
]


@pytest.mark.parametrize("template, fifo, expected", [c[1:] for c in SPECIAL], ids=[c[0] for c in SPECIAL])
def test_special_files_are_refused_without_reading_them(tmp_path: Path, template: str, fifo: str, expected: str):
    """A named pipe never written to would block a build for ever."""
    result, out = build(make_project(tmp_path, template, files={fifo: "FIFO"}))
    assert_refused(result, out, expected)


def test_a_huge_file_in_images_is_hashed_in_bounded_memory(tmp_path: Path):
    """Every file of images/ and templates/ goes into the render key; a 200 MB one must not be read whole."""
    import tracemalloc

    from pnpgen.faces.inputs import inputs_digest
    from pnpgen.project.validate import load_project

    root = make_project(tmp_path)
    (root / "images").mkdir()
    with open(root / "images" / "huge.bin", "wb") as handle:
        handle.truncate(200_000_000)  # sparse: nothing that size is written to the disk
    project = load_project(root)
    tracemalloc.start()
    try:
        inputs_digest(project)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, f"{peak:,} bytes"
