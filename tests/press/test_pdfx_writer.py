"""The one writer in CMYK for a press: crop marks in registration colour (the All separation), a page label
separated like the art, and the same bytes as ever when no PDF/X is asked for."""
import io
import re
import zlib

import pikepdf
from reportlab.lib.rl_accel import fp_str

from pnpgen import units
from pnpgen.faces.cmyk import converter_for
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.press.impose import Page, Placement
from pnpgen.press.marks import Mark, Rect
from pnpgen.press.pdfx import PdfX
from pnpgen.press.write_pdf import pdf_bytes
from pnpgen.project.model import Size

from painted import painted

FACE = units.mm(20)


def marked_document(pdfx: PdfX | None) -> bytes:
    """A sheet with one face and a crop mark on either side of it, outside its bleed."""
    form = painted(FACE, FACE, f'<rect width="{FACE}" height="{FACE}" fill="#b3262d"/>')
    placement = Placement("face", x=100, y=100, width=FACE, height=FACE, clip=Rect(100, 100, 100 + FACE, 100 + FACE))
    marks = (Mark("crop", (80, 100, 90, 100)), Mark("crop", (100 + FACE + 10, 100, 100 + FACE + 20, 100)))
    page = Page(Size(300, 300), "front", (placement,), marks, Rect(100, 100, 100 + FACE, 100 + FACE),
                Rect(100, 100, 100 + FACE, 100 + FACE), label="sheet 1")
    return pdf_bytes([page], {"face": form}, title="t", initial_font=FontBook([BUNDLED_FONTS]).resolve(None), bleed=0,
                     pdfx=pdfx)


def page_content(data: bytes) -> str:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return pdf.pages[0].obj.Contents.read_bytes().decode("latin-1")


def test_marks_are_in_registration_colour():
    data = marked_document(PdfX("1a", converter_for()))
    content = page_content(data)
    assert "RG" not in content and " rg" not in content
    # the white halo under the line takes every plate's ink away, the line puts it on every plate
    assert re.search(r"/Reg CS 0 SCN 1\.2 w .* S /Reg CS 1 SCN \.25 w .* S", content)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        space = pdf.pages[0].Resources.ColorSpace.Reg
        assert [str(space[0]), str(space[1]), str(space[2])] == ["/Separation", "/All", "/DeviceCMYK"]
        assert list(space[3].C1) == [1, 1, 1, 1] and list(space[3].C0) == [0, 0, 0, 0]


def test_the_label_is_separated_like_the_art():
    content = page_content(marked_document(PdfX("4", converter_for())))
    grey = converter_for().to_cmyk((0.5, 0.5, 0.5))
    assert f"q {fp_str(*grey)} k BT /FL" in content


def test_without_pdfx_the_writer_writes_rgb_as_ever():
    data = marked_document(None)
    assert data.startswith(b"%PDF-1.4\n") and b"OutputIntents" not in data and b"/Separation" not in data
    assert "1 1 1 RG" in page_content(data)
    forms = re.findall(rb"/Subtype /Form.*?stream\n(.*?)\nendstream", data, re.S)
    assert forms and b" rg" in zlib.decompress(forms[0])
