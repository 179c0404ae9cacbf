"""Turn a face's form into its size marks (the text, lines and images that may print too small) and a record of the
face store that keeps them beside the form, and back.

A build notes type, lines and images too small to print on every face it writes (pipeline/print_notes.py);
none of those checks reads where a mark is, only its size, its text and its image, all of which the form
alone decides. So they are worked out once, when the form is made: the marks the checks find too small, and every
image (its pixels, which may change, decide). A form the painter saw show no image, nothing smaller than prints
and no transform but the face's own has none, so it is not read back. The marks are kept under the face's key with
the checksum of the form record they were read from (the SHA-256 of its bytes, store/records.py): a record read
back for another form (one painted again with other fonts) is stale, and refused like a damaged one; the marks are
then read from the form again.
"""
from __future__ import annotations

import json

from ..store.pack import MARKS, FacePack
from .form import FaceForm, is_number
from .form_marks import form_marks
from .marking import Mark

MAGIC = b"pnpgen size marks 2\n"  # 2: only the marks that may print too small
KINDS = ("text", "stroke", "image")  # the marks the size checks look at (faces/print_checks.py's check_sizes)
KEPT_FACES = 1 << 15  # faces whose flaws a process remembers; then it starts afresh
# A face that shows no image has the print flaws of its form alone, and a form record's checksum is a function of
# its bytes: a process inspects each such form once, however many builds it runs (watch, serve).
_FLAWS: dict[bytes, tuple] = {}  # form record checksum -> (the flaws, the number of the pack of the build finding them)


def size_marks(form: FaceForm) -> list[Mark]:
    """The form's text and stroke marks that print too small and its images, in the order it paints them, without
    their boxes."""
    from .print_checks import check_sizes  # imported here: a build that makes no form inspects none

    if form.least is not None and not any(check_sizes(Mark(kind, (), None, size=size), None)
                                          for kind, size in zip(("text", "stroke"), form.least)):
        return []  # the smallest it shows prints: none of its marks would be kept
    return [Mark(m.kind, (), None, size=m.size, text=m.text, image=m.image, inches=m.inches)
            for m in form_marks(form, 0.0) if m.kind == "image" or m.kind in KINDS and check_sizes(m, None)]


def marks_record(form_check: bytes, marks: list[Mark]) -> bytes:
    """The store's record of the marks read from the form whose record's checksum is form_check."""
    rows = [[m.kind, m.size, m.text, m.image, list(m.inches)] for m in marks]
    body = json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return MAGIC + form_check + body


def read_marks(payload: bytes, form_check: bytes) -> list[Mark] | None:
    """The marks a record keeps, if it was made from the form record with this checksum and holds only marks;
    else None."""
    start = len(MAGIC) + len(form_check)
    if not payload.startswith(MAGIC) or payload[len(MAGIC):start] != form_check:
        return None
    try:
        rows = json.loads(payload[start:].decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(rows, list) or not all(is_row(row) for row in rows):
        return None
    return [Mark(kind, (), None, size=size, text=text, image=image, inches=tuple(inches))
            for kind, size, text, image, inches in rows]


def face_size_marks(pack: FacePack | None, key: str, form_of) -> list[Mark]:
    """The size marks of the face, from the record kept beside its form when it is that form's, else read from
    the form (form_of(key)) and kept for the builds after."""
    check = pack.form_checksum(key) if pack is not None else None
    kept = pack.get(MARKS, key) if check is not None else None
    marks = read_marks(kept, check) if kept is not None else None
    if marks is None:
        marks = size_marks(form_of(key))
        if check is not None:
            pack.put(MARKS, key, marks_record(check, marks))
    return marks


def keep_size_marks(pack: FacePack, key: str, form: FaceForm) -> None:
    """Keep the size marks of a form just stored under key beside it, so no build reads them from it again."""
    check, marks = pack.form_checksum(key), size_marks(form)
    pack.put(MARKS, key, marks_record(check, marks))
    if not any(mark.image for mark in marks):
        remember_flaws(check, marks, None, pack.number)


def face_flaws(pack: FacePack | None, key: str, form_of, pixels) -> tuple:
    """The print flaws of a face (faces/print_checks.py's inspect_sizes), from its size marks (face_size_marks);
    pixels(href): an image's size in pixels."""
    check = pack.form_checksum(key) if pack is not None else None
    found = _FLAWS.get(check) if check is not None else None
    if found is None:
        return remember_flaws(check, face_size_marks(pack, key, form_of), pixels, pack.number if pack else None)
    if found[1] != pack.number:  # found by an earlier build: its record is read all the same (from memory, mostly),
        pack.get(MARKS, key)  # for a save keeps the records its build read
    return found[0]


def remember_flaws(check: bytes | None, marks: list[Mark], pixels, finder: int | None) -> tuple:
    from .print_checks import inspect_sizes  # imported here: a build that makes no form inspects none

    flaws = tuple(inspect_sizes(marks, pixels))
    if check is not None and not any(mark.image for mark in marks):
        if len(_FLAWS) >= KEPT_FACES:
            _FLAWS.clear()
        _FLAWS[check] = (flaws, finder)
    return flaws


def is_row(row) -> bool:
    return (isinstance(row, list) and len(row) == 5 and row[0] in KINDS and is_number(row[1])
            and isinstance(row[2], str) and isinstance(row[3], str) and isinstance(row[4], list)
            and len(row[4]) in (0, 2) and all(is_number(v) for v in row[4]))
