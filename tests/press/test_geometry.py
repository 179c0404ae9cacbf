"""Read the placements of grid pages made from their shared slots: they behave as the tuples of Placements they stand for."""
from __future__ import annotations

import hashlib
from dataclasses import replace

from pnpgen.digests import shared_repr
from pnpgen.press.geometry import Placed, Placement
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.project.model import Size
from pnpgen.units import mm

A4 = Size(mm(210), mm(297))
POKER = Size(mm(63), mm(88))


def deck(n: int) -> list[Item]:
    return [Item(f"front-{i}", "back" if i % 3 else None, POKER, f"deck #{i + 1}") for i in range(n)]


def test_full_pages_share_their_slots_and_hold_only_face_keys():
    pages = impose(deck(20), SheetSpec(A4))
    fronts = [page for page in pages if page.side == "front"]
    assert [len(page.placements) for page in fronts] == [9, 9, 2]
    assert all(isinstance(page.placements, Placed) for page in pages)
    assert fronts[0].placements.slots is fronts[1].placements.slots  # one geometry for every full page
    assert fronts[1].placements.faces == tuple(f"front-{i}" for i in range(9, 18))
    backs = [page for page in pages if page.side == "back"]
    assert [len(page.placements) for page in backs] == [6, 6, 1]  # only the items with a back
    assert {p.face for page in backs for p in page.placements} == {"back"}


def test_placed_reads_compares_hashes_and_prints_as_its_tuple():
    page = impose(deck(9), SheetSpec(A4))[0]
    placed = page.placements
    whole = tuple(placed)
    assert all(isinstance(p, Placement) for p in whole) and len(whole) == 9
    assert [placed[i] for i in range(9)] == list(whole) and placed[-1] == whole[-1] and placed[2:5] == whole[2:5]
    assert placed == whole and whole == placed and hash(placed) == hash(whole) and repr(placed) == repr(whole)
    assert placed != whole[:-1] and placed != list(whole)
    assert page == replace(page, placements=whole) and hash(page) == hash(replace(page, placements=whole))
    assert shared_repr([page]) == shared_repr([replace(page, placements=whole)])
    moved = Placed(placed.faces[::-1], placed.slots)
    assert moved != placed and moved.faces[0] == whole[-1].face and (moved[0].x, moved[0].y) == (whole[0].x, whole[0].y)
    assert tuple(Placed((), ())) == () and Placed((), ()) == ()


def test_face_keys_in_hex_are_held_as_their_digests_and_read_back_as_given():
    slots = impose(deck(9), SheetSpec(A4))[0].placements.slots[:3]
    keys = (hashlib.sha256(b"a").hexdigest(), hashlib.sha256(b"b").hexdigest(), hashlib.sha256(b"a").hexdigest())
    placed = Placed(keys, slots)
    assert placed._faces == b"".join(bytes.fromhex(key) for key in keys)  # 32 bytes a piece, no string
    assert placed.faces == keys and [p.face for p in placed] == list(keys) and len(placed) == 3
    assert placed == Placed(list(keys), slots) and placed != Placed(keys[1::-1] + keys[2:], slots)
    upper, short, odd = keys[0].upper(), keys[0][:-2], "z" * 64  # not as faces are named: kept as they are
    for other in [(upper, keys[1], keys[2]), (short, keys[1], keys[2]), (odd, keys[1], keys[2]), (None, keys[1], keys[2])]:
        assert Placed(other, slots).faces == other and Placed(other, slots)._faces == other
