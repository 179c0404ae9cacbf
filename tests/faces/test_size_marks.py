"""A face's size marks are read from its form when the form is made and kept beside it in the face store: a
rebuild's print notes read them back, and a record made from another form, or damaged, is refused and read again."""
import sqlite3
from pathlib import Path

import pnpgen
from pnpgen import Options
from pnpgen.faces.fonts import FontBook, font_dirs
from pnpgen.faces.form import FaceForm
from pnpgen.faces.images import ImageChecker
from pnpgen.faces.marking import Mark
from pnpgen.faces.size_marks import marks_record, read_marks, size_marks
from pnpgen.faces import size_marks as size_marks_module, stored
from pnpgen.faces.stored import StoredForms
from pnpgen.store.records import checksum

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HINT = "`pnpgen preflight` names the template line"


def build(tmp_path: Path) -> list[str]:
    """A build as a process of its own runs it: remembering no face it inspected or form it checked before."""
    size_marks_module._FLAWS.clear()
    stored._CHECKED.clear()
    report = pnpgen.build(FIXTURES / "planted-faults", Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache"))
    return [note for note in report.notes if note.endswith(HINT)]


def records(cache: Path, kind: bytes) -> dict[bytes, bytes]:
    (path,) = sorted(cache.rglob("*.sqlite"))
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT key, payload FROM records WHERE kind = ?", (kind,)).fetchall())


def marks_of_form(record: bytes) -> list[Mark]:
    """The size marks read from a form record, its fonts resolved as a build resolves them."""
    project = FIXTURES / "planted-faults"
    stored = StoredForms(None, FontBook(font_dirs(project)), ImageChecker(project))
    form = FaceForm.from_bytes(record)
    form.resolved_fonts = stored.fonts_of(form.shape)[0]
    return size_marks(form)


def replace_marks(cache: Path, payload_for) -> None:
    """Each face's marks record replaced by payload_for(its form record's checksum), with a checksum that holds."""
    (path,) = sorted(cache.rglob("*.sqlite"))
    checks = {key: checksum(b"F", key, form) for key, form in records(cache, b"F").items()}
    with sqlite3.connect(path) as db:
        db.executemany("UPDATE records SET payload = ?, checksum = ? WHERE kind = ? AND key = ?",
                       [(payload_for(check), checksum(b"M", key, payload_for(check)), b"M", key)
                        for key, check in checks.items()])


def rebuild(tmp_path: Path) -> list[str]:
    (tmp_path / "out" / "faults" / "suits.pdf").unlink()  # written again, from the faces the cache keeps
    return build(tmp_path)


def test_each_form_keeps_the_size_marks_read_from_it(tmp_path):
    build(tmp_path)
    forms, marks = records(tmp_path / "cache", b"F"), records(tmp_path / "cache", b"M")
    assert marks.keys() == forms.keys()
    for key, form in forms.items():
        assert read_marks(marks[key], checksum(b"F", key, form)) == marks_of_form(form)
    kinds = {mark.kind for key, form in forms.items() for mark in read_marks(marks[key], checksum(b"F", key, form))}
    assert kinds == {"text", "stroke", "image"}


def test_a_rebuild_reads_the_marks_kept_beside_the_form(tmp_path):
    build(tmp_path)
    planted = [Mark("text", (), None, size=3.0, text="kept marks")]
    replace_marks(tmp_path / "cache", lambda check: marks_record(check, planted))
    assert rebuild(tmp_path) == [f"faults/suits: text “kept marks” set at 3.0 pt; expected at least 6 pt to print "
                                 f"legibly (on 4 faces); {HINT}"]


def test_marks_kept_for_another_form_are_refused_and_read_again(tmp_path):
    first = build(tmp_path)
    other = checksum(b"F", b"\0" * 32, b"another form")
    replace_marks(tmp_path / "cache", lambda check: marks_record(other, []))  # stale: made from another form
    assert rebuild(tmp_path) == first
    forms, marks = records(tmp_path / "cache", b"F"), records(tmp_path / "cache", b"M")
    assert all(read_marks(marks[key], checksum(b"F", key, form)) == marks_of_form(form) for key, form in forms.items())


def test_a_marks_record_holding_anything_but_marks_is_refused(tmp_path):
    first = build(tmp_path)
    key, form = next(iter(records(tmp_path / "cache", b"F").items()))
    good = marks_record(checksum(b"F", key, form), [])
    for body in (b"{", b'{"a": 1}', b'[["text", "big", "", "", []]]', b'[["shading", 1, "", "", []]]',
                 b'[["image", 1, "", "x.png", [1, Infinity]]]'):
        assert read_marks(good[:-2] + body, checksum(b"F", key, form)) is None
    replace_marks(tmp_path / "cache", lambda check: marks_record(check, [])[:-2] + b"[[")
    assert rebuild(tmp_path) == first
