"""Turn PDFs this build wrote into one, copying the pages asked for with the objects they use, not redrawing.

The print-and-play PDF is made so: each of its pages that is a page of a component PDF is copied from
that PDF, and the sheets only it has (pieces of several components on one sheet) are drawn into a PDF of
their own and copied from there. The parts are this build's own output (write_pdf's bytes, never a file
read back from the output folder), so their layout is known: an xref table, direct /Length integers, a
flat page tree. The objects a chosen page reaches are copied with new numbers; its forms and font subsets
stay as they are. Only a new page tree, catalog and document information are written.
"""
from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .impose import Page

_REFERENCE = re.compile(rb"(\d+) 0 R")
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_TRAILER_REF = re.compile(rb"/(Root|Info) (\d+) 0 R")
_PAGES = re.compile(rb"/Pages (\d+) 0 R")
_KIDS = re.compile(rb"/Kids \[([^\]]*)\]")
_LENGTH = re.compile(rb"/Length (\d+)")
_HEADER = re.compile(rb"(\d+) 0 obj\n")
EPOCH = "D:20000101000000+00'00'"  # what reportlab's invariant mode writes, so merged PDFs stay reproducible


def merge_pdfs(parts: Sequence[bytes | None], *, title: str, author: str = "pnpgen", subject: str = "",
               creator: str = "pnpgen", order: list[tuple[int, int]] | None = None) -> bytes:
    """One PDF of the pages order names, as (part, page number from 0) pairs (default: every page of every
    part, in order), with the given document information; a page appears at most once."""
    pages_number, catalog_number, info_number = 1, 2, 3
    next_number = 4
    body: list[bytes] = []
    numbers: list[int] = []
    placed: dict[tuple[int, int], int] = {}  # (part, page) -> its object number in the merged PDF
    sequence = [] if order is None else list(order)
    if len(set(sequence)) != len(sequence):
        raise ValueError("a page appears twice in the merged PDF")
    for index, data in enumerate(parts):
        if data is None:  # a part none of whose pages is asked for
            continue
        objects, root, info = read_objects(data)
        catalog = objects[root][0]
        tree = int(_PAGES.search(catalog).group(1))
        kids = [int(ref) for ref in _REFERENCE.findall(_KIDS.search(objects[tree][0]).group(1))]
        if order is None:
            sequence += [(index, n) for n in range(len(kids))]
        chosen = sorted({n for i, n in sequence if i == index})
        kept = reachable(objects, [kids[n] for n in chosen], {root, info, tree})
        renumber = {tree: pages_number}
        for old in kept:
            renumber[old] = next_number
            next_number += 1
        placed.update(((index, n), renumber[kids[n]]) for n in chosen)
        for old in kept:
            head, tail = objects[old]
            head = _REFERENCE.sub(lambda m: b"%d 0 R" % renumber[int(m.group(1))], head)
            numbers.append(renumber[old])
            body.append((b"%d 0 obj\n" % renumber[old] + head, tail))
    kids = [placed[entry] for entry in sequence]
    count = len(kids)
    tree = b"<<\n/Count %d /Kids [ %s ] /Type /Pages\n>>\nendobj\n" % (count, b" ".join(b"%d 0 R" % k for k in kids))
    catalog = b"<<\n/PageMode /UseNone /Pages %d 0 R /Type /Catalog\n>>\nendobj\n" % pages_number
    info = ("<<\n/Author {} /CreationDate ({}) /Creator {} /Keywords () /ModDate ({}) /Producer (pnpgen) "
            "/Subject {} /Title {} /Trapped /False\n>>\nendobj\n").format(
        encode_text_string(author), EPOCH, encode_text_string(creator), EPOCH, encode_text_string(subject), encode_text_string(title)).encode("ascii")
    objects = [(pages_number, (b"%d 0 obj\n" % pages_number + tree, b"")),
               (catalog_number, (b"%d 0 obj\n" % catalog_number + catalog, b"")),
               (info_number, (b"%d 0 obj\n" % info_number + info, b""))] + list(zip(numbers, body))
    objects.sort(key=lambda item: item[0])
    out: list[bytes | memoryview] = [b"%PDF-1.4\n%\x93\x8c\x8b\x9e pnpgen\n"]
    offsets = {}
    position = len(out[0])
    for number, (head, tail) in objects:
        offsets[number] = position
        out += [head, tail]
        position += len(head) + len(tail)
    size = next_number
    xref = [b"xref\n0 %d\n0000000000 65535 f \n" % size] + [b"%010d 00000 n \n" % offsets[n] for n in range(1, size)]
    hasher = hashlib.md5()  # noqa: S324 - a document ID, not security
    for chunk in out:
        hasher.update(chunk)
    identity = hasher.hexdigest().encode("ascii")
    trailer = (b"trailer\n<<\n/ID [<%s><%s>]\n/Info %d 0 R\n/Root %d 0 R\n/Size %d\n>>\nstartxref\n%d\n%%%%EOF\n"
               % (identity, identity, info_number, catalog_number, size, position))
    return b"".join(out + xref + [trailer])


def plan_merge(parts: Sequence[Sequence[Page]], pages: Sequence[Page]) -> tuple[list[tuple[int, int]], list[Page]]:
    """Where each of pages comes from, for merge_pdfs's order: (part, page) for a page one of the parts holds
    (the same object, laid out once), else (len(parts), k) for the k-th of the pages no part holds, which
    are returned to be drawn into one more part."""
    where = {id(page): (index, number) for index, part in enumerate(parts) for number, page in enumerate(part)}
    order, drawn = [], []
    for page in pages:
        found = where.get(id(page))
        if found is None:
            found = (len(parts), len(drawn))
            drawn.append(page)
        order.append(found)
    return order, drawn


def reachable(objects: dict, starts: list[int], skipped: set[int]) -> list[int]:
    """The objects the starts refer to, directly or not (not through skipped ones: the page tree, catalog
    and document information are written anew), in number order."""
    seen, stack = set(), list(starts)
    while stack:
        number = stack.pop()
        if number in seen or number in skipped:
            continue
        seen.add(number)
        stack += [int(ref) for ref in _REFERENCE.findall(objects[number][0])]
    return sorted(seen)


def read_objects(data: bytes) -> tuple[dict[int, tuple[bytes, bytes | memoryview]], int, int]:
    """number -> (the object's text up to its stream, what follows it up to and including endobj), Root, Info.
    Streams are views into data, not copies: a 10,000-card deck's PDF is not held twice."""
    view = memoryview(data)
    start = int(_STARTXREF.search(data[-64:]).group(1))
    trailer = data[data.index(b"trailer", start):]
    refs = {name.decode(): int(number) for name, number in _TRAILER_REF.findall(trailer)}
    lines = data[start:data.index(b"trailer", start)].split(b"\n")
    first, count = (int(v) for v in lines[1].split())
    objects = {}
    for index, line in enumerate(lines[2:2 + count]):
        number = first + index
        if line.endswith(b"f") or line.endswith(b"f "):
            continue
        offset = int(line[:10])
        header = _HEADER.match(data, offset)
        if header is None or int(header.group(1)) != number:
            raise ValueError(f"object {number} is not where the xref says")
        body = header.end()
        stream = data.find(b"\nstream\n", body)
        end = data.find(b"endobj\n", body)
        if stream != -1 and stream < end:
            head = data[body:stream + len(b"\nstream\n")]
            length = int(_LENGTH.search(head).group(1))
            end = data.index(b"endobj\n", stream + len(b"\nstream\n") + length)
            objects[number] = (head, view[stream + len(b"\nstream\n"):end + len(b"endobj\n")])
        else:
            objects[number] = (data[body:end], b"endobj\n")
    return objects, refs["Root"], refs["Info"]


def encode_text_string(text: str) -> str:
    """A PDF text string: UTF-16BE with its byte order mark, in hex (any text, nothing to escape)."""
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"
