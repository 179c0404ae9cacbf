"""Turn face SVG into FaceArt and its form, the one shape the PDF writers take, refusing what the painter cannot draw."""
from __future__ import annotations

from collections import OrderedDict
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from lxml import etree

from ..store.cache import Cache
from ..store.pack import FacePack
from ..errors import PnpError
from .fonts import FontBook
from .icons import safe_parser
from .art import FaceArt, load_art
from .face import Face
from .font import font_named
from .form import FaceForm, Shape, encode_form, glyphs_fit
from .images import ImageChecker
from .lint import lint
from .paint import svg_to_art
from .svg_lines import locate_in_template
from .svgpath import NotDrawable

RECENT_FORMS = 256  # the forms made last (the rest are copied from the pack as records, which is cheaper)


class Converter:
    """Converts each distinct face once (the key is the SVG's content hash) to FaceArt and its form, both
    kept in the face cache; whatever comes from there has its fonts and images resolved and checked again,
    exactly as for a fresh face."""

    def __init__(self, fontbook: FontBook, root: Path, cache: Cache | None = None):
        self.fontbook = fontbook
        self.root = root
        self.images = ImageChecker(root)
        self.pack: FacePack | None = cache.pack(root) if cache else None
        self.conversions = 0
        self.fonts: dict[tuple, str] = {}
        self.unpacked: dict[str, FaceForm] = {}  # forms, when there is no pack to keep them in
        self.recent: OrderedDict[str, FaceForm] = OrderedDict()  # the forms read last, at most RECENT_FORMS
        self.shapes: dict[Shape, tuple | None] = {}  # see fonts_of

    def convert(self, key: str, svg: str, template: str) -> FaceArt:
        """The face's FaceArt. With a pack, it is kept there as bytes and parsed on each call (cheap), so
        that a build of any size holds no face as objects; without, only its form is kept (see form)."""
        art = load_art(self.pack, key) if self.pack else None
        if art is not None:
            return self.resolve(art)
        art = self.convert_svg(key, svg, template)
        self.conversions += 1
        return art

    def forms(self) -> "Forms":
        return Forms(self)

    def face_form(self, key: str, svg: str, template: str) -> FaceForm:
        """The form of a face rendered just now (converted unless it is known)."""
        self.store(key, svg, template)
        return self.form(key)

    def form(self, key: str, raw: bool = False) -> FaceForm:
        """The face ready to place in any PDF: its form, kept in the pack. raw: a checked record without
        images or groups comes as its bytes, unparsed, for the writer to copy (see FaceForm.placeable)."""
        if key in self.unpacked:
            return self.unpacked[key]
        form = self.recent.get(key)
        if form is not None:  # the print-and-play PDF places the faces its components' PDFs just did
            self.recent.move_to_end(key)
            return form
        data, checked = self.pack.form_record(key) if self.pack else (None, False)
        if raw and checked:
            try:
                form = FaceForm.placeable(data)
            except ValueError:
                form = None
            fonts = self.fonts_of(form.shape) if form is not None else None
            if fonts is not None:
                form.resolved_fonts = fonts[0]
                return form
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
        return self.keep_form(key, self.convert(key, "", ""))

    def fonts_of(self, shape: Shape) -> tuple[tuple[str, ...], list[int]] | None:
        """The fonts a record's shape names, and how many glyphs each has; None when a digest differs (the
        record was made with other fonts). Once per shape: a template's faces share theirs."""
        if shape not in self.shapes:
            names = tuple(self.font_of(tuple(selector)) for selector in shape.fonts)
            same = [font_named(name).digest for name in names] == list(shape.digests)
            self.shapes[shape] = (names, [font_named(name).file.num_glyphs for name in names]) if same else None
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
            if key not in self.unpacked:
                self.convert(key, svg, template)

    def convert_faces(self, faces: Iterable[Face]) -> "Forms":
        """Every face still carrying its SVG converted before anything is written (the renderer stored most as
        it rendered them); the mapping returned converts or reads each again when it is drawn, holding none.
        A face that cannot be drawn is an error naming the card it was rendered for."""
        for face in faces:
            if face.svg:
                try:
                    self.store(face.key, face.svg, face.template)
                except PnpError as err:
                    raise PnpError(f"{face.origin}: {err.problems[0].message}", face.location) from None
        return self.forms()

    def convert_svg(self, key: str, svg: str, template: str) -> FaceArt:
        tree = parse_svg(svg, template, self.root)
        try:
            art = svg_to_art(tree, self.font_of)
        except NotDrawable as err:
            where = locate_in_template(svg, getattr(err, "line", None) or 0, 0, self.root / "templates" / template)
            raise PnpError(f"templates/{template}{' ' + where if where else ''} uses SVG the PDF cannot show: {err}; "
                           "expected shapes, paths, text, images, gradients, clip paths and <use>") from None
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
        """The reportlab font for an SVG family, weight and style; an unknown family takes the default."""
        if selector not in self.fonts:
            family, weight, style = selector
            try:
                self.fonts[selector] = self.fontbook.resolve(family or None, weight, style)
            except PnpError:
                self.fonts[selector] = self.fontbook.resolve(None, weight, style)
        return self.fonts[selector]


class Forms(Mapping):
    """face key -> the face's form, made or read when asked (for the PDF writer, which asks once per face)."""

    def __init__(self, converter: Converter):
        self.converter = converter

    def __getitem__(self, key: str) -> FaceForm:
        """The form; a checked record may come unparsed (FaceForm.placeable)."""
        return self.converter.form(key, raw=True)

    def __iter__(self):
        raise TypeError("the faces of a build are looked up by key, not listed")

    def __len__(self) -> int:
        raise TypeError("the faces of a build are looked up by key, not counted")


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
