"""Turn a print-and-play PDF and its game's rulebook PDF into one: the rulebook's pages after the components'.

pypdf copies the rulebook's pages with everything they use (each of its fonts once, for all its pages) behind the
print-and-play PDF's own objects, which it keeps as they are: the catalog (its duplex preset), the document
information and every page. The whole PDF is held in memory while it is rewritten."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import BinaryIO

from ..files.atomic import write_atomically


def append_pdf(path: Path, appendix: Path) -> None:
    """Rewrite the PDF at path with appendix's pages at its end (the caller makes them start on a new sheet)."""
    from pypdf import PdfReader, PdfWriter  # imported here: a build that appends nothing never loads pypdf
    from pypdf.generic import ArrayObject, ByteStringObject

    components, rules = Path(path).read_bytes(), Path(appendix).read_bytes()

    def write(out: BinaryIO) -> None:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(components)))
        for page in PdfReader(io.BytesIO(rules)).pages:
            writer.add_page(page)
        # pypdf makes random file identifiers; a fixed one made from both files keeps the bytes the same run to run
        identity = ByteStringObject(hashlib.md5(components + rules).digest())  # noqa: S324 - an ID, not security
        writer._ID = ArrayObject([identity, identity])
        writer.write(out)

    write_atomically(Path(path), write, "PDF")

