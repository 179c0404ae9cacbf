"""Turn a face's form into its record and back: PDF content naming glyphs by ID, the same bytes in every document.

Text is shown in 2-byte glyph IDs of the font file (Identity-H), so nothing in the content depends on which
other faces share the document: the writer copies the bytes and gives each form the resources its record
names. What the faces of one template share (the shape) is read and checked once per distinct bytes.
"""
from __future__ import annotations

import functools
import json
import math
import re
import struct
import zlib
from dataclasses import dataclass, field


MAGIC = b"pnpgen form 3\n"
HEAD = struct.Struct(">III")  # the lengths of the shape (JSON), the glyph IDs and the text they stand for
COUNT = struct.Struct(">I")  # how many glyphs a font shows, before their IDs
MAX_CONTENT = 16 << 20  # a face's operators, inflated: far above any card, far below a zip bomb
# What form content may hold: numbers, names, operators, arrays and hex strings. No literal strings, no
# dictionaries, no inline data: a record read from the cache can only draw.
ALLOWED = bytes(sorted(set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .-*[]<>/\n")))
SHARED = ("width", "height", "fonts", "digests", "states", "images", "shadings", "groups", "inks")  # a Shape's, a form's


@dataclass(frozen=True, eq=False)
class Shape:
    """A form's size, fonts (SVG selectors), their files' digests, opacities and images, as one record
    holds them (data); forms of one template share one Shape, so readers key what they derive on it."""

    data: bytes
    width: float
    height: float
    fonts: tuple
    digests: tuple
    states: tuple
    images: tuple
    shadings: tuple = ()
    groups: tuple = ()
    inks: tuple = ()


@dataclass(slots=True)
class FaceForm:
    """A face as the painter makes it, the face store keeps it and the writer places it.

    content: deflated operators in the face's box (points, origin bottom-left); fonts[i] is /Fi (an SVG
    selector), digests[i] its file's digest, glyphs[i] the glyphs it shows as (their IDs, 2 bytes each,
    big-endian; the text each stands for, one character each ("\\0" for a missing one)); states[i] is /Gi
    (("ca" or "CA", alpha), or ("SMask", group)); images[i] is /Ii (an href relative to the project);
    shadings[i] is /Shi (see valid_shading); groups[i] is /Xi, a transparency group sharing the form's
    resources, whose deflated content is groups[i] bytes of content's end (the groups in order, after the
    form's own). shape: what those fields were read from (None when they were replaced since).
    resolved_fonts are the reportlab fonts the selectors resolved to, resolved_images the image files the
    hrefs did: filled by whoever paints or reads the form. least: what the painter knew of the smallest sizes
    it showed (Painter.least_sizes), None for a form read from a record."""

    width: float
    height: float
    content: bytes
    fonts: tuple = ()
    digests: tuple = ()
    glyphs: list = field(default_factory=list)
    states: tuple = ()
    images: tuple = ()
    shadings: tuple = ()
    groups: tuple = ()
    resolved_fonts: tuple = field(default=(), compare=False)
    resolved_images: list = field(default_factory=list, compare=False)
    shape: Shape | None = field(default=None, compare=False, repr=False)
    record: tuple | None = field(default=None, compare=False, repr=False)  # see placeable
    # the colours a template gave in CMYK: [its fill or stroke operands as the content shows them, c, m, y, k]
    inks: tuple = ()
    least: tuple | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_shape(cls, shape: Shape, content: bytes, glyphs: list, **more) -> "FaceForm":
        """A form whose size, fonts, digests, opacities, images, shadings and groups are shape's."""
        return cls(content=content, glyphs=glyphs, shape=shape, **{name: getattr(shape, name) for name in SHARED},
                   **more)

    def shared(self) -> Shape | None:
        """The shape this form's fields are, if they were not replaced since it was read or made."""
        shape = self.shape
        same = shape is not None and all(getattr(shape, name) == getattr(self, name) for name in SHARED)
        return shape if same else None

    def streams(self) -> list[bytes]:
        """The deflated contents of the groups, in order, then the form's own."""
        pieces, end = [], len(self.content) - sum(self.groups)
        for length in self.groups:
            pieces.append(self.content[end:end + length])
            end += length
        return pieces + [self.content[:len(self.content) - sum(self.groups)]]

    def to_bytes(self) -> bytes:
        shape = self.shared() or shape_of(*(getattr(self, name) for name in SHARED))
        ids = b"".join(COUNT.pack(len(gids) // 2) + gids for gids, _ in self.glyphs)
        text = "".join(chars for _, chars in self.glyphs).encode("utf-8")
        return MAGIC + HEAD.pack(len(shape.data), len(ids), len(text)) + shape.data + ids + text + self.content

    @classmethod
    def placeable(cls, data: bytes) -> "FaceForm":
        """A record this process has checked, as the writer copies it: its shape and content, its glyphs left
        unparsed in record (the record, where its glyph IDs and their text start). ValueError for one with
        images or groups (from_bytes reads those)."""
        shape, ids_at, text_at, content_at = locate_parts(data)
        if shape.images or shape.groups:
            raise ValueError("not placeable as it is")
        return cls.of_shape(shape, data[content_at:], [], record=(data, ids_at, text_at, content_at))

    def parsed(self) -> "FaceForm":
        """This form with its glyphs read (a placeable one's are left in its record)."""
        if self.record is None:
            return self
        form = FaceForm.from_bytes(self.record[0], check=False)
        form.resolved_fonts = self.resolved_fonts
        return form

    @classmethod
    def from_bytes(cls, data: bytes, check: bool = True) -> "FaceForm":
        """Parse what to_bytes wrote; anything else raises ValueError. check=False for a record this process
        has already checked (its shape and glyph lists are parsed, and so checked, all the same)."""
        shape, ids_at, text_at, content_at = locate_parts(data)
        try:
            glyphs = split_glyphs(data[ids_at:text_at], data[text_at:content_at].decode("utf-8"), len(shape.fonts))
        except (struct.error, UnicodeDecodeError):
            raise ValueError("bad glyphs") from None
        form = cls.of_shape(shape, data[content_at:], glyphs)
        if check:
            check_form(form)
        return form


def locate_parts(data: bytes) -> tuple[Shape, int, int, int]:
    """A form record's shape (checked as read_shape does) and where its glyph IDs, their text and its content
    start; ValueError for anything to_bytes did not write."""
    start = len(MAGIC) + HEAD.size
    if not data.startswith(MAGIC) or len(data) < start:
        raise ValueError("not a form record")
    lengths = HEAD.unpack_from(data, len(MAGIC))
    ids_at = start + lengths[0]
    text_at = ids_at + lengths[1]
    content_at = text_at + lengths[2]
    if content_at > len(data):
        raise ValueError("not a form record")
    return read_shape(data[start:ids_at]), ids_at, text_at, content_at


def split_glyphs(ids: bytes, text: str, fonts: int) -> list[tuple[bytes, str]]:
    """Each font's (glyph IDs, text) from a record's ID block (count, IDs; per font) and its text."""
    glyphs, at, chars = [], 0, 0
    for _ in range(fonts):
        (count,) = COUNT.unpack_from(ids, at)
        at += COUNT.size
        glyphs.append((ids[at:at + 2 * count], text[chars:chars + count]))
        at += 2 * count
        chars += count
    if at != len(ids) or chars != len(text):
        raise ValueError("bad glyphs")
    return glyphs


@functools.lru_cache(maxsize=256)
def read_shape(data: bytes) -> Shape:
    """The shape a record's JSON describes, checked to be only numbers and names; anything else ValueError."""
    try:
        head = json.loads(data.decode("utf-8"))
        shape = Shape(data, head["width"], head["height"], tuple(tuple(f) for f in head["fonts"]),
                      tuple(head["digests"]), tuple(tuple(s) for s in head["states"]), tuple(head["images"]),
                      tuple(head["shadings"]), tuple(head["groups"]), tuple(tuple(i) for i in head.get("inks", ())))
    except (KeyError, TypeError, ValueError, UnicodeDecodeError, RecursionError) as err:
        raise ValueError(f"not a form record ({type(err).__name__})") from None
    if not (is_number(shape.width) and is_number(shape.height) and len(shape.fonts) == len(shape.digests)
            and all(len(f) == 3 and all(isinstance(v, str) for v in f) for f in shape.fonts)
            and all(len(s) == 2 and ((s[0] in ("ca", "CA") and is_number(s[1]) and 0 <= s[1] <= 1)
                                     or (s[0] == "SMask" and type(s[1]) is int and 0 <= s[1] < len(shape.groups)))
                    for s in shape.states)
            and all(isinstance(d, str) for d in shape.digests + shape.images)
            and all(valid_shading(s) for s in shape.shadings)
            and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape.groups)):
        raise ValueError("not a form record (a size, font, opacity, name, shading or group of another kind)")
    if not all(len(i) == 5 and isinstance(i[0], str) and re.fullmatch(r"[-0-9. ]{1,40}", i[0])
               and all(is_number(v) and 0 <= v <= 1 for v in i[1:]) for i in shape.inks):
        raise ValueError("bad inks")
    return shape


def shape_of(width: float, height: float, fonts, digests, states, images, shadings=(), groups=(), inks=()) -> Shape:
    head = {"width": width, "height": height, "fonts": fonts, "digests": digests, "states": states, "images": images,
            "shadings": shadings, "groups": groups}
    if inks:  # only a face with CMYK colours has them: every other record is as it always was
        head["inks"] = [list(i) for i in inks]
    return read_shape(json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def valid_shading(record) -> bool:
    """[2 (axial) or 3 (radial), coords (4 or 6 numbers), stops ([offset, r, g, b], offsets rising from 0 to 1)]."""
    if not (isinstance(record, list) and len(record) == 3 and record[0] in (2, 3) and isinstance(record[1], list)
            and len(record[1]) == (4 if record[0] == 2 else 6) and all(is_number(c) for c in record[1])
            and isinstance(record[2], list) and len(record[2]) >= 2):
        return False
    stops = record[2]
    return (all(isinstance(s, list) and len(s) == 4 and all(is_number(v) and 0 <= v <= 1 for v in s) for s in stops)
            and all(a[0] <= b[0] for a, b in zip(stops, stops[1:])))


def glyph_ids(shown: tuple[bytes, str]) -> tuple[int, ...]:
    """The glyph IDs of one font's entry in FaceForm.glyphs."""
    return struct.unpack(f">{len(shown[0]) // 2}H", shown[0])


def glyphs_fit(glyphs: list[tuple[bytes, str]], counts: list[int]) -> bool:
    """Whether every glyph ID (2 bytes each, in any order) of each font is below its font's count of
    glyphs: by their high bytes alone where those settle it. A checked record's glyphs were taken from the
    font its digests name; any other's are bounds-checked."""
    return not any(max(ids[0::2], default=0) >= count >> 8 and max(glyph_ids((ids, "")), default=0) >= count
                   for (ids, _), count in zip(glyphs, counts))


def check_form(form: FaceForm) -> None:
    """Refuse a record whose content is anything but drawing: ValueError. A group may show only the groups
    before it (never itself: no loop), the form any."""
    if sum(form.groups) >= len(form.content):
        raise ValueError("bad groups")
    for level, piece in enumerate(form.streams()):
        inflater = zlib.decompressobj()
        try:
            content = inflater.decompress(piece, MAX_CONTENT)
        except zlib.error:
            raise ValueError("bad content") from None
        if (inflater.unconsumed_tail or inflater.unused_data or not inflater.eof or content.translate(None, ALLOWED)
                or b"<<" in content or any(int(n) >= level for n in re.findall(rb"/X(\d+)", content))):
            raise ValueError("bad content")


