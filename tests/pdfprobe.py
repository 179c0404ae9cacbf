"""Read what a PDF page (or a painted face) really holds: form placements, line segments, fonts, strings."""
from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen import units
from pnpgen.faces.form import glyph_ids


@dataclass(frozen=True)
class Drawn:
    form: str
    x_mm: float  # origin of the form (the bleed box's bottom-left corner) in page millimetres
    y_mm: float


def multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def walk(reader: PdfReader, page):
    """Yield (operator, operands, ctm) for every operation of the page's own content stream."""
    stack, ctm = [], (1, 0, 0, 1, 0, 0)
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            ctm = multiply(tuple(float(v) for v in operands), ctm)
        yield operator, operands, ctm


def drawn_forms(reader: PdfReader, page) -> list[Drawn]:
    return [Drawn(str(ops[0])[1:].removeprefix("FormXob."), round(units.to_mm(ctm[4]), 3), round(units.to_mm(ctm[5]), 3))
            for op, ops, ctm in walk(reader, page) if op == b"Do"]


def segments(reader: PdfReader, page) -> list[tuple[float, float, float, float]]:
    """Straight line segments (m … l) in page millimetres."""
    out, start = [], None
    for op, ops, ctm in walk(reader, page):
        if op in (b"m", b"l"):
            x, y = float(ops[0]), float(ops[1])
            px = units.to_mm(ctm[0] * x + ctm[2] * y + ctm[4])
            py = units.to_mm(ctm[1] * x + ctm[3] * y + ctm[5])
            if op == b"l" and start is not None:
                out.append((start[0], start[1], px, py))
            start = (px, py)
    return out


def fonts(reader: PdfReader) -> list[dict]:
    """Every font dictionary reachable from the pages (form XObjects included)."""
    found, seen = [], set()

    def visit(resources):
        if not resources:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            if id(font) not in seen:
                seen.add(id(font))
                found.append(font)
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                visit(xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


def font_is_embedded_subset(font: dict) -> bool:
    name = str(font["/BaseFont"])[1:]
    prefix, _, rest = name.partition("+")
    descendants = font.get("/DescendantFonts")
    target = descendants[0].get_object() if descendants else font
    descriptor = target.get("/FontDescriptor")
    embedded = descriptor is not None and any(k in descriptor.get_object() for k in ("/FontFile2", "/FontFile", "/FontFile3"))
    return bool(rest) and len(prefix) == 6 and prefix.isupper() and embedded


@dataclass(frozen=True)
class Shown:
    font: str  # the reportlab font name the converter resolved
    size: float
    text: str
    x: float  # where its Tm puts it, in the face's SVG units
    y: float


def strings(form):
    """Every text a painted face (its FaceForm) shows, read back from its glyph IDs, with the position its text
    matrix gives it."""
    chars = [dict(zip(glyph_ids(shown), shown[1])) for shown in form.glyphs]
    x = y = 0.0
    for stream in form.streams():
        code = zlib.decompress(stream).decode("latin-1")
        for found in re.finditer(r"BT 1 0 0 -1 (\S+) (\S+) Tm|/F(\d+) (\S+) Tf <([0-9a-f]*)> Tj", code):
            if found.group(1) is not None:
                x, y = float(found.group(1)), float(found.group(2))
                continue
            font, ids = int(found.group(3)), bytes.fromhex(found.group(5))
            text = "".join(chars[font][gid] for gid in struct.unpack(f">{len(ids) // 2}H", ids))
            yield Shown(form.resolved_fonts[font], float(found.group(4)), text, x, y)


@dataclass(frozen=True)
class Path:
    """A path the page painted or clipped with: its subpaths as point lists in page millimetres."""

    use: str  # stroke | fill | clip
    dashed: bool
    subpaths: tuple[tuple[tuple[float, float], ...], ...]

    def segments(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        return [(a, b) for sub in self.subpaths for a, b in zip(sub, sub[1:])]


def paths(reader: PdfReader, page) -> list[Path]:
    """Every straight-edged path of the page's own content stream (curves count by their end points)."""
    found, subpaths, dash, dash_stack = [], [], False, []
    for op, ops, ctm in walk(reader, page):
        if op == b"q":
            dash_stack.append(dash)
        elif op == b"Q":
            dash = dash_stack.pop()
        elif op == b"d":
            dash = bool(ops[0])
        elif op in (b"m", b"l", b"c"):
            x, y = float(ops[-2]), float(ops[-1])
            point = (units.to_mm(ctm[0] * x + ctm[2] * y + ctm[4]), units.to_mm(ctm[1] * x + ctm[3] * y + ctm[5]))
            if op == b"m":
                subpaths.append([point])
            else:
                subpaths[-1].append(point)
        elif op == b"h" and subpaths:
            subpaths[-1].append(subpaths[-1][0])
        elif op == b"re":
            x, y, w, h = (float(v) for v in ops)
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
            subpaths.append([(units.to_mm(ctm[0] * a + ctm[2] * b + ctm[4]), units.to_mm(ctm[1] * a + ctm[3] * b + ctm[5]))
                             for a, b in corners])
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"b", b"W", b"W*", b"n"):
            if op in (b"W", b"W*"):
                found.append(Path("clip", dash, tuple(tuple(s) for s in subpaths)))
            elif op != b"n":
                found.append(Path("stroke" if op in (b"S", b"s") else "fill", dash, tuple(tuple(s) for s in subpaths)))
            if op != b"W" and op != b"W*":
                subpaths = []
    return found


def clipped_forms(reader: PdfReader, page) -> list[tuple[Drawn, Path, tuple]]:
    """Each form the page draws, the clip path it is drawn through, and its matrix (page points)."""
    out = []
    for op, ops, ctm in walk(reader, page):
        if op == b"Do":
            out.append((Drawn(str(ops[0])[1:].removeprefix("FormXob."), round(units.to_mm(ctm[4]), 3),
                              round(units.to_mm(ctm[5]), 3)), ctm))
    clips = [p for p in paths(reader, page) if p.use == "clip"]
    return [(drawn, clip_path, ctm) for (drawn, ctm), clip_path in zip(out, clips)]


@dataclass(frozen=True)
class Clipped:
    """A face drawn on a page: its form's box and the clip rectangle around it, in page millimetres."""

    form: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the form's bounding box as placed
    clip: tuple[float, float, float, float]


def clipped_boxes(reader: PdfReader, page) -> list[Clipped]:
    """Every form drawn on the page with the clip rectangle (`re W n`) in force when it was drawn."""
    found, clips, pending = [], [None], None
    forms = (page.get("/Resources") or {}).get("/XObject") or {}
    for op, ops, ctm in walk(reader, page):
        if op == b"q":
            clips.append(clips[-1])
        elif op == b"Q":
            clips.pop()
        elif op == b"re":
            x, y, w, h = (float(v) for v in ops)
            pending = tuple(round(units.to_mm(v), 4) for v in (ctm[4] + x, ctm[5] + y, ctm[4] + x + w, ctm[5] + y + h))
        elif op == b"W":
            clips[-1] = pending
        elif op == b"Do":
            bbox = [float(v) for v in forms[ops[0]].get_object()["/BBox"]]
            box = tuple(round(units.to_mm(v), 4) for v in (ctm[4] + bbox[0], ctm[5] + bbox[1], ctm[4] + bbox[2], ctm[5] + bbox[3]))
            found.append(Clipped(str(ops[0]), box, clips[-1]))
    return found


def form_digests(page) -> set[str]:
    """The SHA-256 of each form a page places (by content, so the same face is the same digest in any PDF)."""
    import hashlib

    objects = page.get("/Resources", {}).get("/XObject", {})
    return {hashlib.sha256(objects[name].get_object().get_data()).hexdigest() for name in objects}


def sheet_sides(game_folder, two_sided) -> list[str]:
    """Each page of a game's print-and-play PDF as "front", "back" or "blank": a back places only faces that
    the PDFs of the components with backs (ids in two_sided; their pages alternate front, back) place on back
    pages."""
    from pathlib import Path

    from pypdf import PdfReader

    folder = Path(game_folder)
    combined = folder / f"{folder.name}-print-and-play.pdf"
    fronts, backs = set(), set()
    for pdf in sorted(set(folder.glob("*.pdf")) - {combined}):
        for number, page in enumerate(PdfReader(pdf).pages):
            (backs if pdf.stem in two_sided and number % 2 else fronts).update(form_digests(page))
    sides = []
    for page in PdfReader(combined).pages:
        shown = form_digests(page)
        sides.append("blank" if not shown else "back" if shown <= backs - fronts else "front")
    return sides
