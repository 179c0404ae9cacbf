"""Turn face SVG into FaceArt (or, for what only svglib draws, an svglib drawing), refusing what neither prints."""
from __future__ import annotations

import functools
from collections import OrderedDict
import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from ..store.cache import Cache
from ..store.pack import FacePack
from ..errors import PnpError
from .fonts import FontBook
from .icons import safe_parser
from .art import FaceArt, load_art
from .form import FaceForm, Shape, encode_form, font_digest, font_file, glyphs_fit, locate_parts
from .images import ImageChecker
from .lint import lint
from .paint import svg_to_art
from .reuse import Bounded
from .svg_lines import locate_in_template
from .svgpath import NotDrawable

if TYPE_CHECKING:  # svglib's drawings; reportlab.graphics is imported only by the builds that make one
    from reportlab.graphics.shapes import Drawing

logging.getLogger("svglib.svglib").setLevel(logging.ERROR)
RECENT_FORMS = 256  # the forms made last (the rest are copied from the pack as records, which is cheaper): ~0.3 MB
DRAWINGS = 256


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
        self.cache: dict[str, FaceArt | Drawing] = Bounded(DRAWINGS)
        self.conversions = 0
        self.fonts: dict[tuple, str] = {}
        self.unpacked: dict[str, FaceForm] = {}  # forms, when there is no pack to keep them in
        self.recent: OrderedDict[str, FaceForm] = OrderedDict()  # the forms read last, at most RECENT_FORMS
        self.shapes: dict[Shape, tuple | None] = {}  # see fonts_of

    def convert(self, key: str, svg: str, template: str) -> FaceArt | Drawing:
        """The face ready to draw. With a pack, FaceArt is kept there as bytes and parsed on each call
        (cheap), so that a build of any size holds no face as objects; svglib drawings are kept here (the
        last DRAWINGS of them: a deck of more converts some twice rather than hold them all)."""
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
            self.cache.keep(key, drawing)
        return drawing

    def drawings(self) -> "Drawings":
        return Drawings(self)

    def forms(self) -> "Forms":
        return Forms(self)

    def form(self, key: str, raw: bool = False) -> FaceForm | Drawing | tuple:
        """The face ready to place in any PDF: its form, kept in the pack; an svglib drawing as it is.
        raw: a checked record without images comes as it is, for the writer to copy (see placeable)."""
        if key in self.unpacked:
            return self.unpacked[key]
        form = self.recent.get(key)
        if form is not None:  # the print-and-play PDF places the faces its components' PDFs just did
            self.recent.move_to_end(key)
            return form
        data, checked = self.pack.form_record(key) if self.pack else (None, False)
        if raw and checked:
            parts = self.placeable(data)
            if parts is not None:
                return parts
        if data is not None:
            try:
                form = FaceForm.from_bytes(data, check=not checked)
            except ValueError:
                form = None
            fonts = self.fonts_of(form.shape) if form is not None else None
            if fonts is not None and (checked or glyphs_fit(form.glyphs, fonts[1])):
                if not checked:
                    self.pack.checked_forms.add(key)
                form.resolved_fonts = fonts[0]
                form.resolved_images = [self.images.resolve(href) for href in form.images] if form.images else []
                return self.remember(key, form)
        drawing = self.convert(key, "", "")
        return self.keep_form(key, drawing) if isinstance(drawing, FaceArt) else drawing

    def placeable(self, data: bytes) -> tuple | None:
        """A checked form record as the writer copies it, neither parsed into objects nor remembered: (its
        shape, the fonts it names, the record, where its glyph IDs, their text and its content start); None
        for one with images or other fonts (form() reads those)."""
        try:
            shape, ids_at, text_at, content_at = locate_parts(data)
        except ValueError:
            return None
        fonts = self.fonts_of(shape)
        if fonts is None or shape.images:
            return None
        return shape, fonts[0], data, ids_at, text_at, content_at

    def fonts_of(self, shape: Shape) -> tuple[tuple[str, ...], list[int]] | None:
        """The fonts a record's shape names, and how many glyphs each has; None when a digest differs (the
        record was made with other fonts). Once per shape: a template's faces share theirs."""
        if shape not in self.shapes:
            names = tuple(self.font_of(tuple(selector)) for selector in shape.fonts)
            same = [font_digest(name) for name in names] == list(shape.digests)
            self.shapes[shape] = (names, [font_file(name).num_glyphs for name in names]) if same else None
        return self.shapes[shape]

    def keep_form(self, key: str, art: FaceArt) -> FaceForm:
        form = encode_form(art)
        if self.pack:
            self.pack.store_form(key, form.to_bytes())
            self.pack.checked_forms.add(key)
        else:
            self.unpacked[key] = form
        return self.remember(key, form)

    def remember(self, key: str, form: FaceForm) -> FaceForm:
        self.recent[key] = form
        if len(self.recent) > RECENT_FORMS:
            self.recent.popitem(last=False)
        return form

    def store(self, key: str, svg: str, template: str) -> None:
        """Convert the face into the pack unless it is there already, drawing nothing yet."""
        if self.pack is None or not self.pack.has_face(key):
            self.convert(key, svg, template)

    def convert_svg(self, key: str, svg: str, template: str) -> FaceArt | Drawing:
        tree = parse_svg(svg, template, self.root)
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
            self.keep_form(key, resolved)  # here, so that a helper process makes half the forms
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


class Forms(Drawings):
    """face key -> the face's form (or svglib drawing), for the PDF writer; `arts` gives the faces as
    drawings instead, for a document that has to be drawn through reportlab's canvas."""

    def __getitem__(self, key: str) -> FaceForm | Drawing:
        return self.converter.form(key)

    def raw(self, key: str) -> FaceForm | Drawing | tuple:
        """As [key], but a checked record comes as Converter.placeable gives it."""
        return self.converter.form(key, raw=True)

    @property
    def arts(self) -> Drawings:
        return Drawings(self.converter)


def parse_svg(svg: str, template: str, root: Path):
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
