"""Turn a face's FaceArt into its form: PDF content naming glyphs by ID, the same bytes in every document.

Text is shown in 2-byte glyph IDs of the font file (Identity-H), so nothing in the content depends on
which other faces share the document: the writer copies the bytes and gives each form its resources.
The record keeps what those resources need: the fonts (by SVG selector and file digest), the glyphs each
shows with the text they stand for, the opacities and the images.
"""
from __future__ import annotations

import functools
import hashlib
import json
import struct
import zlib
from dataclasses import dataclass, field

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics

from .art import FaceArt, is_number
from .truetype import TrueTypeFile, open_truetype

MAGIC = b"pnpgen form 1\n"
HEAD = struct.Struct(">I")
MAX_CONTENT = 16 << 20  # a face's operators, inflated: far above any card, far below a zip bomb
# What form content may hold: numbers, names, operators, arrays and hex strings. No literal strings, no
# dictionaries, no inline data: a record read from the cache can only draw.
ALLOWED = bytes(sorted(set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .-*[]<>/\n")))


@dataclass
class FaceForm:
    """content: deflated operators in the face's box; fonts[i] is /Fi (an SVG selector), digests[i] its
    file's digest, glyphs[i] the glyphs it shows as [their IDs in ascending order, 4 hex digits each; the text
    each stands for, one character each ("\\0" for a missing one)]; states[i] is /Gi (["ca" or "CA", alpha]);
    images[i] is /Ii (an href relative to the project). resolved_* are filled by whoever reads the record."""

    width: float
    height: float
    content: bytes
    fonts: list = field(default_factory=list)
    digests: list = field(default_factory=list)
    glyphs: list = field(default_factory=list)
    states: list = field(default_factory=list)
    images: list = field(default_factory=list)
    resolved_fonts: list = field(default_factory=list, compare=False)
    resolved_images: list = field(default_factory=list, compare=False)

    def to_bytes(self) -> bytes:
        head = json.dumps({"width": self.width, "height": self.height, "fonts": self.fonts, "digests": self.digests,
                           "glyphs": self.glyphs, "states": self.states, "images": self.images},
                          ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return MAGIC + HEAD.pack(len(head)) + head + self.content

    @classmethod
    def from_bytes(cls, data: bytes, check: bool = True) -> "FaceForm":
        """Parse what to_bytes wrote; anything else raises ValueError. check=False for a record this process
        has already checked."""
        if not data.startswith(MAGIC) or len(data) < len(MAGIC) + HEAD.size:
            raise ValueError("not a form record")
        (length,) = HEAD.unpack_from(data, len(MAGIC))
        start = len(MAGIC) + HEAD.size
        try:
            head = json.loads(data[start:start + length].decode("utf-8"))
            form = cls(head["width"], head["height"], data[start + length:], head["fonts"], head["digests"],
                       head["glyphs"], head["states"], head["images"])
        except (KeyError, TypeError, ValueError, UnicodeDecodeError, RecursionError) as err:
            raise ValueError(f"not a form record ({type(err).__name__})") from None
        if check:
            check_form(form)
        return form


def glyph_ids(shown: list) -> tuple[int, ...]:
    """The glyph IDs of one font's entry in FaceForm.glyphs."""
    data = bytes.fromhex(shown[0])
    return struct.unpack(f">{len(data) // 2}H", data)


def check_form(form: FaceForm) -> None:
    """Refuse a record that is anything but drawing: ValueError."""
    if not (is_number(form.width) and is_number(form.height)):
        raise ValueError("bad size")
    lists = (form.fonts, form.digests, form.glyphs, form.states, form.images)
    if not all(isinstance(item, list) for item in lists) or not len(form.fonts) == len(form.digests) == len(form.glyphs):
        raise ValueError("bad record")
    if not all(isinstance(f, list) and len(f) == 3 and all(isinstance(v, str) for v in f) for f in form.fonts):
        raise ValueError("bad font")
    for shown in form.glyphs:
        if not (isinstance(shown, list) and len(shown) == 2 and isinstance(shown[0], str) and isinstance(shown[1], str)
                and len(shown[0]) == 4 * len(shown[1])):
            raise ValueError("bad glyphs")
        bytes.fromhex(shown[0])  # ValueError unless hex
    if not all(isinstance(s, list) and len(s) == 2 and s[0] in ("ca", "CA") and is_number(s[1]) and 0 <= s[1] <= 1
               for s in form.states):
        raise ValueError("bad opacity")
    if not all(isinstance(d, str) for d in form.digests + form.images):
        raise ValueError("bad names")
    inflater = zlib.decompressobj()
    try:
        content = inflater.decompress(form.content, MAX_CONTENT)
    except zlib.error:
        raise ValueError("bad content") from None
    if inflater.unconsumed_tail or not inflater.eof or content.translate(None, ALLOWED) or b"<<" in content:
        raise ValueError("bad content")


def encode_form(art: FaceArt) -> FaceForm:
    """The form of a face whose fonts and images are resolved (Converter.resolve)."""
    code: list[str] = []
    files = [font_file(name) for name in art.resolved_fonts]
    glyphs: list[dict[int, str]] = [{} for _ in files]
    states: dict[tuple, int] = {}
    for part in art.parts:
        if part.__class__ is str:
            code.append(part)
        elif part[0] == "T":
            index, text = part[1], part[3]
            font = files[index]
            ids = font.glyph_ids(text)
            shown = glyphs[index]
            for gid, char in zip(ids, text):
                shown.setdefault(gid, char if gid else "\0")
            code.append(f"/F{index} {fp_str(part[2])} Tf <{struct.pack(f'>{len(ids)}H', *ids).hex()}> Tj")
        elif part[0] == "I":
            code.append(f"q {fp_str(part[2], 0, 0, part[3], 0, 0)} cm /I{part[1]} Do Q")
        else:
            name = states.setdefault((part[1], part[2]), len(states))
            code.append(f"/G{name} gs")
    content = zlib.compress("\n".join(code).encode("latin-1"))
    return FaceForm(art.width, art.height, content, [list(f) for f in art.fonts],
                    [font_digest(name) for name in art.resolved_fonts],
                    [[struct.pack(f">{len(shown)}H", *sorted(shown)).hex(), "".join(shown[g] for g in sorted(shown))]
                     for shown in glyphs],
                    [list(state) for state in states], list(art.images), list(art.resolved_fonts),
                    list(art.resolved_images))


@functools.lru_cache(maxsize=64)
def font_file(name: str) -> TrueTypeFile:
    """The font file behind a registered reportlab font name (a name stands for one file in a process)."""
    face = pdfmetrics.getFont(name).face
    return open_truetype(face.filename, subfont_index(face))


@functools.lru_cache(maxsize=64)
def font_digest(name: str) -> str:
    """What a record's glyph IDs were taken from: a digest of the font's file and subfont (a changed file
    makes records made from the old one misses, not wrong glyphs)."""
    face = pdfmetrics.getFont(name).face
    hasher = hashlib.sha256(font_file(name).data)  # the file's bytes, already read: not read again
    hasher.update(str(subfont_index(face)).encode("ascii"))
    return hasher.hexdigest()[:32]


def subfont_index(face) -> int:
    """Which font of a collection (TTC) reportlab registered: it keeps only the "-N" it appends to names."""
    suffix = getattr(face, "subfontNameX", b"") or b""
    text = suffix.decode("ascii", "replace") if isinstance(suffix, bytes) else str(suffix)
    return int(text[1:]) if text[:1] == "-" and text[1:].isdigit() else 0
