"""Turn faces' forms into Form XObjects of a reportlab document (rulebook figures, proof sheets): the PDF
writer's own objects (forms, font subsets, images, shadings), numbered by reportlab as it writes."""
from __future__ import annotations

import weakref

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from ..faces.form import FaceForm
from .pdf_file import form_name
from .write_pdf import Document

_PLACERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # reportlab document -> its FormPlacer


class RawObject(pdfdoc.PDFObject):
    """An object whose body the PDF writer made; the font subsets are made when reportlab writes the first
    font object (all glyphs are known by then)."""

    def __init__(self, objects: "ReportlabObjects"):
        self.objects = objects
        self.body: bytes | None = None

    def format(self, document) -> bytes:
        if self.body is None:
            self.objects.finish()
        return self.body


class ReportlabObjects:
    """PdfFile's way of adding objects (reserve, put, add, add_stream), over a reportlab document."""

    def __init__(self, doc):
        self.doc = doc
        self.objects: dict[int, RawObject] = {}
        self.writer: Document | None = None
        self.finished = False

    def reserve(self) -> int:
        raw = RawObject(self)
        reference = self.doc.Reference(raw)
        number = self.doc.idToObjectNumberAndVersion[reference.name][0]
        self.objects[number] = raw
        return number

    def put(self, number: int, body: bytes) -> int:
        self.objects[number].body = body
        return number

    def add(self, body: bytes) -> int:
        return self.put(self.reserve(), body)

    def add_stream(self, template: bytes, data: bytes) -> int:
        number = self.reserve()
        text = template % (number, len(data), data)
        return self.put(number, text[text.index(b" obj\n") + 5:text.rindex(b"\nendobj")])

    def finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.writer.write_fonts()


class FormPlacer:
    """One reportlab document's faces: each form written once, under the name canvas.doForm takes."""

    def __init__(self, doc):
        self.objects = ReportlabObjects(doc)
        self.forms: dict[str, FaceForm] = {}
        self.writer = self.objects.writer = Document((), self.forms, "", file=self.objects)
        self.names: dict[str, str] = {}

    def name(self, key: str, form: FaceForm) -> str:
        if key not in self.names:
            self.forms[key] = form
            number = self.writer.write_form(key)[0]
            name = form_name(key)
            internal = pdfdoc.xObjectName(name)
            doc = self.objects.doc
            doc.idToObject[internal] = self.objects.objects[number]  # the same object, by the name pages use
            doc.idToObjectNumberAndVersion[internal] = (number, 0)
            self.names[key] = name
        return self.names[key]


def place_form(canvas: Canvas, key: str, form: FaceForm) -> None:
    """Show the face's form at the canvas's origin (its bottom-left corner), in the current state."""
    placer = _PLACERS.get(canvas._doc)
    if placer is None:
        placer = _PLACERS[canvas._doc] = FormPlacer(canvas._doc)
    canvas.doForm(placer.name(key, form))
