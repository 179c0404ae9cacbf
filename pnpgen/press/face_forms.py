"""Turn a face's FaceArt into PDF content: its operators with this document's fonts, images and opacities."""
from __future__ import annotations

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..faces.art import FaceArt


def encode_art(canvas: Canvas, art: FaceArt, states: dict) -> list[str]:
    """A face's operators, with its text encoded in this document's font subsets, its images as this
    document's shared XObjects and its opacities as graphics states (name -> entry, filled in states)."""
    code, doc = [], canvas._doc
    for part in art.parts:
        if part.__class__ is str:
            code.append(part)
        elif part[0] == "T":
            font = pdfmetrics.getFont(art.resolved_fonts[part[1]])
            size = fp_str(part[2])
            code.append(" ".join(f"{font.getSubsetInternalName(subset, doc)} {size} Tf ({escapePDF(chunk)}) Tj"
                                 for subset, chunk in font.splitString(part[3], doc)))
        elif part[0] == "I":
            saved, canvas._code = canvas._code, code
            try:
                canvas.drawImage(str(art.resolved_images[part[1]]), 0, 0, part[2], part[3], mask="auto")
            finally:
                canvas._code = saved
        else:
            shared = canvas._extgstate._c  # reportlab writes these into the resources of pages and its forms
            name = shared.setdefault((part[1], part[2]), f"gRLs{len(shared)}")
            states[name] = (part[1], part[2])
            code.append(f"/{name} gs")
    return code


class CompressedForm(pdfdoc.PDFObject):
    """A face's Form XObject, compressed when defined: formatting it at save time is one join, not the
    generic dictionary walk (which took more time than drawing), and memory holds only the compressed bytes."""

    def __init__(self, data: bytes, width: float, height: float, states: dict):
        self.data, self.width, self.height, self.states = data, width, height, states

    def format(self, document) -> bytes:
        fonts = pdfdoc.format(pdfdoc.PDFObjectReference(pdfdoc.BasicFonts), document)
        states = "".join(f"/{name} << /{key} {fp_str(value)} >> " for name, (key, value) in sorted(self.states.items()))
        resources = (b"<< " + (f"/ExtGState << {states}>> ".encode("ascii") if states else b"") + b"/Font " + fonts
                     + b" /ProcSet [ /PDF /Text ] >>")
        head = (f"<< /BBox [ 0 0 {fp_str(self.width)} {fp_str(self.height)} ] /Filter [ /FlateDecode ] /FormType 1 "
                f"/Length {len(self.data)} /Matrix [ 1 0 0 1 0 0 ] /Resources ").encode("ascii")
        return head + resources + b" /Subtype /Form /Type /XObject >>\nstream\n" + self.data + b"\nendstream\n"


def declare_form_resources(canvas: Canvas, name: str, shadings: dict | None = None) -> None:
    """Give the form the graphics states (opacity) and shadings (gradients) it uses: reportlab records them
    but does not write them into a form's resources, so viewers paint the form's gradients black."""
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    if not form.ExtGState and not shadings:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if form.ExtGState:
        resources.ExtGState = form.ExtGState
    if shadings:
        resources.setShading(shadings)
    form.Resources = resources
