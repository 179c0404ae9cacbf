"""Turn imposed pages and their faces' forms into a PDF streamed to its file: one Form XObject per face.

Pages are written as they come, a form when a page first shows it, font subsets last (once every glyph is known):
memory holds object numbers, not the document, and a form's only while a later page still shows its face."""
from __future__ import annotations

import functools
import io
import struct
from array import array
from pathlib import Path
from typing import BinaryIO, Mapping, Sequence

from reportlab.lib.rl_accel import fp_str

from ..files.atomic import write_atomically
from ..faces.font import font_named
from ..faces.form import Shape
from .form_objects import form_head
from .placing import LABEL_SIZE, label_position, placing
from .cid_fonts import cid_font_objects
from .image_objects import image_objects
from .geometry import Placed
from .glyphs import Glyphs, Shown
from .impose import Page, Rect
from .mark_ops import GREY, marks_operators
from .pdf_file import EPOCH, PdfFile, form_name, stream, text_string
from .pdfx import ALL_SEPARATION, PdfX
from .recurring import key_prefix, recurring


RECENT_PAGES = 8  # page contents (and marks, boxes...) kept: a page that repeats one written shortly before reuses them


def write_pdf(pages: Sequence[Page], drawings: Mapping, path: Path, **options) -> None:
    """Write the pages to path (with write_document's options), replacing it only once the whole PDF is on disk."""
    write_atomically(Path(path), functools.partial(write_document, pages=pages, drawings=drawings, **options), "PDF")


def pdf_bytes(pages: Sequence[Page], drawings: Mapping, **options) -> bytes:
    """The PDF write_pdf writes, as bytes (exports rasterise it in memory)."""
    out = io.BytesIO()
    write_document(out, pages, drawings, **options)
    return out.getvalue()


def write_document(out: BinaryIO, pages: Sequence[Page], drawings: Mapping, *, title: str, initial_font: str,
                   bleed: float | None, subject: str = "", duplex: str = "long", pdfx: PdfX | None = None,
                   retitled: Sequence[tuple[BinaryIO, str]] = ()) -> None:
    """drawings maps each face key to its FaceForm. bleed: the bleed every face carries on each side; None reads
    it per placement from the face's width (PDFs mixing components). duplex: the edge its back pages flip on
    (long, short), which the PDF asks the print dialog for. pdfx: a PDF/X in CMYK for a press, else RGB.
    retitled: (file, title) of each other file to write the same PDF to under its own title (not a PDF/X's,
    whose metadata repeats the title)."""
    if pdfx and retitled:
        raise ValueError("a PDF/X names its title in its metadata: it is written under one title")
    infos = [b"<< /Author %s /CreationDate (%s) /Creator (pnpgen) /Keywords () /ModDate (%s) /Producer (pnpgen) "
             b"/Subject %s /Title %s /Trapped /False%s >>" % (text_string("pnpgen"), EPOCH.encode(), EPOCH.encode(),
                                                             text_string(subject), text_string(name),
                                                             pdfx.info_entries() if pdfx else b"")
             for name in [title, *(name for _, name in retitled)]]
    document = Document([out, *(other for other, _ in retitled)], drawings, initial_font, pdfx=pdfx)
    document.write(pages, bleed, infos, duplex,
                   (lambda: pdfx.catalog_entries(document.file, title, subject)) if pdfx else None)


DUPLEX = {"long": b"DuplexFlipLongEdge", "short": b"DuplexFlipShortEdge"}  # the print dialog's preset


class Document:
    """One PDF being written: the forms, fonts and images it has so far, by object number."""

    def __init__(self, outs: Sequence[BinaryIO], drawings: Mapping, label_font: str, file=None,
                 pdfx: PdfX | None = None):
        """file: where objects go, PdfFile's methods (a reportlab document's, for its figures); else outs."""
        self.pdfx = pdfx
        self.registration: int | None = None  # the object of a PDF/X's registration colour space, once marked
        self.file = file if file is not None else PdfFile(outs, *([pdfx.header] if pdfx else []))
        self.drawings = drawings
        # face key -> [(object number, face width, its name in a page's resources, its operators after placing()),
        # how many later placements may show it, its key_prefix()]: only faces shown again are kept, until their
        # last placement
        self.forms: dict[str, list] = {}
        self.recurring: dict[int, int] = {}  # see recurring()
        self.fonts: dict[str, Glyphs] = {}
        self.images: dict[str, int] = {}
        # a shape -> its forms' object (PdfFile.add_stream's template), their fonts, those fonts' Glyphs, their width
        self.heads: dict[Shape, tuple[bytes, tuple[str, ...], list[Glyphs], float]] = {}
        self.shown = Shown(self.fonts)  # the glyphs of records copied as they are
        self.label_font = label_font
        self.streams: dict[bytes, bytes] = {}  # the content streams of the pages written last
        self.marks: dict[tuple, tuple] = {}  # a page's marks -> their operators (see recall)
        self.moves: dict[tuple, tuple] = {}  # a grid's slots and their bleeds -> their placing() operators
        self.boxes: dict[tuple, tuple] = {}  # a page's paper and boxes -> their entries

    def write(self, pages: Sequence[Page], bleed: float | None, infos: Sequence[bytes], duplex: str = "long",
              catalog_entries=None) -> None:
        """infos: the Info of each file written (PdfFile.finish); catalog_entries(): what a PDF/X's catalog adds,
        made once the pages are written (its XMP names them)."""
        tree = self.file.reserve()
        self.recurring = recurring(pages)
        kids = array("Q", (self.write_page(page, tree, bleed) for page in pages))
        self.write_fonts()
        self.file.put(tree, b"<< /Type /Pages /Count %d /Kids [ %s ] >>" % (
            len(kids), b" ".join(b"%d 0 R" % kid for kid in kids)))
        flip = DUPLEX.get(duplex) if any(page.side == "back" for page in pages) and not self.pdfx else None
        asked = b" /ViewerPreferences << /Duplex /%s >>" % flip if flip else b""
        asked += catalog_entries() if catalog_entries else b""
        catalog = self.file.add(b"<< /Type /Catalog /Pages %d 0 R /PageMode /UseNone%s >>" % (tree, asked))
        self.file.finish(catalog, infos)

    def write_page(self, page: Page, tree: int, bleed: float | None) -> int:
        placements, forms = page.placements, self.forms
        grid = isinstance(placements, Placed)
        entries = []
        for face in placements.faces if grid else [p.face for p in placements]:
            known = forms.get(face)
            if known is None:
                entry = self.write_form(face)
                prefix = key_prefix(face)
                later = self.recurring.get(prefix, 1) - 1
                if later:
                    forms[face] = [entry, later, prefix]
            else:
                entry = known[0]
                known[1] -= 1
                if not known[1]:  # its last placement, at the latest (a shared prefix counts for all its faces)
                    del forms[face]
                    self.recurring.pop(known[2], None)
            entries.append(entry)
        shown = {entry[2]: entry[0] for entry in entries}
        if grid:
            moves = self.grid_moves(placements.slots, (bleed,) * len(entries) if bleed is not None else tuple(
                (entry[1] - slot[2]) / 2 for entry, slot in zip(entries, placements.slots)))
        else:
            moves = [placing(p.x, p.y, p.width, p.height, p.clip, p.clip_path, p.flip,
                             bleed if bleed is not None else (entry[1] - p.width) / 2)
                     for p, entry in zip(placements, entries)]
        code = [move + entry[3] for move, entry in zip(moves, entries)]
        resources = b""
        if page.marks:
            code.append(recall(self.marks, (page.marks,), lambda: marks_operators(page.marks)))
            if self.pdfx:
                code[-1] = self.pdfx.register(code[-1])
                if self.registration is None:
                    self.registration = self.file.add(ALL_SEPARATION)
                resources = b" /ColorSpace << /Reg %d 0 R >>" % self.registration
        where = label_position(page, self.label_font)
        if where is not None:
            operators, number = self.label_operators(page.label, *where)
            code.append(self.pdfx.recolour(operators) if self.pdfx else operators)
            resources += b" /Font << /FL %d 0 R >>" % number
        content = self.file.add(self.page_stream("\n".join(code).encode("latin-1")))
        objects = b" ".join(b"/%s %d 0 R" % item for item in sorted(shown.items()))
        return self.file.add(
            b"<< /Type /Page /Parent %d 0 R %s /Resources << /ProcSet [ /PDF /Text /ImageB /ImageC /ImageI ] "
            b"/XObject << %s >>%s >> /Contents %d 0 R >>" % (tree, self.page_boxes(page), objects, resources, content))

    def page_boxes(self, page: Page) -> bytes:
        """A page's MediaBox, TrimBox and BleedBox entries."""
        size, trim, bleed = page.size, page.trim_box, page.bleed_box
        return recall(self.boxes, (size, trim, bleed), lambda: b"/MediaBox [ 0 0 %s ] /TrimBox [ %s ] /BleedBox [ %s ]"
                      % (fp_str(size.width, size.height).encode(), box(trim), box(bleed)))

    def grid_moves(self, slots: tuple, bleeds: tuple[float, ...]) -> list[str]:
        """The placing() operators of a grid page's slots (each x, y, width, height, clip)."""
        return recall(self.moves, (slots,), lambda: [placing(*slot, (), "", face_bleed)
                                                     for slot, face_bleed in zip(slots, bleeds)], bleeds)

    def page_stream(self, code: bytes) -> bytes:
        """A page's content stream; the backs of a deck's full sheets are the same page over and over, and
        deflated once."""
        return self.streams.get(code) or keep(self.streams, code, stream(b"", code))

    def write_form(self, face: str) -> tuple[int, float, bytes, str]:
        form = self.drawings[face]
        if self.pdfx:
            form = self.pdfx.recolour_form(form.parsed())
        if form.record is not None:  # a checked record (FaceForm.placeable): copied without parsing
            known = self.heads.get(form.shape)
            if known is not None and known[1] == form.resolved_fonts:
                data, ids_at, text_at, _ = form.record
                self.shown.add(known[2], data[ids_at:text_at], data[text_at:form.record[3]])
                return self.form_entry(face, self.file.add_stream(known[0], form.content), known[3])
            form = form.parsed()  # the first of its shape, parsed to make the shape's head
        known = self.heads.get(form.shape)
        if (known is not None and known[1] == form.resolved_fonts and len(form.glyphs) == len(known[2])
                and not form.resolved_images and not form.groups and form.shared()):
            self.shown.merge()
            for glyphs, (ids, text) in zip(known[2], form.glyphs):
                glyphs.add(ids, text)
            return self.form_entry(face, self.file.add_stream(known[0], form.content), known[3])
        numbers = [b"%d" % self.use_font(name, ids, text) for name, (ids, text) in zip(form.resolved_fonts, form.glyphs)]
        if (form.shared() and not form.resolved_images and not form.groups
                and len(form.fonts) == len(numbers) == len(form.glyphs)):
            # the next forms of this shape with these fonts: only their number and content differ
            head = form_head(form, numbers + [b"\0"]).replace(b"%", b"%%").replace(b"\0", b"%d")
            self.heads[form.shape] = (b"%d 0 obj\n" + head + b"%s\nendstream\nendobj\n", form.resolved_fonts,
                                      [self.fonts[name] for name in form.resolved_fonts], float(form.width))
        numbers += [b"%d" % self.use_image(str(path)) for path in form.resolved_images]
        *groups, content = form.streams()
        space = b"/DeviceCMYK" if self.pdfx else b"/DeviceRGB"
        for index, piece in enumerate(groups):
            head = form_head(form, numbers + [b"%d" % len(piece)], index, space)
            numbers.append(b"%d" % self.file.add(head + piece + b"\nendstream"))
        body = form_head(form, numbers + [b"%d" % len(content)])
        return self.form_entry(face, self.file.add(body + content + b"\nendstream"), float(form.width))

    @staticmethod
    def form_entry(face: str, number: int, width: float) -> tuple[int, float, bytes, str]:
        name = "FormXob." + form_name(face)  # as reportlab names them
        return number, width, name.encode(), f" /{name} Do Q"

    def use_font(self, name: str, ids: bytes, text: str) -> int:
        """The font's Type0 object number; its subset will hold the glyphs of ids (2 bytes each), which stand
        for text's characters."""
        glyphs = self.fonts.get(name)
        if glyphs is None:
            glyphs = self.fonts[name] = Glyphs(self.file.reserve())
        self.shown.merge()
        glyphs.add(ids, text)
        return glyphs.number

    def use_image(self, path: str) -> int:
        if path not in self.images:
            objects = image_objects(path, self.file.reserve, self.pdfx.converter if self.pdfx else None)
            for number, body in objects:
                self.file.put(number, body)
            self.images[path] = objects[0][0]
        return self.images[path]

    def label_operators(self, label: str, x: float, y: float) -> tuple[str, int]:
        """The operators showing a page label, and the number of the font they show it in."""
        ids = font_named(self.label_font).file.glyph_ids(label)
        number = self.use_font(self.label_font, struct.pack(f">{len(ids)}H", *ids), label)
        shown = "<" + "".join(f"{gid:04x}" for gid in ids) + ">"
        return f"q {fp_str(*GREY)} rg BT /FL {LABEL_SIZE} Tf {fp_str(x, y)} Td {shown} Tj ET Q", number

    def write_fonts(self) -> None:
        self.shown.merge()
        for name, glyphs in self.fonts.items():
            objects = cid_font_objects(font_named(name).file, glyphs.used(), glyphs.number, self.file.reserve)
            for object_number, body in objects:
                self.file.put(object_number, body)


def keep(cache: dict, key, value):
    """value, kept under key in one of a document's caches of what its last pages share (a few at most)."""
    if len(cache) >= RECENT_PAGES:
        cache.clear()
    cache[key] = value
    return value


def recall(cache: dict, objects: tuple, make, *extra):
    """What make() gives for these objects (and extra), kept by their identity: full sheets of a component share
    their marks, slots, paper and boxes, and so what is written of them. The objects are kept so that no other
    object takes their ids."""
    key = (*map(id, objects), *extra)
    known = cache.get(key)
    if known is None or any(kept is not given for kept, given in zip(known[0], objects)):
        known = keep(cache, key, (objects, make()))
    return known[1]


def box(rect: Rect) -> bytes:
    return fp_str(rect.x0, rect.y0, rect.x1, rect.y1).encode("ascii")
