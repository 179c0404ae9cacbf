"""The entries a build adds to a pack's index answer as a dict of them would, in the same order, and hold a few
dozen bytes an entry whatever their number."""
import hashlib
import random
import tracemalloc

import pytest

from pnpgen import packslots
from pnpgen.packfile import CHECKED, KINDS, USED, entry_of, slot_of
from pnpgen.packslots import Index


def key(n) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


@pytest.mark.parametrize("fresh", [4, packslots.FRESH])
def test_entries_answer_as_a_dict_through_adds_updates_pops_and_unflagging(monkeypatch, fresh):
    monkeypatch.setattr(packslots, "FRESH", fresh)  # few: most entries are in rows when asked for
    chance, entries, expected = random.Random(fresh), Index(), {}
    # The same face key under every kind, keys that share the high half, and a key of all zero bits.
    slots = [slot_of(kind, key(n)) for n in range(700) for kind in KINDS]
    slots += [slot_of(b"A", "ab" * 8 + key(n)[:16]) for n in range(50)] + [slot_of(b"R", "0" * 32)]
    for step in range(20000):
        slot, choice = chance.choice(slots), chance.random()
        if choice < 0.55:
            entry = entry_of(chance.randrange(256), chance.randrange(1 << 32), chance.randrange(1 << 32))
            entry |= chance.randrange(4)
            entries[slot] = expected[slot] = entry
        elif choice < 0.8:
            assert entries.pop(slot, "none") == expected.pop(slot, "none")
        elif choice < 0.999:
            assert entries.get(slot) == expected.get(slot) and (slot in entries) == (slot in expected)
        else:
            kind, flag = chance.randrange(4), chance.choice([USED, CHECKED])
            entries.unflag(kind, flag)
            expected = {s: e & ~flag if s & 3 == kind else e for s, e in expected.items()}
        if step % 997 == 0:
            assert list(entries.items()) == list(expected.items()) and len(entries) == len(expected)
    assert list(entries.items()) == list(expected.items()) and len(entries) == len(expected)
    assert all(entries.get(slot) == expected.get(slot) for slot in slots)


@pytest.mark.parametrize("fresh", [2, packslots.FRESH])
def test_an_entry_popped_and_added_again_goes_last_as_in_a_dict(monkeypatch, fresh):
    monkeypatch.setattr(packslots, "FRESH", fresh)
    entries = Index()
    for n in range(5):
        entries[slot_of(b"F", key(n))] = entry_of(1, n, 10)
    entries.pop(slot_of(b"F", key(1)))
    entries[slot_of(b"F", key(1))] = entry_of(2, 7, 10) | USED
    entries[slot_of(b"F", key(3))] = entry_of(1, 3, 11)
    assert [slot >> 2 for slot, _ in entries.items()] == [int(key(n)[:32], 16) for n in (0, 2, 3, 4, 1)]
    assert entries.get(slot_of(b"F", key(1))) == entry_of(2, 7, 10) | USED
    assert entries.get(slot_of(b"F", key(3))) == entry_of(1, 3, 11) and entries.get(slot_of(b"A", key(3))) is None


def held(count: int) -> int:
    """Bytes an index holds after a cold build's worth of adds (R, A and F records)."""
    slots = [slot_of(kind, key(n)) for n in range(count // 3) for kind in (b"R", b"A", b"F")]
    tracemalloc.start()
    index = Index()
    for number, slot in enumerate(slots):
        index[slot] = entry_of(1, number * 900, 900) | USED
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(index) == len(slots) and index.get(slots[-1]) == entry_of(1, (len(slots) - 1) * 900, 900) | USED
    return held


def test_the_index_of_what_a_build_adds_holds_a_few_dozen_bytes_an_entry_at_any_size():
    small, large = held(3000), held(30000)
    assert large / 30000 < 44 and (large - small) / 27000 < 40  # a dict held ~120 an entry
