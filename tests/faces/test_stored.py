"""A face's form record is drawn from only when today's fonts are those it was made with and it checks: any
other is a miss, and the face is rendered again from its template."""
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.faces.form import FaceForm
from pnpgen.store.records import checksum

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def build(project: Path, out: Path, cache: Path) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache, check=False))


def pdf_bytes(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def rewrite_forms(cache: Path, change) -> int:
    """Replace every form record's payload by change(its form) (None: left as it is), with a checksum that holds:
    what only the form's own check can catch. Returns how many were replaced."""
    (path,) = sorted(cache.rglob("*.sqlite"))
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT key, payload FROM records WHERE kind = ?", (b"F",)).fetchall()
        changed = [(key, change(FaceForm.from_bytes(payload))) for key, payload in rows]
        changed = [(payload, checksum(b"F", key, payload), b"F", key) for key, payload in changed if payload]
        db.executemany("UPDATE records SET payload = ?, checksum = ? WHERE kind = ? AND key = ?", changed)
    return len(changed)


def made_with_other_fonts(form: FaceForm) -> bytes | None:
    """The record as a build with other font files (other digests) would have left it."""
    if not form.fonts:
        return None
    form.digests = tuple("0" * 32 for _ in form.digests)
    return form.to_bytes()


def smuggling(form: FaceForm) -> bytes:
    """The record with content that is not only drawing (a literal string)."""
    form.content = zlib.compress(b"BT /F0 5 Tf (smuggled) Tj ET")
    form.groups = ()
    return form.to_bytes()


@pytest.mark.parametrize("change", [made_with_other_fonts, smuggling])
def test_a_form_record_that_cannot_draw_is_a_miss_and_its_face_is_rendered_again(tmp_path, change):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    first = build(project, tmp_path / "first", tmp_path / "cache")
    assert (first.renders, first.faces) == (4, 4)
    changed = rewrite_forms(tmp_path / "cache", change)
    assert changed == 4  # every face of the project shows text
    again = build(project, tmp_path / "again", tmp_path / "cache")
    assert (again.renders, again.faces) == (changed, changed)
    assert pdf_bytes(tmp_path / "again") == pdf_bytes(tmp_path / "first")
    third = build(project, tmp_path / "third", tmp_path / "cache")  # the records made again are kept
    assert (third.renders, third.faces) == (0, 0) and pdf_bytes(tmp_path / "third") == pdf_bytes(tmp_path / "first")


def test_checking_a_record_reads_the_font_files_painting_uses_and_gives_reportlab_none(monkeypatch):
    """The digests a record is checked against are those its fonts were painted with, read by the font model
    from the files; reportlab is handed a font only for what a canvas sets."""
    from reportlab.pdfbase import pdfmetrics

    from pnpgen.faces import fonts
    from pnpgen.faces.font import font_named
    from pnpgen.faces.form import shape_of
    from pnpgen.faces.images import ImageChecker
    from pnpgen.faces.stored import StoredForms

    book = fonts.FontBook(fonts.font_dirs(FIXTURES / "minimal"))
    stored = StoredForms(None, book, ImageChecker(FIXTURES / "minimal"))
    selectors = [("", "normal", "normal"), ("Noto Sans JP", "bold", "normal"), ("Unknown", "700", "italic")]
    with monkeypatch.context() as patched:
        patched.setattr(pdfmetrics, "registerFont", lambda *args: pytest.fail("reportlab was given a font"))
        shapes = [shape_of(0, 0, [selector], [font_named(stored.font_of(selector)).digest], [], [])
                  for selector in selectors]
        found = [(shape.digests[0], stored.fonts_of(shape)[1][0]) for shape in shapes]
    for selector, (digest, count) in zip(selectors, found):
        font = font_named(stored.font_of(selector))
        assert (digest, count) == (font.digest, font.file.num_glyphs)
    assert found[0] != found[1] == found[2]  # an unknown family is the default's, in the weight asked
    assert stored.fonts_of(shape_of(0, 0, [selectors[0]], ["0" * 32], [], [])) is None  # made with another file


def test_a_process_that_builds_again_draws_the_records_it_checked_without_parsing_them_again(tmp_path, monkeypatch):
    """watch and serve: a record checked in an earlier build of the process, naming no image, is drawable while its
    fonts are, without parsing it again to say so; once its fonts are not (a font file changed), it is a miss."""
    from pnpgen.faces import stored

    monkeypatch.setattr(stored, "_CHECKED", {})
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    first = build(project, tmp_path / "first", tmp_path / "cache")  # made here, so trusted as made
    parsed = []
    made = FaceForm.from_bytes.__func__
    monkeypatch.setattr(FaceForm, "from_bytes", classmethod(lambda cls, data, check=True: parsed.append(check)
                                                            or made(cls, data, check)))
    second = build(project, tmp_path / "second", tmp_path / "cache")  # read from the cache's file: checked once
    assert (first.renders, second.renders) == (4, 0) and parsed.count(True) == 4
    written, parsed[:] = parsed.count(False), []  # the writer parses the first form of each shape it writes
    third = build(project, tmp_path / "third", tmp_path / "cache")
    assert third.renders == 0 and parsed == [False] * written
    assert pdf_bytes(tmp_path / "second") == pdf_bytes(tmp_path / "third") == pdf_bytes(tmp_path / "first")
    monkeypatch.setattr(stored.StoredForms, "fonts_of", lambda self, shape: None)  # as after a font file changed
    assert build(project, tmp_path / "fourth", tmp_path / "cache").renders == 4
