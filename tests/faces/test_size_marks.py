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


def paint_face(body: str, view: str, measure) -> FaceForm:
    from lxml import etree

    from pnpgen.faces.paint import svg_to_form

    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="{view}">{body}</svg>'
    return svg_to_form(etree.fromstring(svg), measure)


def test_a_painted_form_whose_least_sizes_print_has_the_marks_reading_it_back_gives():
    """What the painter knows of the smallest sizes decides only when reading the form back would keep no mark:
    faces with text and lines about the least print size, under the face's own scale or more, agree mark for
    mark with the marks read back from the form."""
    import random

    project = FIXTURES / "planted-faults"
    measure = StoredForms(None, FontBook(font_dirs(project)), ImageChecker(project)).font_of
    chooser, shortcut = random.Random(29), 0
    text = '<text x="5" y="{y}" font-family="Noto Sans JP" font-size="{size}"{extra}>カード{n}</text>'
    line = '<line x1="1" y1="{y}" x2="50" y2="{y}" stroke="#000" stroke-width="{width}"/>'
    around = ['', ' opacity="0.5"', ' transform="scale(1.01)"', ' clip-path="url(#c)"']
    for n in range(300):
        view = chooser.choice(["0 0 63 88", "0 0 63.5 88", "-3 -3 69 94", "0 0 630 880"])
        unit = 630 / float(view.split()[2]) / 10  # user units per mm
        parts = [text.format(y=10 + i * 5, n=n, size=round(chooser.uniform(2.0, 2.3) * unit, 4),
                             extra=chooser.choice(["", ' fill-opacity="0.4"'])) for i in range(chooser.randint(0, 3))]
        parts += [line.format(y=40 + i, width=round(chooser.uniform(0.08, 0.1) * unit, 5))
                  for i in range(chooser.randint(0, 2))]
        body = '<defs><clipPath id="c"><rect width="30" height="30"/></clipPath></defs>'
        body += f'<g{chooser.choice(around)}>{"".join(parts)}</g>'
        form = paint_face(body, view, measure)
        found = size_marks(form)
        least, form.least = form.least, None
        assert found == size_marks(form), body
        shortcut += least is not None and not found
    assert 30 < shortcut < 270  # both ways were taken
