"""Turn a text() call's arguments into its fitted SVG, remembered by content in this build and in the face store."""
from __future__ import annotations

import hashlib
from pathlib import Path

from markupsafe import Markup

from .._version import __version__
from ..digests import feed_digest
from ..store.pack import FacePack
from .fonts import FontBook
from .hyphenate import hyphenation_inputs
from .icons import IconSet
from .inputs import fonts_digest
from .reuse import Bounded
from .text import fit_text

FITTED = b"T"  # the kind of a face store record holding a text() call's fitted SVG
PLAIN = frozenset((str, int, float, bool, type(None)))  # types whose repr names a value run to run (not a subclass)


class TextFitter:
    """fit_text's SVG for text() arguments. Refitting the same text in the same box with the same fonts gives the
    same SVG, so a template edit that moves no text refits none: the SVG is kept in the face store under the
    digest of everything it is fitted from (record_key). A record whose checksum does not hold is a miss
    (store/pack.py): the text is fitted again."""

    def __init__(self, root: Path, default_font: str, fontbook: FontBook, icons: IconSet, pack: FacePack | None,
                 memo: int = 1024, language: str | None = None):
        """memo: how many results this process holds at most; language: the edition's (it decides hyphenation)."""
        self.root, self.default_font, self.fontbook, self.icons, self.pack = root, default_font, fontbook, icons, pack
        self.language = language
        self.fitted: dict[tuple, tuple[Markup, bytes | None]] = Bounded(memo)  # arguments -> (SVG, its record's key)
        self.asked: list[bytes] | None = None  # while a face renders: the record keys of its text() calls
        self.prefix = None  # the hasher fed what every record key starts with (made when first needed)

    def fit(self, content: str, x, y, w, h, options: dict) -> Markup:
        """The <text> (and icon) SVG of content fitted into the box; TextDoesNotFit as fit_text raises it."""
        key = (content, x, y, w, h, tuple(sorted(options.items())))
        try:
            found = self.fitted.get(key)
        except TypeError:  # an unhashable option: fit it, and let fit_text say what is wrong with it
            return self.fit_now(content, x, y, w, h, options)
        if found is None:
            record = self.record_key(key) if self.pack is not None else None
            svg = self.stored(record) if record is not None else None
            if svg is None:
                svg = self.fit_now(content, x, y, w, h, options)
                if record is not None:
                    self.pack.put(FITTED, record, svg.encode("utf-8"))
            found = self.fitted.keep(key, (svg, bytes.fromhex(record) if record is not None else None))
        if self.asked is not None and found[1] is not None:
            self.asked.append(found[1])
        return found[0]

    def fit_now(self, content: str, x, y, w, h, options: dict) -> Markup:
        return Markup(fit_text(content, float(x), float(y), float(w), float(h), fontbook=self.fontbook,
                               icons=self.icons.fragments, language=self.language, **options).to_svg())

    def stored(self, record: str) -> Markup | None:
        """The SVG a record holds, None for a miss (no record, one that does not check, or not UTF-8 text)."""
        payload = self.pack.get(FITTED, record)
        if payload is None:
            return None
        try:
            return Markup(payload.decode("utf-8"))
        except UnicodeDecodeError:
            return None

    def record_key(self, key: tuple) -> str | None:
        """The digest naming the record of these arguments; None for arguments without a stable repr (they are
        fitted each time)."""
        _, x, y, w, h, options = key
        if not all(type(value) in PLAIN for value in (x, y, w, h, *dict(options).values())):
            return None
        if self.prefix is None:
            icons = tuple(sorted(self.icons.fragments.items()))
            self.prefix = feed_digest(hashlib.sha256(), "text()", __version__, fonts_digest(self.root),
                                      self.default_font, icons, self.language, *hyphenation_inputs(self.language))
        return feed_digest(self.prefix.copy(), key).hexdigest()

