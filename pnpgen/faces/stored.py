"""Turn a face's form record in the face store into a form this build can draw, or a miss."""
from __future__ import annotations

from ..errors import PnpError
from ..store.pack import FacePack
from .fonts import FontBook
from .font import font_named
from .form import FaceForm, Shape, glyphs_fit
from .images import ImageChecker

KEPT_RECORDS = 1 << 16  # form records a process remembers having checked; then it starts afresh
# The checksums of form records checked in full in this process (watch, serve), with their shapes
_CHECKED: dict[bytes, Shape] = {}


class StoredForms:
    """The form records of one project's pack, read for this build's fonts and images. A record is drawn from only
    when it checks (check_form, in full once a process), its font digests are this build's fonts', its glyph IDs
    lie within them and its images pass today's checks; any other is a miss, forgotten: its face is painted again."""

    def __init__(self, pack: FacePack | None, fontbook: FontBook, images: ImageChecker):
        self.pack, self.fontbook, self.images = pack, fontbook, images
        self.fonts: dict[tuple, str] = {}  # SVG selector -> the registered font's name
        self.shapes: dict[Shape, tuple[tuple[str, ...], list[int]] | None] = {}  # see fonts_of

    def holds(self, key: str) -> bool:
        """Whether the face can be drawn from its record (decided once a build: pack.checked). A record checked in
        an earlier build of this process and naming no image is drawable while its fonts are (its shape says
        which); any other is read and checked. Asks nothing of reportlab: a build that draws none of its faces
        registers no font."""
        if self.pack is None:
            return False
        if key in self.pack.checked:
            return True
        data, checked = self.pack.form_record(key)  # read once: its checksum is known from then on
        shape = _CHECKED.get(self.pack.form_checksum(key)) if data is not None else None
        if shape is not None and not shape.images and self.fonts_of(shape) is not None:
            self.pack.checked.add(key)
            return True
        return self.check(key, data, checked) is not None

    def read(self, key: str, raw: bool = False) -> FaceForm | None:
        """The face's form from its record, its fonts and images resolved; None for a miss. raw: a record this
        process checked, without images or groups, comes as its bytes, unparsed, for the writer to copy
        (FaceForm.placeable)."""
        data, checked = self.pack.form_record(key) if self.pack is not None else (None, False)
        form = None
        if raw and checked:
            try:
                form = FaceForm.placeable(data)
            except ValueError:
                form = None
            if form is not None and self.fonts_of(form.shape) is None:
                form = None
        form = form or self.check(key, data, checked)
        if form is not None:
            form.resolved_fonts = self.fonts_of(form.shape)[0]
        return form

    def check(self, key: str, data: bytes | None, checked: bool) -> FaceForm | None:
        """The form a record holds, checked in full unless this process did already, its images resolved; a
        record that does not check or cannot be drawn today is forgotten."""
        if data is None:
            return None
        # A record's checksum is a function of its bytes: one checked before, in a build of this process, is
        # parsed without checking it again; its fonts are still this build's (fonts_of), and its images too.
        record = self.pack.form_checksum(key)
        checked = checked or record in _CHECKED
        try:
            form = FaceForm.from_bytes(data, check=not checked)
        except ValueError:
            form = None
        fonts = self.fonts_of(form.shape) if form is not None else None
        try:
            if fonts is None or not (checked or glyphs_fit(form.glyphs, fonts[1])):
                raise ValueError("not drawable with this build's fonts")
            form.resolved_images = [self.images.resolve(href) for href in form.images] if form.images else []
        except (ValueError, PnpError):  # a fresh face's painting gives the usual message about an image
            self.pack.forget(key)
            return None
        self.pack.checked.add(key)
        if record is not None:
            if len(_CHECKED) >= KEPT_RECORDS:
                _CHECKED.clear()
            _CHECKED[record] = form.shape
        return form

    def fonts_of(self, shape: Shape) -> tuple[tuple[str, ...], list[int]] | None:
        """The names of the fonts a record's shape names, and how many glyphs each has; None when a digest
        differs (the record was made with other font files). Once per shape: a template's faces share theirs.
        The font model reads each file once and gives reportlab nothing until a canvas asks."""
        if shape not in self.shapes:
            names = tuple(self.font_of(tuple(selector)) for selector in shape.fonts)
            fonts = [font_named(name) for name in names]
            same = [font.digest for font in fonts] == list(shape.digests)
            self.shapes[shape] = (names, [font.file.num_glyphs for font in fonts]) if same else None
        return self.shapes[shape]

    def font_of(self, selector: tuple) -> str:
        """The reportlab font for an SVG family, weight and style; an unknown family takes the default."""
        if selector not in self.fonts:
            family, weight, style = selector
            try:
                self.fonts[selector] = self.fontbook.resolve(family or None, weight, style)
            except PnpError:
                self.fonts[selector] = self.fontbook.resolve(None, weight, style)
        return self.fonts[selector]
