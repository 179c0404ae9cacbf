"""Turn the faces a build writes into notes on what would not print: type, lines and images too small.

These are the cheap checks of `pnpgen preflight` (faces/print_checks.py's inspect_sizes), run on each
distinct face of the components' PDFs being written, from the size marks the face store keeps beside its
form (faces/size_marks.py): a build renders nothing again for them, so it names the component and leaves the
template line to preflight.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..store.pack import FacePack

KEPT_FACES = 1 << 15  # faces whose flaws a process remembers; then it starts afresh
_FLAWS: dict[bytes, list] = {}  # form record checksum -> the flaws of a face showing no image (watch, serve)


def note_print_flaws(outputs, forms: Mapping, pack: FacePack | None, root: Path) -> list[str]:
    """One note per component and check: the first face's flaw, and how many faces of the component show one.
    outputs: the components' PDFs (those with a bleed; a print-and-play PDF places the same faces); the size
    marks of their faces are those the pack keeps beside each form, or read from forms[key]."""
    from ..faces.print_checks import image_sizes  # imported here: a build writing nothing never inspects a face

    pixels = image_sizes(root)
    notes, seen = [], set()
    for output in outputs:
        if output.bleed is None:
            continue
        keys = dict.fromkeys(p.face for page in output.pages for p in page.placements if p.face not in seen)
        seen.update(keys)
        found: dict[str, list] = {}
        for key in keys:
            for flaw in face_flaws(pack, key, forms, pixels):
                found.setdefault(flaw.check, []).append((key, flaw.message))
        name = f"{output.target.parent.name}/{output.target.stem}"
        for check, flaws in found.items():
            faces = len({key for key, _ in flaws})
            also = f" (on {faces} faces)" if faces > 1 else ""
            notes.append(f"{name}: {flaws[0][1]}{also}; `pnpgen preflight` names the template line")
    return notes


def face_flaws(pack: FacePack | None, key: str, forms: Mapping, pixels) -> list:
    """The print flaws of one face. A face that shows no image has the flaws of its form alone, and a form record's
    checksum is a function of its bytes: a process that builds again (watch, serve) inspects only new forms."""
    from ..faces.print_checks import inspect_sizes
    from ..faces.size_marks import face_size_marks

    check = pack.form_checksum(key) if pack is not None else None
    if check is not None and check in _FLAWS:
        return _FLAWS[check]
    marks = face_size_marks(pack, key, forms.__getitem__)
    flaws = inspect_sizes(marks, pixels)
    if check is not None and not any(mark.image for mark in marks):
        if len(_FLAWS) >= KEPT_FACES:
            _FLAWS.clear()
        _FLAWS[check] = flaws
    return flaws
