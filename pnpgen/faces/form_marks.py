"""Turn a face's form, as the face store keeps it, into marks: what a build inspects without rendering again.

A form holds no SVG, so its marks name no element (source is None): a build says which component a flaw
is on, and `pnpgen preflight` (which renders the faces) says at which template line. The form's content is
read with the same reader as the painter's steps (marking.py), its text shown in glyph IDs measured in the
fonts the form resolved, its images, gradients and groups named by its resources.
"""
from __future__ import annotations

import struct
import zlib

from .font import font_named
from .form import FaceForm
from .marking import Graphics, Mark, MarkReader

MM_PER_POINT = 25.4 / 72


def form_marks(form: FaceForm, bleed_mm: float) -> list[Mark]:
    """The marks of a form painted for a face with that bleed (its box starts bleed_mm before the trim)."""
    form = form.parsed()
    reader = FormReader(form, (-bleed_mm, -bleed_mm, MM_PER_POINT, MM_PER_POINT, form.height))
    streams = [zlib.decompress(piece).decode("latin-1") for piece in form.streams()]
    reader.groups = streams[:-1]
    reader.read([streams[-1]], Graphics())
    return reader.marks


class FormReader(MarkReader):
    """MarkReader for form content: Tf and Tj show text, Do an image or a group, sh a gradient, gs an opacity."""

    def __init__(self, form: FaceForm, frame: tuple):
        super().__init__(None, frame)
        self.form = form
        self.groups: list[str] = []
        self.font, self.size = 0, 0.0
        self.chars = [dict(zip(struct.unpack(f">{len(ids) // 2}H", ids), text)) for ids, text in form.glyphs]

    def operate(self, token: str, operands: list, state: Graphics) -> None:
        name = self.pending[0] if self.pending else ""
        if token == "Tf" and name.startswith("/F") and operands:
            self.font, self.size = int(name[2:]), operands[-1]
        elif token == "Tj" and name.startswith("<"):
            self.show(bytes.fromhex(name.strip("<>")), state)
        elif token == "Do" and name.startswith("/X"):
            self.read([self.groups[int(name[2:])]], Graphics(**vars(state)))
        elif token == "Do" and name.startswith("/I"):
            self.read_special(["I", int(name[2:]), 1.0, 1.0], state)
        elif token == "sh" and name.startswith("/Sh"):
            self.read_special(["S", int(name[3:])], state)
        elif token == "gs" and name.startswith("/G"):
            kind, value = self.form.states[int(name[2:])]
            if kind in ("ca", "CA"):
                self.read_special(["A", kind, value], state)

    def show(self, shown: bytes, state: Graphics) -> None:
        font = font_named(self.form.resolved_fonts[self.font])
        ids = struct.unpack(f">{len(shown) // 2}H", shown)
        chars, advances = self.chars[self.font], font.file.advances
        text = "".join([chars.get(gid, "") for gid in ids])
        width = 0.001 * self.size * sum([advances[gid] for gid in ids])
        self.keep_text(font, self.size, text, width, state)

    def image_href(self, index: int) -> str:
        return self.form.images[index]

    def shading_record(self, index: int) -> list:
        return list(self.form.shadings[index])
