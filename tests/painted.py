"""Turn a few SVG elements into a face's form as the painter makes it, for tests of what places forms."""
from __future__ import annotations

from lxml import etree

from pnpgen.faces.paint import svg_to_form
from pnpgen.faces.form import FaceForm


def painted(width: float, height: float, body: str, font: str = "Helvetica") -> FaceForm:
    """The form of an SVG face width × height points (its user units are points, y down), its text in font."""
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}pt" height="{height}pt" '
           f'viewBox="0 0 {width} {height}">{body}</svg>')
    return svg_to_form(etree.fromstring(svg), lambda selector: font)
