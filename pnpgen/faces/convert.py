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
from .lint import lint
from .svg_lines import locate_in_template

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
