"""A process that builds again keeps the face records its builds read: the next build reads them without asking the
file, makes the same PDFs, and what the process writes or forgets under a key replaces what it read."""
import shutil

import pnpgen
from pnpgen import Options
from pnpgen.faces import size_marks
from pnpgen.store import recall, records
from pnpgen.store.pack import FacePack
from pnpgen.store.recall import READS, keep_reads

from slips import edit


def test_a_build_again_reads_the_kept_records_and_makes_the_same_pdfs(project, tmp_path):
    options = Options(cache_dir=tmp_path / "cache", out_dir=tmp_path / "out", only="components")
    pnpgen.build(project, options)
    keep_reads()
    shutil.rmtree(tmp_path / "out")
    pnpgen.build(project, options)  # reads the file, and keeps what it read
    first = {p.name: p.read_bytes() for p in (tmp_path / "out").rglob("*.pdf")}
    assert READS.rows and {kind for _, kind, _ in READS.rows} >= {b"R", b"F"}
    for pack in (tmp_path / "cache" / "faces").glob("*.sqlite*"):
        pack.unlink()  # the file gone: the kept records are all the next build has
    shutil.rmtree(tmp_path / "out")
    report = pnpgen.build(project, options)
    assert report.renders == 0 and {p.name: p.read_bytes() for p in (tmp_path / "out").rglob("*.pdf")} == first


def test_what_the_process_writes_or_forgets_replaces_what_it_read(tmp_path):
    keep_reads()
    path = tmp_path / "faces.sqlite"
    key, face = "ab" * 32, "cd" * 32
    first = FacePack(path)
    first.put(b"R", key, bytes.fromhex(face))
    first.save()
    first.close()
    reader = FacePack(path)
    assert reader.get(b"R", key) == bytes.fromhex(face) and READS.get(str(path), b"R", bytes.fromhex(key))
    reader.put(b"R", key, bytes.fromhex("ef" * 32))  # made again by this process
    assert READS.get(str(path), b"R", bytes.fromhex(key)) is None
    reader.save()
    reader.close()
    assert FacePack(path).get(b"R", key) == bytes.fromhex("ef" * 32)


def test_the_kept_records_stay_within_their_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(recall, "KEPT_BYTES", 100)
    keep_reads()
    for n in range(10):
        READS.keep("file", b"F", bytes([n]), (n, b"x" * 30, b"check"))
    assert READS.size <= 100 and [key for _, _, key in READS.rows] == [bytes([7]), bytes([8]), bytes([9])]


def test_a_process_building_again_keeps_the_records_it_answers_from_memory(project, tmp_path, monkeypatch):
    """pnpgen watch: a save's build finds each face's print flaws in the process's memory, yet the marks records
    they came from stay in use, so that a save prunes none of them and the next process reads no form for them."""
    monkeypatch.setattr(records, "OLDER", 0)  # a save prunes whatever it can
    options = Options(cache_dir=tmp_path / "cache", out_dir=tmp_path / "out", only="components")
    pnpgen.build(project, options)
    keep_reads()
    for old, new in (("盾", "大盾"), ("大盾", "小盾")):  # two saves: the second answers every face's flaws from memory
        edit(project, "cards.yaml", f"{{name: {old},", f"{{name: {new},")
        pnpgen.build(project, options)
    read_back = []
    monkeypatch.setattr(size_marks, "form_marks", lambda form, at: read_back.append(form) or [])
    READS.on = False  # a new process
    READS.rows.clear()
    size_marks._FLAWS.clear()
    shutil.rmtree(tmp_path / "out")
    pnpgen.build(project, options)
    assert read_back == []
