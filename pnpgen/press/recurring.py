"""Turn a document's pages into the faces they place more than once, counted by a number for each face key."""
from __future__ import annotations

import sys
from array import array
from collections import Counter
from typing import Sequence

from .geometry import KEY, Placed
from .impose import Page

BATCH = 64  # grid pages whose digests are counted in one call: the calls cost more than the counting


def recurring(pages: Sequence[Page]) -> dict[int, int]:
    """How many placements show a face of each key_prefix() placed more than once: a face whose prefix is not
    here is placed once, and its form need not be remembered for a later page."""
    counts: Counter[int] = Counter()
    batch: list[bytes] = []
    for page in pages:
        placements = page.placements
        digests = placements.digests if placements.__class__ is Placed else None
        if digests is not None:  # a grid page's faces, read without making their keys
            batch.append(digests)
            if len(batch) == BATCH:
                count_digests(counts, batch)
                batch = []
        else:
            counts.update(map(key_prefix, placements.faces if isinstance(placements, Placed)
                              else [placement.face for placement in placements]))
    count_digests(counts, batch)
    return {prefix: count for prefix, count in counts.items() if count > 1}


def count_digests(counts: Counter[int], digests: list[bytes]) -> None:
    """Count the key_prefix() of each face of these digests (a page's, one after the other)."""
    words = array("Q", b"".join(digests))
    if sys.byteorder == "little":  # a prefix reads as the key's first 16 hex digits do
        words.byteswap()
    counts.update(words[::KEY // 16])  # a digest's first of its four words of eight bytes


def key_prefix(face: str) -> int:
    """A number for a face key: its digest's first 8 bytes for a key in hex, else its hash. Faces sharing one
    count as one face in recurring(), which can only make a form be remembered longer than it needs."""
    if len(face) == KEY:
        try:
            return int(face[:16], 16)
        except ValueError:
            pass
    return hash(face)
