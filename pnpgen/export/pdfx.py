"""Turn a component's faces into the PDF/X a manufacturer's preflight accepts: the press chosen, what X-1a refuses."""
from __future__ import annotations

from PIL import Image

from ..errors import PnpError, Problem
from ..faces.cmyk import DEFAULT_PRESS, PRESSES, converter_for
from ..faces.form import FaceForm
from ..press.pdfx import VERSIONS, PdfX
from .pieces import ComponentFaces

NAMES = {"1a": "PDF/X-1a:2001", "4": "PDF/X-4"}


def refuse_bad_pdfx(pdfx: str | None, profile: str | None, kind: str) -> None:
    """--pdfx and --profile: only for shop, only known versions and presses."""
    if pdfx is None:
        if profile is not None:
            raise PnpError(f"--profile {profile}: it names the press a PDF/X is separated for; expected it only "
                           "with --pdfx")
        return
    if kind != "shop":
        raise PnpError(f"--pdfx {pdfx}: PDF/X is what print shops take; expected it only with shop")
    if pdfx not in VERSIONS:
        raise PnpError(f"--pdfx {pdfx}: expected 1a (PDF/X-1a:2001, the default) or 4 (PDF/X-4)")
    if profile is not None and profile not in PRESSES:
        known = "; ".join(f"{p.name} ({p.identifier})" for p in PRESSES.values())
        raise PnpError(f"--profile {profile}: no such press profile; expected one of: {known}")


def make_pdfx(pdfx: str, profile: str | None) -> PdfX:
    return PdfX(pdfx, converter_for(profile or DEFAULT_PRESS))


def describe(pdfx: PdfX) -> str:
    """"PDF/X-1a:2001 for FOGRA39", as a note says what was written."""
    return f"{NAMES[pdfx.version]} for {pdfx.converter.press.identifier}"


def refuse_transparency(faces: ComponentFaces, pdfx: PdfX) -> None:
    """PDF/X-1a has no transparency: every face that needs it, named by its template and card, all at once."""
    if pdfx.version != "1a":
        return
    problems, seen = [], set()
    for piece, side, key in faces.shown():
        if key in seen:
            continue
        seen.add(key)
        why = transparency_in(faces.forms[key])
        if why:
            template = faces.component.front if side == "front" else faces.component.back
            problems.append(Problem(piece.card.location, f"templates/{template} ({faces.component.id} "
                                    f"{piece.index}, {side}): {why}, which PDF/X-1a cannot hold; expected opaque "
                                    "colours and images, or --pdfx 4 (PDF/X-4 keeps transparency)"))
    if problems:
        raise PnpError(problems)


def transparency_in(form: FaceForm) -> str | None:
    """What of a face needs transparency, or None."""
    for key, value in form.states:
        if key == "SMask":
            return "a gradient whose stops fade (stop-opacity)"
        if value < 1:
            return f"opacity {value:g}"
    if form.groups:
        return "a group's opacity"
    for href, path in zip(form.images, form.resolved_images):
        with Image.open(path) as image:
            if "A" in image.getbands() or "transparency" in image.info:
                if image.convert("RGBA").getchannel("A").getextrema() != (255, 255):
                    return f"an image with transparent pixels ({href})"
    return None
