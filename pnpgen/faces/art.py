"""Turn a face's PDF content into plain bytes and back: FaceArt, the cache's and the PDF writer's unit."""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

FORMAT = 2
# What operator text may hold: numbers, names, operators, arrays. No strings, no inline data, no
# dictionaries: a record read from the cache cannot smuggle anything into a PDF but drawing.
_OPERATORS = re.compile(r"[A-Za-z0-9 .\-*\[\]]*")


@dataclass
class FaceArt:
    """One face as PDF content: operators in the face's own box (points, origin bottom-left).

    parts: operator text, ["T", font, size, text] (set in fonts[font] at size), ["I", image, w, h]
    (images[image] filling the unit square scaled to w × h), ["A", "ca" or "CA", alpha], ["S", shading]
    (shadings[shading] painted: [2 (axial) or 3 (radial), coords, stops as [offset, r, g, b]]) and
    ["X", group] (groups[group], parts of their own, painted as a transparency group) and ["M", group]
    (groups[group] as the soft mask, by luminosity, of what follows until the state is restored).
    fonts: (family, weight, style) as the SVG asked; images: hrefs relative to the project.
    Nothing in it is a path or a document's name, so it can be cached and placed in any PDF.
    The writer needs `resolved`: font names and checked image files, filled by the converter."""

    width: float
    height: float
    parts: list = field(default_factory=list)
    fonts: list = field(default_factory=list)
    images: list = field(default_factory=list)
    shadings: list = field(default_factory=list)
    groups: list = field(default_factory=list)
    resolved_fonts: list = field(default_factory=list, compare=False)
    resolved_images: list = field(default_factory=list, compare=False)

    def to_bytes(self) -> bytes:
        """JSON text: plain data that reading can only parse, never run."""
        record = {"format": FORMAT, "width": self.width, "height": self.height, "parts": self.parts,
                  "fonts": self.fonts, "images": self.images, "shadings": self.shadings, "groups": self.groups}
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> "FaceArt":
        """Parse what to_bytes wrote; anything else raises ValueError (plain data: nothing can execute)."""
        try:
            return cls.parse(json.loads(data.decode("utf-8")))
        except (KeyError, TypeError, IndexError, UnicodeDecodeError, RecursionError) as err:
            raise ValueError(f"not a face record ({type(err).__name__})") from None

    @classmethod
    def unchecked(cls, data: bytes) -> "FaceArt":
        """from_bytes for a record already checked by this process."""
        record = json.loads(data)
        return cls(record["width"], record["height"], record["parts"], record["fonts"], record["images"],
                   record["shadings"], record["groups"])

    @classmethod
    def parse(cls, record) -> "FaceArt":
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise ValueError("not a face record")
        width, height = record["width"], record["height"]
        fonts, images, parts = record["fonts"], record["images"], record["parts"]
        shadings, groups = record["shadings"], record["groups"]  # a group shows only groups before it
        if not (is_number(width) and is_number(height) and isinstance(parts, list) and isinstance(groups, list)
                and all(isinstance(group, list) for group in groups)):
            raise ValueError("bad face record")
        if not all(valid_shading(s) for s in shadings):
            raise ValueError("bad shading")
        if not all(isinstance(f, list) and len(f) == 3 and all(isinstance(v, str) for v in f) for f in fonts):
            raise ValueError("bad font")
        if not all(isinstance(i, str) for i in images):
            raise ValueError("bad image")
        for level, part in ((level, p) for level, group in enumerate([*groups, parts]) for p in group):
            if isinstance(part, str):
                if not _OPERATORS.fullmatch(part):
                    raise ValueError("bad operators")
                continue
            if not isinstance(part, list) or not part:
                raise ValueError("bad part")
            kind = part[0]
            ok = ((kind == "T" and len(part) == 4 and valid_index(part[1], fonts) and is_number(part[2])
                   and isinstance(part[3], str))
                  or (kind == "I" and len(part) == 4 and valid_index(part[1], images) and is_number(part[2])
                      and is_number(part[3]))
                  or (kind == "S" and len(part) == 2 and valid_index(part[1], shadings))
                  or (kind in ("X", "M") and len(part) == 2 and valid_index(part[1], groups[:level]))
                  or (kind == "A" and len(part) == 3 and part[1] in ("ca", "CA") and is_number(part[2])
                      and 0 <= part[2] <= 1))
            if not ok:
                raise ValueError("bad part")
        return cls(float(width), float(height), parts, [tuple(f) for f in fonts], images, shadings, groups)


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def valid_shading(record) -> bool:
    """[2 or 3, coords (4 or 6 numbers), stops ([offset, r, g, b], offsets rising from 0 to 1)]."""
    if not (isinstance(record, list) and len(record) == 3 and record[0] in (2, 3) and isinstance(record[1], list)
            and len(record[1]) == (4 if record[0] == 2 else 6) and all(is_number(c) for c in record[1])
            and isinstance(record[2], list) and len(record[2]) >= 2):
        return False
    stops = record[2]
    return (all(isinstance(s, list) and len(s) == 4 and all(is_number(v) and 0 <= v <= 1 for v in s) for s in stops)
            and all(a[0] <= b[0] for a, b in zip(stops, stops[1:])))


def valid_index(value, items: list) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(items)




def load_art(pack, key: str) -> FaceArt | None:
    """The face's FaceArt from the pack; a record that does not parse is dropped (a miss). Parsed on each
    call and not kept: a build holds faces as compact bytes, not as objects. A record is checked in full
    the first time; after that (or when this build wrote it) only read."""
    data = pack.art_bytes(key)
    if data is None:
        return None
    if key in pack.checked:
        return FaceArt.unchecked(data)
    try:
        art = FaceArt.from_bytes(data)
    except ValueError:
        pack.forget(key)
        return None
    pack.checked.add(key)
    return art
