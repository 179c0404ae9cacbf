"""The content-hash cache: a rebuild re-renders nothing, a tweak re-renders exactly the changed card."""
import hashlib
import json
import os
import shutil
import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from markupsafe import Markup

import pnpgen
from pnpgen import Options
from pnpgen.faces.form import FaceForm
from pnpgen.faces.size_marks import read_marks
from pnpgen.pipeline.workers import Background, can_fork
from pnpgen.store import pack as packs_module
from pnpgen.store.pack import FacePack
from pnpgen.faces.fitted import TextFitter
from pnpgen.store import records
from pnpgen.store.records import Handoff, checksum

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def build(project: Path, out: Path, cache_dir: Path, **options) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache_dir, **options))


def pdf_bytes(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def test_a_second_build_renders_converts_and_writes_nothing(project, tmp_path):
    first = build(project, tmp_path / "out", tmp_path / "cache")
    # 3 fronts and 1 back: the back reads only the title, so the cards share it and it renders once
    assert first.renders == 4 and first.faces == 4
    second = build(project, tmp_path / "out", tmp_path / "cache")
    assert (second.renders, second.faces, second.written) == (0, 0, [])
    assert sorted(second.unchanged) == sorted(first.written)


def test_a_fresh_output_folder_reuses_the_cache_and_gets_identical_pdfs(project, tmp_path):
    build(project, tmp_path / "a", tmp_path / "cache")
    again = build(project, tmp_path / "b", tmp_path / "cache")
    assert (again.renders, again.faces) == (0, 0) and len(again.written) == 2
    assert pdf_bytes(tmp_path / "a") == pdf_bytes(tmp_path / "b")


def test_a_tweak_re_renders_exactly_the_changed_card(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    tweaked = build(project, tmp_path / "out", tmp_path / "cache")
    assert tweaked.renders == 1  # the shield's front; its back read no field: the deck's back, found as it is
    assert tweaked.faces == 1  # its new front; its back looks as before
    assert {p.name for p in tweaked.written} == {"deck.pdf", "tiny-print-and-play.pdf"}
    build(project, tmp_path / "clean", tmp_path / "other-cache")
    assert pdf_bytes(tmp_path / "out") == pdf_bytes(tmp_path / "clean")


def test_a_template_change_re_renders_every_face_using_the_templates(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    back = project / "templates" / "back.svg.j2"
    back.write_text(back.read_text(encoding="utf-8").replace("#234", "#432"), encoding="utf-8")
    changed = build(project, tmp_path / "out", tmp_path / "cache")
    assert changed.renders == 4 and changed.faces == 1  # fronts render to the same SVG: only the new back converts


def test_a_deleted_or_edited_output_is_written_again(project, tmp_path):
    first = build(project, tmp_path / "out", tmp_path / "cache")
    deck = tmp_path / "out" / "tiny" / "deck.pdf"
    good = deck.read_bytes()
    deck.write_bytes(b"%PDF-1.4 truncated")
    again = build(project, tmp_path / "out", tmp_path / "cache")
    assert again.written == [deck] and deck.read_bytes() == good
    deck.unlink()
    assert build(project, tmp_path / "out", tmp_path / "cache").written == [deck]
    assert first.renders == 4


def test_without_the_cache_everything_is_rendered_and_written(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    uncached = build(project, tmp_path / "out", tmp_path / "cache", cache=False)
    assert uncached.renders == 4 and len(uncached.written) == 2


def packs(cache: Path) -> list[Path]:
    found = sorted(cache.rglob("*.sqlite"))
    assert found, "the build wrote no face pack"
    return found


@pytest.mark.parametrize("damage", ["flip a payload byte", "flip a byte of its structure", "truncate",
                                    "garbage", "empty"])
def test_a_damaged_pack_is_a_miss_not_an_error(project, tmp_path, damage):
    build(project, tmp_path / "a", tmp_path / "cache")
    for pack in packs(tmp_path / "cache"):
        data = bytearray(pack.read_bytes())
        if damage == "flip a payload byte":
            data[data.index(b'"digests"') + 2] ^= 0x20
        elif damage == "flip a byte of its structure":  # the type of the second page: the file is malformed
            data[4096] ^= 0xFF
        elif damage == "truncate":
            data = data[: len(data) // 3]
        elif damage == "garbage":
            data = bytearray(b"not a pack" * 100)
        else:
            data = bytearray()
        pack.write_bytes(bytes(data))
    again = build(project, tmp_path / "b", tmp_path / "cache")
    assert again.faces >= 1 and again.renders >= 1
    assert pdf_bytes(tmp_path / "a") == pdf_bytes(tmp_path / "b")
    third = build(project, tmp_path / "c", tmp_path / "cache")  # the pack is sound again: the faces were kept
    assert (third.renders, third.faces) == (0, 0) and pdf_bytes(tmp_path / "c") == pdf_bytes(tmp_path / "a")


def test_the_cache_holds_no_pickles_and_few_files(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    [claims, pack] = sorted((p for p in (tmp_path / "cache").rglob("*") if p.is_file()), key=lambda p: p.suffix)
    assert pack.suffix == ".sqlite" and pack.read_bytes().startswith(b"SQLite format 3\0")
    lines = claims.read_bytes().split(b"\n")  # what reading the card text gave, a line of JSON a sentence
    assert claims.suffix == ".jsonl" and all(json.loads(line) for line in lines[:-1]) and len(lines[-1]) == 64
    assert pack.stat().st_mode & 0o077 == 0
    with sqlite3.connect(pack) as db:
        rows = db.execute("SELECT kind, payload FROM records").fetchall()
        keyed = {(kind, key): payload for kind, key, payload in db.execute("SELECT kind, key, payload FROM records")}
    # render key -> face key, face key -> its form, face key -> the size marks read from that form, a text() call's
    # digest -> its fitted SVG
    assert {kind for kind, _ in rows} == {b"R", b"F", b"M", b"T"}
    assert all(payload.decode("utf-8")[:1] in ("", "<") for kind, payload in rows if kind == b"T")  # SVG, or none
    assert not any(b"\x80\x05" in payload for _, payload in rows)
    assert all(FaceForm.from_bytes(payload) for kind, payload in rows if kind == b"F")
    assert all(read_marks(payload, checksum(b"F", key, keyed[b"F", key])) is not None
               for (kind, key), payload in keyed.items() if kind == b"M")


def test_a_warm_cache_works_in_a_fresh_process(tmp_path):
    """Drawings from the cache name fonts that only the process which converted them had registered."""
    import subprocess
    import sys

    env = dict(os.environ, PNPGEN_CACHE=str(tmp_path / "cache"))
    for out in ("first", "second"):
        result = subprocess.run([sys.executable, "-m", "pnpgen", "build", str(FIXTURES / "minimal"), "-o", str(tmp_path / out)],
                                env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    assert "0 converted" in result.stdout
    assert pdf_bytes(tmp_path / "first") == pdf_bytes(tmp_path / "second")


def test_faces_made_on_two_cores_give_the_same_pdfs_and_counts(tmp_path, monkeypatch):
    """Above PARALLEL_CARDS distinct cards a helper process renders every other card into the pack."""
    from pnpgen.pipeline import prerender

    project = tmp_path / "many"
    shutil.copytree(FIXTURES / "minimal", project)
    cards = "\n".join(f"          - {{name: カード{n}, number: {n % 9 + 1}, effect: 効果{n}}}" for n in range(240))
    text = (project / "cards.yaml").read_text(encoding="utf-8")
    start, end = text.index("        cards:\n"), text.index("    expectations:")
    (project / "cards.yaml").write_text(text[:start] + "        cards:\n" + cards + "\n" + text[end:], encoding="utf-8")
    reports = {}
    for parallel in (True, False):
        monkeypatch.setattr(prerender, "PARALLEL_CARDS", 200 if parallel else 10 ** 9)
        reports[parallel] = build(project, tmp_path / f"out-{parallel}", tmp_path / f"cache-{parallel}", check=False)
    # 240 fronts and 1 back shared by all, rendered before the helper starts
    assert (reports[True].renders, reports[True].faces) == (reports[False].renders, reports[False].faces) == (241, 241)
    assert pdf_bytes(tmp_path / "out-True") == pdf_bytes(tmp_path / "out-False")
    again = build(project, tmp_path / "again", tmp_path / "cache-True", check=False)
    assert (again.renders, again.faces) == (0, 0)  # the helper's faces reached the pack on disk
    assert pdf_bytes(tmp_path / "again") == pdf_bytes(tmp_path / "out-True")


def test_cards_that_agree_on_what_a_template_reads_share_its_face(project, tmp_path):
    """The back reads no card field: one render for the deck. A front that reads `name` only renders once per
    name; any card that differs in a field the template read renders again."""
    (project / "templates" / "back.svg.j2").write_text(
        '<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="{{ card.get(\'colour\', \'#234\') }}"/>',
        encoding="utf-8")
    first = build(project, tmp_path / "a", tmp_path / "cache-a", check=False)
    assert first.renders == 4  # 3 fronts; 1 back: get('colour') found no colour on any card
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾,", "name: 盾, colour: '#800',"), encoding="utf-8")
    second = build(project, tmp_path / "b", tmp_path / "cache-b", check=False)
    assert second.renders == 5 and second.faces == 5  # the shield now has a back of its own
    clean = pnpgen.build(project, Options(out_dir=tmp_path / "c", cache=False, check=False))
    assert clean.renders == 5 and pdf_bytes(tmp_path / "b") == pdf_bytes(tmp_path / "c")


def key(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


def pack_at(tmp_path: Path) -> FacePack:
    return FacePack(tmp_path / "faces" / "p.sqlite")


def form_of(pack: FacePack, face_key: str) -> bytes | None:
    return pack.form_record(face_key)[0]


def rows_of(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT kind, key, payload FROM records ORDER BY rowid").fetchall()


def test_a_pack_reads_back_what_it_saved_and_what_a_helper_handed_it(tmp_path):
    pack = pack_at(tmp_path)
    pack.put(b"F", key(1), b'{"own": 1}')
    pack.record_face(key(2), key(1))
    handoff = Handoff.make()

    def helper():  # in a forked process, as prerender.render_ahead runs it
        pack.hand_to(handoff)
        assert form_of(pack, key(1)) == b'{"own": 1}'  # the parent's records, read in the child
        pack.put(b"F", key(3), b'{"helper": 3}')
        pack.put(b"F", key(5), b'{"helper": 5}')
        pack.finish()
    Background(helper).wait()
    assert form_of(pack, key(3)) is None  # not here until taken
    assert pack.take(handoff) == 2 and key(3) in pack.checked
    assert not Path(handoff.path).exists()
    pack.put(b"F", key(4), b'{"own": 4}')
    pack.save()
    again = pack_at(tmp_path)
    assert form_of(again, key(1)) == b'{"own": 1}' and again.face_key(key(2)) == key(1)
    assert form_of(again, key(4)) == b'{"own": 4}'
    assert form_of(again, key(3)) == b'{"helper": 3}' and form_of(again, key(5)) == b'{"helper": 5}'
    assert key(3) not in again.checked  # a new build checks a record again before it trusts it


def test_a_forked_process_reads_its_parents_records_and_writes_none_of_its_own_into_them(tmp_path):
    """A rulebook is typeset, and PDFs written, in forked processes that read the faces and may add some."""
    pack = pack_at(tmp_path)
    for n in range(600):  # more than a batch: most are in this build's own file when the child starts
        pack.put(b"F", key(n), b"parent %d" % n)

    def child():
        assert form_of(pack, key(0)) == b"parent 0" and form_of(pack, key(599)) == b"parent 599"
        for n in range(1000, 1600):
            pack.put(b"F", key(n), b"child " * 100)
        pack.flush()
        pack.save()  # only the process that opened the pack writes the cache's file
    Background(child).wait()
    pack.put(b"F", key(600), b"parent after")
    assert form_of(pack, key(1000)) is None and form_of(pack, key(600)) == b"parent after"
    pack.save()
    assert {payload for *_, payload in rows_of(tmp_path / "faces" / "p.sqlite")} == {
        b"parent %d" % n for n in range(600)} | {b"parent after"}


def test_no_connection_to_the_cache_file_is_carried_across_a_fork(tmp_path):
    """SQLite must not see a connection carried into a child: the parent lets go of the cache's file before it
    forks (and reads it again after), and a helper that finds the file damaged never removes it."""
    if not can_fork():
        pytest.skip("no fork here: a helper's job runs in this process")
    first = pack_at(tmp_path)
    first.put(b"F", key(1), b"saved")
    first.save()
    pack = pack_at(tmp_path)
    assert form_of(pack, key(1)) == b"saved" and pack.main is not None  # a read holds the cache's file open

    def child():
        assert form_of(pack, key(1)) == b"saved"  # opened anew here
        pack.drop_main(sqlite3.DatabaseError("database disk image is malformed"))
    Background(child).wait()
    assert pack.main is None  # let go before the fork
    assert (tmp_path / "faces" / "p.sqlite").exists()  # the child's damage was not the parent's to remove
    pack.put(b"F", key(2), b"after")
    assert form_of(pack, key(1)) == b"saved"  # opened again by the parent
    pack.save()
    assert form_of(pack_at(tmp_path), key(2)) == b"after"
    pack.drop_main(sqlite3.DatabaseError("database disk image is malformed"))
    assert not (tmp_path / "faces" / "p.sqlite").exists()  # its maker removes a damaged file (made anew at save)


@pytest.mark.parametrize("when", ["before it is opened", "after it is read"])
def test_a_damaged_record_is_a_miss_and_the_rest_still_read(tmp_path, when):
    pack = pack_at(tmp_path)
    for n in range(3):
        pack.put(b"F", key(n), f"payload {n}".encode())
    pack.save()
    path = tmp_path / "faces" / "p.sqlite"
    data = bytearray(path.read_bytes())
    data[data.index(b"payload 1")] ^= 0x20
    if when == "after it is read":
        pack = pack_at(tmp_path)
        assert form_of(pack, key(2)) == b"payload 2"
    path.write_bytes(bytes(data))  # in place: an open connection reads it too
    if when == "before it is opened":
        pack = pack_at(tmp_path)
    assert form_of(pack, key(0)) == b"payload 0"
    # A connection that read the file before may answer from the pages it read then (the record as it was,
    # its check holding); the damaged payload is never an answer.
    found = form_of(pack, key(1))
    assert found is None if when == "before it is opened" else found in (None, b"payload 1")
    assert pack.has_face(key(1)) == (found is not None)
    assert form_of(pack, key(2)) == b"payload 2"
    pack.put(b"F", key(1), b"payload 1")  # made again
    pack.save()
    assert form_of(pack_at(tmp_path), key(1)) == b"payload 1"


def test_a_record_under_another_key_is_a_miss(tmp_path):
    """A payload whose checksum holds, moved under another record's key or kind, fails the check."""
    pack = pack_at(tmp_path)
    pack.put(b"F", key(1), b"one")
    pack.put(b"F", key(2), b"two")
    pack.save()
    with sqlite3.connect(tmp_path / "faces" / "p.sqlite") as db:
        db.execute("UPDATE records SET key = ? WHERE key = ?", (bytes.fromhex(key(3)), bytes.fromhex(key(2))))
        db.execute("UPDATE records SET kind = ? WHERE key = ?", (b"R", bytes.fromhex(key(1))))
    again = pack_at(tmp_path)
    assert form_of(again, key(3)) is None and again.face_key(key(1)) is None


def test_the_pack_holds_its_records_on_disk_not_in_memory(tmp_path):
    pack = pack_at(tmp_path)
    pack.put(b"F", key(0), b"x")
    payload = bytes(range(256)) * 8  # 2 KB, about a face's form
    tracemalloc.start()
    try:
        for n in range(1, 5001):
            pack.put(b"F", key(n), payload)
            pack.record_face(key(-n), key(n))
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 5000 * 400  # a batch of records, not the 10 MB of payloads
    assert form_of(pack, key(4321)) == payload and pack.face_key(key(-4321)) == key(4321)
    pack.save()
    assert form_of(pack_at(tmp_path), key(5000)) == payload


def test_saving_keeps_what_the_build_used_and_no_more_than_twice_as_much(tmp_path):
    pack = pack_at(tmp_path)
    for n in range(3000):
        pack.put(b"F", key(n), b"old")
    pack.save()
    pack = pack_at(tmp_path)
    for n in range(100):
        pack.put(b"F", key(10_000 + n), b"new")
    assert form_of(pack, key(2999)) == b"old"
    pack.save()
    kept = pack_at(tmp_path)
    assert all(kept.has_face(key(10_000 + n)) for n in range(100)) and kept.has_face(key(2999))
    assert len(rows_of(tmp_path / "faces" / "p.sqlite")) == 2 * 101 + 1000


def test_a_full_disk_keeps_the_records_in_memory_and_the_build_going(tmp_path, monkeypatch):
    pack = pack_at(tmp_path)
    for n in range(600):
        pack.put(b"F", key(n), bytes([n % 256]) * 2000)  # the first batches reach this build's own file
    written = packs_module.write_rows

    def refuse(db, rows):
        if db.execute("PRAGMA database_list").fetchone()[2]:  # a file, not memory
            raise sqlite3.OperationalError("database or disk is full")
        written(db, rows)
    monkeypatch.setattr(packs_module, "write_rows", refuse)
    for n in range(600, 1200):
        pack.put(b"F", key(n), bytes([n % 256]) * 2000)
    assert all(form_of(pack, key(n)) == bytes([n % 256]) * 2000 for n in (0, 599, 600, 1199))
    monkeypatch.setattr(packs_module, "write_rows", written)
    pack.save()
    assert form_of(pack_at(tmp_path), key(1199)) == bytes([1199 % 256]) * 2000


def test_a_pack_with_no_temporary_folder_keeps_its_records_in_memory(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(30, "Read-only file system")
    monkeypatch.setattr(packs_module.tempfile, "mkdtemp", refuse)
    pack = FacePack(None)
    for n in range(600):
        pack.put(b"F", key(n), b"%d" % n)
    assert form_of(pack, key(3)) == b"3" and Handoff.make() is None
    pack.save()
    assert form_of(pack, key(599)) == b"599"


def test_shared_repr_is_repr_of_pages_that_share_their_marks():
    """pdf_digest hashes shared_repr(pages): the very text repr gives, whatever the pages share."""
    from pnpgen.digests import shared_repr
    from pnpgen.press.impose import Item, SheetSpec, impose
    from pnpgen.project.model import Size
    from pnpgen.units import mm

    card = Size(mm(63), mm(88))
    for spec in (SheetSpec(Size(mm(210), mm(297))), SheetSpec(Size(mm(210), mm(297)), gutterfold=True),
                 SheetSpec(Size(mm(210), mm(297)), duplex="short", back_offset=(mm(1), mm(-0.5)))):
        pages = impose([Item(f"front{n}", "back" if n % 3 else None, card, f"#{n}") for n in range(40)], spec)
        assert pages[0].marks is pages[2].marks or spec.gutterfold or spec.back_offset != (0.0, 0.0)
        assert shared_repr(pages) == repr(pages)
    assert shared_repr([]) == "[]"


def test_two_builds_saving_at_once_leave_a_pack_whose_records_all_check(tmp_path):
    def fill_and_save(first: int):
        pack = pack_at(tmp_path)
        for n in range(first, first + 2000):
            pack.put(b"F", key(n), b"%d" % n * 50)
        pack.save()
        pack.close()  # a forked process leaves without cleaning up: its own file goes now
    other = Background(lambda: fill_and_save(0))
    fill_and_save(1000)
    other.wait()
    pack = pack_at(tmp_path)
    found = {n: form_of(pack, key(n)) for n in range(3000)}
    # Every record there is whole. A save that waited too long for the other's lock (a loaded machine) gives up
    # and costs only hits, so what is certain is that one build's records are all kept, not both builds'.
    assert all(value in (None, b"%d" % n * 50) for n, value in found.items())
    assert all(found[n] for n in range(2000)) or all(found[n] for n in range(1000, 3000))


def test_a_save_keeps_the_fitted_text_of_every_face_it_finds(tmp_path, monkeypatch):
    """A build that finds a card's face reads none of its text() records, yet they are the face's: a save keeps
    them (the face's R record names them), so a template edit that moves no text refits none, however many
    builds came between."""
    monkeypatch.setattr(records, "OLDER", 0)  # a save prunes whatever it can
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    front = project / "templates" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8") + "".join(
        f'{{{{ text(card.name ~ "{n}", 2, {30 + 4 * n}, 20, 4, size=6) }}}}\n' for n in range(6)), encoding="utf-8")
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("          - {name: 弓,", "".join(
        f"          - {{name: 札{n}, number: {n}}}\n" for n in range(20)) + "          - {name: 弓,"), encoding="utf-8")
    options = Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False)
    pnpgen.build(project, options)
    for old, new in (("札3,", "札三,"), ("札4,", "札四,")):  # builds that find every other face
        cards.write_text(cards.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        pnpgen.build(project, options)
    fitted = []
    monkeypatch.setattr(TextFitter, "fit_now", lambda fitter, *args: fitted.append(args) or Markup(""))
    front.write_text(front.read_text(encoding="utf-8").replace('stroke="#7a2"', 'stroke="#27a"'), encoding="utf-8")
    report = pnpgen.build(project, options)
    assert report.renders == 24 and fitted == []  # every front again, from the text() records the cache kept
