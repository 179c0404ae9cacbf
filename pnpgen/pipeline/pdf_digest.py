"""Turn a PDF's pages into the digest that says whether the PDF must be written again."""
from __future__ import annotations

import hashlib
from typing import Sequence

from .._version import __version__
from ..digests import feed_digest, shared_repr
from ..press.impose import Item, Page, SheetSpec
from ..project.model import Project


def pdf_digest(project: Project, assets: str, title: str, pages: list[Page], bleed: float | None,
               items: Sequence[Item] = (), spec: SheetSpec | None = None) -> str:
    """Pages name their faces by content hash (so a template edit changes only the PDFs whose faces it
    changes); assets covers what the SVG only names (image and font files). Pages imposed from items on a
    sheet spec (impose() is deterministic) are described by those: the faces in order, their size and labels,
    and the spec decide every placement and mark, in far less to hash than the pages' repr. Other pages (die-cut
    sheets) are fed some at a time: a deck's pages are never one string."""
    hasher = feed_digest(hashlib.sha256(), __version__, "pdf", project.name, assets, title, bleed, len(pages))
    if items and spec is not None:  # described some at a time too: a deck's items are never one string
        feed_digest(hasher, "imposed", spec, items[0].size, len(items))
        for start in range(0, len(items), 256):
            hasher.update("\n".join(f"{item.front!r} {item.back!r} {item.label!r}"
                                     for item in items[start:start + 256]).encode("utf-8") + b"\n")
        return hasher.hexdigest()
    for start in range(0, len(pages), 64):
        hasher.update(shared_repr(pages[start:start + 64]).encode("utf-8"))
    return hasher.hexdigest()
