"""Turn face SVG into reportlab drawings with svglib, refusing what svglib would silently drop."""
from __future__ import annotations

import functools
import logging
import re
from pathlib import Path

from lxml import etree
from reportlab.graphics.shapes import Drawing

from ..cache import Cache
from ..errors import PnpError
from .fonts import FontBook
from .icons import safe_parser
from .images import ImageChecker
from .svg_lines import locate_in_template

# svglib ignores these; a face using them would print differently from what the designer drew.
UNSUPPORTED_ELEMENTS = {"filter", "mask", "pattern", "foreignObject", "script"}
UNSUPPORTED_ATTRIBUTES = {"letter-spacing", "dominant-baseline", "filter", "mask"}
SVG_NS = "{http://www.w3.org/2000/svg}"
GEOMETRY = {"x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "points", "d",
            "transform", "stroke-width", "font-size", "viewBox", "dx", "dy", "offset", "opacity", "fill-opacity"}
NON_FINITE = re.compile(r"(?i)(?<![a-z])(nan|inf)(?![a-z])")

logging.getLogger("svglib.svglib").setLevel(logging.ERROR)


class Converter:
    """Converts each distinct face once; the key is the SVG's content hash."""

    def __init__(self, fontbook: FontBook, root: Path, cache: Cache | None = None):
        self.fontbook = fontbook
        self.font_map = None  # made on the first conversion: a build that converts nothing never loads svglib
        self.root = root
        self.images = ImageChecker(root)
        self.disk = cache
        self.cache: dict[str, Drawing] = {}
        self.conversions = 0

    def convert(self, key: str, svg: str, template: str) -> Drawing:
        drawing = self.cache.get(key)
        if drawing is None and self.disk:
            cached = self.disk.read_drawing(key)
            if cached:
                drawing, fonts = cached
                self.fontbook.ensure_registered(fonts)
        if drawing is None:
            if self.font_map is None:
                self.font_map = self.fontbook.svglib_font_map()
            drawing = convert_svg(svg, template, self.font_map, self.root, self.images)
            self.conversions += 1
            if self.disk:
                self.disk.write_drawing(key, drawing)
        self.cache[key] = drawing
        return drawing


def convert_svg(svg: str, template: str, font_map, root: Path, images: ImageChecker | None = None) -> Drawing:
    try:
        tree = etree.fromstring(svg.encode("utf-8"), safe_parser())
    except etree.XMLSyntaxError as err:
        line, column = err.position if err.position else (0, 0)
        message = re.sub(r",? line \d+, column \d+$", "", err.msg or "")  # a position in the SVG, not the template
        opened = re.search(r"(\w+) line (\d+)", message)  # a tag left open names the SVG line it opened on
        if opened:
            line, column = int(opened.group(2)), 0
            message = message.replace(opened.group(0), f"<{opened.group(1)}>")
        where = locate_in_template(svg, line, column, root / "templates" / template)
        raise PnpError(f"templates/{template}{' ' + where if where else ''} produced invalid SVG: {message}; expected "
                       "well-formed XML (let text() escape data instead of writing it raw)") from None
    lint(tree, template)
    renderer = project_renderer()(str(root / "templates" / template), font_map=font_map, external_reference_root=str(root))
    renderer.images = images or ImageChecker(root)
    return renderer.render(tree)


@functools.lru_cache(maxsize=1)
def project_renderer():
    """svglib's renderer with images taken from the project (checked, by path) instead of decoded inline."""
    from svglib.svglib import SvgRenderer, node_name  # imported on first use: the slowest import of the pipeline

    class ProjectSvgRenderer(SvgRenderer):
        images: ImageChecker

        def xlink_href_target(self, node, group=None):
            if node_name(node) != "image":
                return super().xlink_href_target(node, group)
            href = node.attrib.get("{http://www.w3.org/1999/xlink}href") or node.attrib.get("href") or ""
            return self.images.resolve(href)

    return ProjectSvgRenderer


def lint(tree, template: str) -> None:
    """Refuse SVG features svglib ignores, naming the template and the feature."""
    problems = []
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue
        name = element.tag.replace(SVG_NS, "")
        if name in UNSUPPORTED_ELEMENTS:
            problems.append(f"<{name}>")
        for attribute in UNSUPPORTED_ATTRIBUTES & set(element.attrib):
            problems.append(f"{attribute}=…")
        style = element.get("style", "")
        for attribute in UNSUPPORTED_ATTRIBUTES:
            if attribute + ":" in style.replace(" ", ""):
                problems.append(f"style {attribute}")
        if name == "g" and ("opacity" in element.attrib or "opacity:" in style.replace(" ", "")):
            problems.append("opacity on <g> (group opacity)")
        for attribute in GEOMETRY & set(element.attrib):
            if NON_FINITE.search(element.get(attribute)):
                problems.append(f'{attribute}="{element.get(attribute)[:40]}" (not a finite number)')
        if name == "use":
            href = element.get("href") or element.get("{http://www.w3.org/1999/xlink}href") or ""
            if not href.startswith("#"):
                problems.append(f'<use href="{href[:60]}"> (a <use> shows an element of the same face: href="#id")')
    if problems:
        found = ", ".join(sorted(set(problems)))
        raise PnpError(f"templates/{template} uses SVG features the PDF cannot show: {found}; "
                       "expected shapes, paths, gradients and text() only (put opacity on the shapes themselves)")
