"""Turn face SVG into FaceArt (or, for what only svglib draws, an svglib drawing), refusing what neither prints."""
from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from ..cache import Cache, FacePack
from ..errors import PnpError
from .fonts import FontBook
from .icons import safe_parser
from .art import FaceArt, load_art
from .images import ImageChecker
from .paint import svg_to_art
from .svgpath import NotDrawable

if TYPE_CHECKING:  # svglib's drawings; reportlab.graphics is imported only by the builds that make one
    from reportlab.graphics.shapes import Drawing

# svglib ignores these; a face using them would print differently from what the designer drew.
UNSUPPORTED_ELEMENTS = {"filter", "mask", "pattern", "foreignObject", "script"}
UNSUPPORTED_ATTRIBUTES = {"letter-spacing", "dominant-baseline", "filter", "mask"}
SVG_NS = "{http://www.w3.org/2000/svg}"
GEOMETRY = {"x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "points", "d",
            "transform", "stroke-width", "font-size", "viewBox", "dx", "dy", "offset", "opacity", "fill-opacity"}
NON_FINITE = re.compile(r"(?i)(?<![a-z])(nan|inf)(?![a-z])")

logging.getLogger("svglib.svglib").setLevel(logging.ERROR)


class Converter:
    """Converts each distinct face once (the key is the SVG's content hash): to FaceArt where the SVG holds
    only what paint.py draws, else to an svglib drawing. FaceArt is kept in the face cache; whatever comes
    from there has its fonts and images resolved and checked again, exactly as for a fresh face."""

    def __init__(self, fontbook: FontBook, root: Path, cache: Cache | None = None):
        self.fontbook = fontbook
        self.font_map = None  # made on the first svglib conversion: most builds never load svglib
        self.root = root
        self.images = ImageChecker(root)
        self.pack: FacePack | None = cache.pack(root) if cache else None
        self.cache: dict[str, FaceArt | Drawing] = {}
        self.conversions = 0
        self.fonts: dict[tuple, str] = {}

    def convert(self, key: str, svg: str, template: str) -> FaceArt | Drawing:
        """The face ready to draw. With a pack, FaceArt is kept there as bytes and parsed on each call
        (cheap), so that a build of any size holds no face as objects; svglib drawings are kept here."""
        drawing = self.cache.get(key)
        if drawing is not None:
            return drawing
        art = load_art(self.pack, key) if self.pack else None
        if art is not None:
            return self.resolve(art)
        if not svg and self.pack:
            svg = self.pack.face_svg(key) or ""
        drawing = self.convert_svg(key, svg, template)
        self.conversions += 1
        if not (self.pack and isinstance(drawing, FaceArt)):
            self.cache[key] = drawing
        return drawing

    def drawings(self) -> "Drawings":
        return Drawings(self)

    def store(self, key: str, svg: str, template: str) -> None:
        """Convert the face into the pack unless it is there already, drawing nothing yet."""
        if self.pack is None or not self.pack.has_face(key):
            self.convert(key, svg, template)

    def convert_svg(self, key: str, svg: str, template: str) -> FaceArt | Drawing:
        tree = parse_svg(svg, template)
        try:
            art = svg_to_art(tree, self.font_of)
        except NotDrawable:
            if self.pack:
                self.pack.store_svg(key, svg)
            if self.font_map is None:
                self.font_map = self.fontbook.svglib_font_map()
            return render_with_svglib(tree, template, self.font_map, self.root, self.images)
        resolved = self.resolve(art)
        if self.pack:
            self.pack.store_art(key, art)
        return resolved

    def resolve(self, art: FaceArt) -> FaceArt:
        """Fonts through this project's font book, images through the same checks as a fresh face."""
        art.resolved_fonts = [self.font_of(tuple(selector)) for selector in art.fonts]
        art.resolved_images = [self.images.resolve(href) for href in art.images]
        return art

    def font_of(self, selector: tuple) -> str:
        """The reportlab font for an SVG family, weight and style; an unknown family takes the default, as in svglib."""
        if selector not in self.fonts:
            family, weight, style = selector
            try:
                self.fonts[selector] = self.fontbook.resolve(family or None, weight, style)
            except PnpError:
                self.fonts[selector] = self.fontbook.resolve(None, weight, style)
        return self.fonts[selector]


class Drawings(Mapping):
    """face key -> the face ready to draw, made when asked (for the PDF writer, which asks once per face)."""

    def __init__(self, converter: Converter):
        self.converter = converter

    def __getitem__(self, key: str) -> FaceArt | Drawing:
        return self.converter.convert(key, "", "")

    def __iter__(self):
        raise TypeError("the faces of a build are looked up by key, not listed")

    def __len__(self) -> int:
        raise TypeError("the faces of a build are looked up by key, not counted")


def parse_svg(svg: str, template: str):
    try:
        tree = etree.fromstring(svg.encode("utf-8"), safe_parser())
    except etree.XMLSyntaxError as err:
        raise PnpError(f"templates/{template} produced invalid SVG: {err.msg}; expected well-formed XML "
                       "(let text() escape data instead of writing it raw)") from None
    lint(tree, template)
    return tree


def render_with_svglib(tree, template: str, font_map, root: Path, images: ImageChecker) -> Drawing:
    renderer = project_renderer()(str(root / "templates" / template), font_map=font_map, external_reference_root=str(root))
    renderer.images = images
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
