"""Count the faces a document's pages place more than once, alike from grid pages' digests and from keys."""
from __future__ import annotations

import dataclasses
import hashlib

from pnpgen.press.geometry import Placed
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.press.recurring import key_prefix, recurring
from pnpgen.project.model import Size
from pnpgen.units import mm

A4 = Size(mm(210), mm(297))
POKER = Size(mm(63), mm(88))


def key(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def items(name=key) -> list[Item]:
    """20 cards: a shared back, card 2 again as card 17 (two pages later), card 5 three times in a row."""
    fronts = [f"card-{i}" for i in range(20)]
    fronts[17] = "card-2"
    fronts[6] = fronts[7] = "card-5"
    return [Item(name(front), name("back"), POKER) for front in fronts]


def test_faces_placed_more_than_once_are_counted_with_every_placement():
    pages = impose(items(), SheetSpec(A4))
    assert all(page.placements.digests is not None for page in pages)  # the keys are held as digests
    counts = recurring(pages)
    assert counts == {key_prefix(key("back")): 20, key_prefix(key("card-2")): 2, key_prefix(key("card-5")): 3}


def test_digests_count_as_the_keys_they_stand_for():
    """A face's number is the same from a grid page's digest and from its key on a page of placements, so
    that a document mixing both counts a face once whatever pages show it."""
    pages = impose(items(), SheetSpec(A4))
    listed = [dataclasses.replace(page, placements=tuple(page.placements)) for page in pages]
    assert recurring(listed) == recurring(pages)
    assert recurring(pages[:1] + listed[2:3]) == {key_prefix(key("card-5")): 3, key_prefix(key("card-2")): 2}
    assert key_prefix(key("back")) == int.from_bytes(bytes.fromhex(key("back"))[:8], "big")


def test_keys_not_in_hex_are_counted_by_their_hash():
    pages = impose(items(name=str), SheetSpec(A4))
    assert all(isinstance(page.placements, Placed) and page.placements.digests is None for page in pages)
    assert recurring(pages) == {hash("back"): 20, hash("card-2"): 2, hash("card-5"): 3}
    assert key_prefix("z" * 64) == hash("z" * 64) and key_prefix(key("a").upper()) == key_prefix(key("a"))


def test_pages_placing_each_face_once_leave_nothing_to_count():
    pages = impose([Item(key(f"card-{i}"), None, POKER) for i in range(30)], SheetSpec(A4))
    assert recurring(pages) == {} and recurring([]) == {}
