"""Turn the faces a build places into notes on what would not print: type, lines and images too small.

These are the cheap checks of `pnpgen preflight` (faces/print_checks.py's inspect_sizes), run on each
distinct face of the components' PDFs, written or up to date, from the size marks the face store keeps beside its
form (faces/size_marks.py): a build renders nothing again for them, so it names the component and leaves the
template line to preflight.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..store.pack import FacePack


def note_print_flaws(outputs, forms: Mapping, pack: FacePack | None, root: Path) -> list[str]:
    """One note per component and check: the first face's flaw, and how many faces of the component show one.
    outputs: the components' PDFs (a print-and-play PDF, with no bleed of its own or its component's, places the
    same faces); the size marks of their faces are those the pack keeps beside each form, or read from forms[key]."""
    from ..faces.print_checks import image_sizes  # imported here: a build writing nothing never inspects a face
    from ..faces.size_marks import face_flaws

    pixels = image_sizes(root)
    notes, seen = [], set()
    for output in outputs:
        if output.bleed is None or output.same_as is not None:
            continue
        keys = dict.fromkeys(p.face for page in output.pages for p in page.placements if p.face not in seen)
        seen.update(keys)
        found: dict[str, list] = {}
        for key in keys:
            for flaw in face_flaws(pack, key, forms.__getitem__, pixels):
                found.setdefault(flaw.check, []).append((key, flaw.message))
        name = f"{output.target.parent.name}/{output.target.stem}"
        for check, flaws in found.items():
            faces = len({key for key, _ in flaws})
            also = f" (on {faces} faces)" if faces > 1 else ""
            notes.append(f"{name}: {flaws[0][1]}{also}; `pnpgen preflight` names the template line")
    return notes
