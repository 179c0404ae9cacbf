"""A sealed pack carries its index after its records: it opens by reading that block, answers what a scan of
its records answers, takes a few new records by appending, and a trailer that does not hold is never trusted."""
import hashlib
import os
import tracemalloc
from pathlib import Path

import pytest

from pnpgen import packfile, seal
from pnpgen.cache import FacePack
from pnpgen.packfile import CHECK, HEADER, MAGIC, MARK, TRAILER
from pnpgen.packindex import FOOTER, Rows, sorted_rows
from pnpgen.pipeline.workers import Background

pytestmark = pytest.mark.skipif(os.name != "posix", reason="packs are sealed only on POSIX systems")


def key(n) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


def svg(n: int) -> str:
    return f'<svg width="{n}"/>'


def fill(pack: FacePack, numbers) -> None:
    """Each number's face: FaceArt, form, an SVG and two render keys naming it, all vouched for."""
    for n in numbers:
        face = key(n)
        pack.put(b"A", face, f'{{"art": {n}}}'.encode() * (n % 7 + 1))
        pack.checked.add(face)
        pack.store_form(face, bytes([n % 256]) * (1000 + n % 300))
        pack.checked_forms.add(face)
        pack.store_svg(hashlib.sha256(svg(n).encode()).hexdigest(), svg(n))
        pack.record_face(key(f"front {n}"), face)
        pack.record_face(key(f"back {n}"), face)


def answers(pack: FacePack, numbers) -> dict:
    """What the pack answers for every key and kind of the numbers' faces (and some it never held)."""
    found = {}
    for n in list(numbers) + [-1, -2]:
        face, drawing = key(n), hashlib.sha256(svg(n).encode()).hexdigest()
        found[n] = (pack.art_bytes(face), pack.form_record(face)[0], pack.face_svg(drawing), pack.face_key(key(f"front {n}")),
                    pack.face_key(key(f"back {n}")), pack.has_face(face), face in pack.checked)
    return found


def scanned(path: Path) -> FacePack:
    """The pack as a build reads one it cannot trust: every record scanned and checked."""
    seal.break_seal(path)
    pack = FacePack(path)
    assert not pack.sealed and pack.index.table is None
    return pack


@pytest.fixture()
def path(tmp_path) -> Path:
    where = tmp_path / "faces" / "p.pack"
    pack = FacePack(where)
    fill(pack, range(300))
    pack.art_bytes(key(0))
    pack.save()
    return where


def test_a_sealed_pack_opens_from_its_trailer_and_answers_what_a_scan_answers(path, monkeypatch):
    pack = FacePack(path)
    assert pack.sealed and pack.index.table is not None and len(pack.index) == 5 * 300
    reads = []
    monkeypatch.setattr(packfile, "read_at", lambda *args: reads.append(args) or os.pread(args[0].fileno(), *args[1:]))
    assert pack.face_key(key("front 7")) == key(7) and reads == []  # an R record's face key is in the trailer
    monkeypatch.undo()
    expected = answers(pack, range(300))
    assert all(expected[n][:6] == (None,) * 5 + (False,) for n in (-1, -2))
    assert expected[5][0] == b'{"art": 5}' * 6 and expected[5][3] == expected[5][4] == key(5) and expected[5][6]
    scan = scanned(path)
    assert {n: found[:6] for n, found in answers(scan, range(300)).items()} == {
        n: found[:6] for n, found in expected.items()}
    assert not any(key(n) in scan.checked for n in range(300))  # a pack scanned is checked again


def test_appending_to_a_sealed_pack_keeps_its_records_and_adds_the_new(path):
    before = path.read_bytes()
    start = FacePack(path).index.table.start
    pack = FacePack(path)
    answers(pack, range(300))  # the build used all of it
    fill(pack, range(300, 305))
    pack.put(b"A", key(3), b'{"art": "changed"}')  # a record replaced
    pack.checked.add(key(3))
    pack.save()
    after = path.read_bytes()
    assert after[:start] == before[:start] and len(after) > len(before)  # appended over the old trailer
    again = FacePack(path)
    assert again.sealed and os.stat(path).st_ino == os.fstat(pack.segments[0].file.fileno()).st_ino
    expected = answers(again, range(305))
    assert expected[3][0] == b'{"art": "changed"}' and expected[304][3] == key(304)
    assert answers(scanned(path), range(305)) == {n: found[:6] + (False,) for n, found in expected.items()}


def test_a_pack_a_build_forgot_a_face_of_is_written_anew(path):
    """Appending leaves a forgotten record in the file: a scan would find it again."""
    inode = os.stat(path).st_ino
    pack = FacePack(path)
    answers(pack, range(300))
    fill(pack, [1000])
    pack.forget(key(4))
    pack.save()
    assert os.stat(path).st_ino != inode
    assert answers(FacePack(path), [4])[4][:2] == answers(scanned(path), [4])[4][:2] == (None, None)


def test_a_build_that_used_little_rewrites_the_pack_instead(path):
    inode = os.stat(path).st_ino
    pack = FacePack(path)
    fill(pack, [1000])
    pack.save()
    assert os.stat(path).st_ino != inode  # written anew: what this build used, and no more than 1,000 older
    kept = FacePack(path)
    assert kept.sealed and kept.face_key(key("front 1000")) == key(1000) and len(kept.index) <= 2 * 5 + 1000


def reseal(path: Path) -> None:
    """Seal the file as it is now, as if this machine had written it: only the trailer's own checks are left."""
    seal.seal_path(path).write_bytes(seal.seal_text(os.stat(path)))


@pytest.mark.parametrize("damage", ["a flipped key", "a flipped position", "truncated", "no footer",
                                    "another pack's", "records after it"])
def test_a_trailer_that_does_not_hold_is_never_trusted(path, tmp_path, damage):
    data = bytearray(path.read_bytes())
    start = FacePack(path).index.table.start
    if damage == "a flipped key":
        data[start + 20] ^= 1
    elif damage == "a flipped position":
        data[start + 16 + 16 * 5 * 300 + 3] ^= 1
    elif damage == "truncated":
        data = data[:-10]
    elif damage == "no footer":
        data = data[:-FOOTER.size]
    elif damage == "another pack's":
        other = FacePack(tmp_path / "other.pack")
        fill(other, range(300, 600))
        other.save()
        theirs = (tmp_path / "other.pack").read_bytes()
        data = data[:start] + theirs[FacePack(tmp_path / "other.pack").index.table.start:]
    else:
        data += HEADER.pack(b"A", bytes(32), 0) + bytes(CHECK)
    path.write_bytes(bytes(data))
    reseal(path)
    pack = FacePack(path)
    assert not pack.sealed and pack.index.table is None  # scanned, every record checked
    assert pack.art_bytes(key(5)) == b'{"art": 5}' * 6 and key(5) not in pack.checked
    assert pack.face_key(key("back 299")) == key(299)


def test_a_torn_append_costs_a_rescan(path, monkeypatch):
    pack = FacePack(path)
    answers(pack, range(300))
    fill(pack, range(300, 310))
    real = os.pwrite

    def torn(handle, data, position):  # the process dies half-way through the append
        real(handle, bytes(data[:len(data) // 2]), position)
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "pwrite", torn)
    with pytest.raises(KeyboardInterrupt):
        pack.save()
    monkeypatch.undo()
    again = FacePack(path)
    assert not again.sealed and not seal.seal_path(path).exists()
    assert again.art_bytes(key(200)) == b'{"art": 200}' * (200 % 7 + 1) and again.face_key(key("front 299")) == key(299)
    assert walk(path, torn=True) >= 5 * 300


def walk(path: Path, torn: bool = False) -> int:
    """How many records the file holds, each checked, stepping over trailers to its end (or, torn, to the
    first record whose check fails)."""
    data, at, count = path.read_bytes(), len(MAGIC), 0
    while at < len(data):
        if data.startswith(MARK, at):
            at += TRAILER.unpack_from(data, at)[1]
            if torn and at > len(data):  # the start of a trailer the append did not finish
                return count
            continue
        size = HEADER.size + HEADER.unpack_from(data, at)[2] + CHECK
        if torn and not packfile.holds(data[at:at + size], size):
            return count
        assert packfile.holds(data[at:at + size], size)
        at, count = at + size, count + 1
    assert at == len(data)
    return count


def save_at_once(path: Path, numbers, ready, go) -> None:
    """In a process of its own: open the pack, add the numbers' faces, then save when told."""
    pack = FacePack(path)
    answers(pack, range(300))
    fill(pack, numbers)
    os.write(ready, b"x")
    os.read(go, 1)
    pack.save()


def test_two_builds_saving_at_once_leave_a_pack_whose_records_all_check(path):
    for round_ in range(3):
        pipes = [os.pipe() for _ in range(2)]
        gate = os.pipe()
        helpers = [Background(lambda numbers=numbers, ready=ready: save_at_once(path, numbers, ready, gate[0]))
                   for numbers, (_, ready) in zip(([1000 + round_], [2000 + round_]), pipes)]
        for read_end, _ in pipes:
            os.read(read_end, 1)
        os.write(gate[1], b"go")
        for helper in helpers:
            helper.wait()
        assert walk(path) >= 5 * 300
        pack = FacePack(path)
        assert pack.art_bytes(key(7)) == b'{"art": 7}'
        assert pack.face_key(key(f"front {1000 + round_}")) in (key(1000 + round_), None)


def test_records_read_in_file_order_share_a_read(path, monkeypatch):
    pack = FacePack(path)
    calls = []
    real = packfile.read_at
    monkeypatch.setattr(packfile, "read_at", lambda *args: calls.append(args[1]) or real(*args))
    forms = [pack.form_record(key(n))[0] for n in range(300)]
    assert all(forms) and sum(map(len, forms)) > 4 * packfile.WINDOW
    assert len(calls) <= sum(map(len, forms)) * 3 // packfile.WINDOW + 2  # a few reads, not one a record


def test_a_sealed_pack_index_is_compact(tmp_path):
    where = tmp_path / "big.pack"
    pack = FacePack(where)
    for n in range(5000):
        pack.put(b"A", key(n), b"{}")
        pack.checked.add(key(n))
        pack.record_face(key(-n), key(n))
    pack.save()
    tracemalloc.start()
    try:
        opened = FacePack(where)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert opened.sealed and len(opened.index) == 10_000
    assert held < 10_000 * 45  # 25 bytes an entry, and an R record's face key: not a dict of big ints


def test_a_big_pack_sorts_its_trailer_a_group_at_a_time_and_answers_as_a_scan(tmp_path):
    """Above a few thousand rows the trailer is sorted in groups (kind and first bits of the key): the same
    trailer as one sort of every row, read back whole."""
    rows = Rows()
    for n in range(9000):
        kind = b"RASF"[n % 4:n % 4 + 1]
        payload = bytes.fromhex(key(-n)) if kind == b"R" else b"x"
        rows.add(HEADER.pack(kind, bytes.fromhex(key(n)), len(payload)) + payload + bytes(CHECK), 100 + 50 * n)
    width = 17 + 8
    whole = []
    for data, wide in ((bytes(rows.faces), width + 32), (bytes(rows.rows), width)):
        whole.append(b"".join(sorted(data[at:at + wide] for at in range(0, len(data), wide))))
    assert len(list(sorted_rows(bytes(rows.rows), width))) > 1
    blocks = rows.encode(1_000_000)[1:6]
    for column, (offset, size) in enumerate(zip((1, 9, 17, 21), (8, 8, 4, 4))):
        wanted = b"".join(data[at + offset:at + offset + size] for data, wide in zip(whole, (width + 32, width))
                          for at in range(0, len(data), wide))
        assert blocks[column] == wanted
    where = tmp_path / "big.pack"
    pack = FacePack(where)
    fill(pack, range(1500))
    pack.save()
    opened = FacePack(where)
    assert opened.sealed and len(opened.index) == 5 * 1500
    expected = {n: found[:6] for n, found in answers(opened, range(0, 1500, 7)).items()}
    assert expected[7][0] == b'{"art": 7}' and {n: found[:6] for n, found in answers(scanned(where), range(0, 1500, 7)).items()} == expected
