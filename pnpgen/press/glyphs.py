"""Turn the glyphs a PDF's forms show (packed glyph IDs and the text they stand for) into each font's map."""
from __future__ import annotations

import struct


class Glyphs:
    """The glyphs a document shows in one font, with the text each stands for (the last text given wins):
    added as each form's packed IDs and text, merged in bulk, a batch at a time."""

    BATCH = 256

    def __init__(self, number: int):
        self.number = number  # the Type0 font's object number
        self.mapping: dict[int, str] = {}
        self.ids: list[bytes] = []
        self.texts: list[str] = []

    def add(self, ids: bytes, text: str) -> None:
        if len(ids) != 2 * len(text):  # pairs, as zip makes them: an uneven entry must not shift the next
            count = min(len(ids) // 2, len(text))
            ids, text = ids[:2 * count], text[:count]
        self.ids.append(ids)
        self.texts.append(text)
        if len(self.ids) >= self.BATCH:
            self.merge()

    def merge(self) -> None:
        ids = b"".join(self.ids)
        self.mapping.update(zip(struct.unpack(f">{len(ids) // 2}H", ids), "".join(self.texts)))
        self.ids, self.texts = [], []

    def used(self) -> dict[int, str]:
        """Glyph ID -> text; .notdef (0, a character the font lacks) stands for no text."""
        self.merge()
        if 0 in self.mapping:
            self.mapping[0] = ""
        return self.mapping


class Shown:
    """The glyphs of form records copied as they are (faces/form.py: each font's count and IDs, then all
    their text), kept as those bytes and merged into their fonts' Glyphs a batch at a time, in order with
    what is added to those directly (which merge() first)."""

    def __init__(self, fonts: dict[str, Glyphs]):
        self.fonts = fonts  # every Glyphs of the document, by font name
        self.targets: list[list[Glyphs]] = []  # per record: its fonts' Glyphs
        self.ids: list[bytes] = []  # per record: its ID block
        self.texts: list[bytes] = []  # per record: its text, UTF-8

    def add(self, fonts: list[Glyphs], ids: bytes, text: bytes) -> None:
        self.targets.append(fonts)
        self.ids.append(ids)
        self.texts.append(text)
        if len(self.targets) >= Glyphs.BATCH:
            self.merge()

    def merge(self) -> None:
        """Merge the glyphs of the records copied since the last call into their fonts' Glyphs, after those
        the Glyphs hold already (the last text given for a glyph wins): all records' IDs unpacked at once."""
        if not self.targets:
            return
        for glyphs in self.fonts.values():
            glyphs.merge()
        ids = b"".join(self.ids)
        text = b"".join(self.texts).decode("utf-8", "replace")
        units = struct.unpack_from(f">{len(ids) // 2}H", ids)  # a font's block: its count (2 units), its IDs
        at = chars = 0
        try:
            for fonts in self.targets:
                for glyphs in fonts:
                    count = units[at] << 16 | units[at + 1]
                    at += 2
                    glyphs.mapping.update(zip(units[at:at + count], text[chars:chars + count]))
                    at += count
                    chars += count
        except IndexError:  # records are checked ones (made or checked by this machine): cannot happen
            pass
        self.targets, self.ids, self.texts = [], [], []
