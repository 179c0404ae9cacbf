"""Turn face SVG into its form, the one shape of a face the PDF writer takes, refusing what the painter cannot draw."""
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
from .face import Face
from .form import FaceForm
from .images import ImageChecker
from .lint import lint
from .paint import svg_to_form
from .size_marks import keep_size_marks
from .stored import StoredForms
from .svgpath import NotDrawable

RECENT_FORMS = 256  # the forms made last (the rest are copied from the pack as records, which is cheaper)
SNIPPET = 40  # characters of the produced SVG shown when no template line matches
LOST = ("the face cache could not be read while building (a face checked earlier is gone); build again, or "
        "with --no-cache")


class Converter:
    """Paints each distinct face once (the key is the SVG's content hash) into its form, kept in the face cache;
    a form read from there is drawn only when this build's fonts and images are those it was made with
    (StoredForms), else the renderer renders its face again and it is painted anew."""

    def __init__(self, fontbook: FontBook, root: Path, cache: Cache | None = None):
        self.root = root
        self.images = ImageChecker(root)
        self.pack: FacePack | None = cache.pack(root) if cache else None
        self.stored = StoredForms(self.pack, fontbook, self.images)
        self.conversions = 0
        self.unpacked: dict[str, FaceForm] = {}  # forms, when there is no pack to keep them in
        self.recent: OrderedDict[str, FaceForm] = OrderedDict()  # the forms read last, at most RECENT_FORMS

    def face_form(self, key: str, svg: str, template: str) -> FaceForm:
        """The form of a face rendered just now (painted unless the pack holds it, drawable)."""
        self.store(key, svg, template)
        return self.form(key)

    def form(self, key: str, raw: bool = False) -> FaceForm:
        """The face ready to place in any PDF: its form, kept in the pack, of a face stored (store) or found
        drawable there (Renderer.is_usable). raw: a checked record without images or groups comes as its bytes,
        unparsed, for the writer to copy (see FaceForm.placeable)."""
        if key in self.unpacked:
            return self.unpacked[key]
        form = self.recent.get(key)
        if form is not None:  # the print-and-play PDF places the faces its components' PDFs just did
            self.recent.move_to_end(key)
            return form
        form = self.stored.read(key, raw)
        if form is None:
            raise PnpError(LOST)
        return form if form.record is not None else self.remember(key, form)

    def remember(self, key: str, form: FaceForm) -> FaceForm:
        self.recent[key] = form
        if len(self.recent) > RECENT_FORMS:
            self.recent.popitem(last=False)
        return form

    def store(self, key: str, svg: str, template: str) -> None:
        """Paint the face into the pack unless it holds it, drawable, already."""
        if key not in self.unpacked and not self.stored.holds(key):
            self.paint(key, svg, template)

    def convert_faces(self, faces: Iterable[Face]) -> "Forms":
        """Every face still carrying its SVG painted before anything is written (the renderer stored most as
        it rendered them); the mapping returned reads each again when it is drawn, holding none.
        A face that cannot be drawn is an error naming the card it was rendered for."""
        for face in faces:
            if face.svg:
                try:
                    self.store(face.key, face.svg, face.template)
                except PnpError as err:
                    raise PnpError(f"{face.origin}: {err.problems[0].message}", face.location) from None
        return Forms(self)

    def paint(self, key: str, svg: str, template: str) -> FaceForm:
        """The face's form, painted from its SVG (here, so that a helper process paints half the faces), its
        images checked as for any face, and kept in the pack."""
        tree = parse_svg(svg, template, self.root)
        try:
            form = svg_to_form(tree, self.stored.font_of)
        except NotDrawable as err:
            where = locate_in_template(svg, getattr(err, "line", None) or 0, 0, self.root / "templates" / template)
            raise PnpError(f"templates/{template}{' ' + where if where else ''} uses SVG the PDF cannot show: {err}; "
                           "expected shapes, paths, text, images, gradients, clip paths and <use>") from None
        form.resolved_images = [self.images.resolve(href) for href in form.images]
        self.conversions += 1
        if self.pack:
            self.pack.store_form(key, form.to_bytes())
            keep_size_marks(self.pack, key, form)  # read here, once, in whichever process made the form
        else:
            self.unpacked[key] = form
        return self.remember(key, form)


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


def locate_in_template(svg: str, line: int, column: int, template_path: Path) -> str:
    """"line 12" of the template when the produced SVG line (1-based) can be found there literally, else the
    produced text around the column, quoted."""
    produced = svg.splitlines()[line - 1] if 0 < line <= len(svg.splitlines()) else ""
    start = max(0, column - 1 - SNIPPET // 2)
    around = produced[start:start + SNIPPET].strip()
    try:
        source = template_path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        source = []
    for needle in (around, produced.strip()[:SNIPPET], around[:SNIPPET // 2]):
        if len(needle) < 4:
            continue
        found = [number for number, text in enumerate(source, 1) if needle in text]
        if len(found) == 1:
            return f"line {found[0]}"
    return f"near “{around}” (in the SVG it wrote)" if around else ""
