"""Turn a page's slots (x, y, width, height, clip of each placement) into its placements, its trim and bleed boxes,
and a front page's geometry into its back's: pages that share a geometry (every full page of a component) share
the work, and the memory."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator, Sequence

from .marks import Mark, Rect, bound, intersect, mirror_mark, mirror_rect

KEY = 64  # characters of a face key: a SHA-256 in hex


@dataclass(frozen=True, slots=True)  # one for each piece: no __dict__ each
class Placement:
    """A face on a page: (x, y) is the bottom-left of the trim; the face is drawn with its origin at
    (x - bleed, y - bleed); only the part inside clip shows."""

    face: str
    x: float
    y: float
    width: float
    height: float
    clip: Rect
    clip_path: tuple = ()  # polygons ((x, y), …) clipping instead of clip, for die-cut outlines
    flip: str = ""  # "y": the face mirrored about its horizontal middle; "xy": turned half round


class Placed(Sequence):
    """A grid page's placements, made when read from its faces and its slots (shared by a component's full pages): a
    deck's pages hold 32 bytes a piece (a face key's digest), not a Placement nor a string. Reads, compares, hashes
    and prints as the tuple of its placements."""

    __slots__ = ("_faces", "slots")

    def __init__(self, faces: tuple[str, ...], slots: tuple[tuple, ...]):
        self._faces, self.slots = pack_keys(tuple(faces)), slots

    @property
    def faces(self) -> tuple[str, ...]:
        packed = self._faces
        if packed.__class__ is tuple:
            return packed
        return tuple(packed[at:at + KEY // 2].hex() for at in range(0, len(packed), KEY // 2))

    @property
    def digests(self) -> bytes | None:
        """Its faces' keys as their digests one after the other (KEY // 2 bytes each); None when they are kept
        as strings."""
        return None if self._faces.__class__ is tuple else self._faces

    def __len__(self) -> int:
        return len(self._faces) if self._faces.__class__ is tuple else len(self._faces) // (KEY // 2)

    def __iter__(self) -> Iterator[Placement]:
        return map(Placement, self.faces, *zip(*self.slots)) if self._faces else iter(())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        return Placement(self.faces[index], *self.slots[index])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placed) and other.slots is self.slots:
            return other._faces == self._faces
        return isinstance(other, (tuple, Placed)) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def pack_keys(faces: tuple) -> bytes | tuple:
    """Face keys as their digests, one after the other, if each is a SHA-256 in hex as faces are named (and
    reads back the same); else as they are."""
    try:
        packed = b"".join(map(bytes.fromhex, faces)) if all(len(face) == KEY for face in faces) else b""
    except (TypeError, ValueError):
        return faces
    return packed if packed and packed.hex() == "".join(faces) else faces


def page_boxes(slots: Sequence[tuple]) -> tuple[Rect, Rect] | None:
    """(trim box, bleed box) of a page: the trims as far as their clips show them, and the clips; None for none."""
    shown = [intersect(Rect(x, y, x + w, y + h), clip) for x, y, w, h, clip in slots]
    trim_box, bleed_box = bound(t for t in shown if t is not None), bound(clip for *_, clip in slots)
    return None if trim_box is None or bleed_box is None else (trim_box, bleed_box)


@functools.lru_cache(maxsize=64)
def turn_over(slots: tuple, marks: tuple[Mark, ...], bare: tuple[str, ...], backed: tuple[bool, ...],
              axes: tuple) -> tuple:
    """A front page's geometry mirrored about axes ((("width", w),) or (("height", h),)) for the duplex flip:
    (slots of the items with a back (backed), marks, bare sides, boxes)."""
    mirror = dict(axes)
    kept = []
    for (x, y, width, height, clip), has_back in zip(slots, backed):
        if has_back:
            trim = mirror_rect(Rect(x, y, x + width, y + height), **mirror)
            kept.append((trim.x0, trim.y0, width, height, mirror_rect(clip, **mirror)))
    swap = {"left": "right", "right": "left"} if "width" in mirror else {"top": "bottom", "bottom": "top"}
    return (tuple(kept), tuple(mirror_mark(m, **mirror) for m in marks),
            frozenset(swap.get(side, side) for side in bare), page_boxes(kept))
