"""The streaming PDF writer: objects land where the cross-reference table says, and the bytes repeat."""
import hashlib
import io
import re

import pytest
from pypdf import PdfReader

from pnpgen.press import pdf_file
from pnpgen.press.pdf_file import FLUSH_SIZE, PdfFile, stream, text_string


def write_small(*outs, titles=("見本",)) -> None:
    pdf = PdfFile(outs)
    tree = pdf.reserve()  # referred to by the page before it is written
    content = pdf.add(stream(b"", b"0 0 1 rg 10 10 50 50 re f"))
    page = pdf.add(b"<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 100 100 ] /Contents %d 0 R >>" % (tree, content))
    pdf.put(tree, b"<< /Type /Pages /Count 1 /Kids [ %d 0 R ] >>" % page)
    catalog = pdf.add(b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    pdf.finish(catalog, [b"<< /Title %s >>" % text_string(title) for title in titles])


def test_every_object_is_where_the_xref_says_and_readers_open_it():
    out = io.BytesIO()
    write_small(out)
    data = out.getvalue()
    start = data.rindex(b"\nxref\n") + 1
    xref = data[start:]
    offsets = [int(line[:10]) for line in xref.split(b"\n")[3:] if line.endswith(b" n ")]
    for number, offset in enumerate(offsets, 1):
        assert data[offset:].startswith(b"%d 0 obj\n" % number)
    assert int(re.search(rb"startxref\n(\d+)", data).group(1)) == start
    reader = PdfReader(io.BytesIO(data), strict=True)
    assert len(reader.pages) == 1 and reader.metadata.title == "見本"


def test_same_objects_same_bytes_with_an_id_from_the_content():
    first, second = io.BytesIO(), io.BytesIO()
    write_small(first)
    write_small(second)
    assert first.getvalue() == second.getvalue()
    assert re.search(rb"/ID \[<([0-9a-f]{32})><\1>\]", first.getvalue())


def test_an_object_reserved_but_never_written_is_an_error():
    pdf = PdfFile([io.BytesIO()])
    pdf.reserve()
    with pytest.raises(ValueError):
        pdf.finish(1, [b"<< >>"])


def test_objects_reach_the_file_some_at_a_time_and_the_id_hashes_every_byte_before_the_xref():
    """Objects are gathered into writes of about FLUSH_SIZE bytes: the file grows while the document is
    made, memory holds no more than one such write, and the ID is the MD5 of what precedes the xref."""
    out = io.BytesIO()
    pdf = PdfFile([out])
    seen = []
    for number in range(200):
        pdf.add(stream(b"", bytes(range(256)) * 4, compress=False))
        seen.append(out.tell())
        assert pdf.position - out.tell() < FLUSH_SIZE
    assert 0 < seen[len(seen) // 2] < seen[-1]
    catalog = pdf.add(b"<< /Type /Catalog >>")
    pdf.finish(catalog, [b"<< >>"])
    data = out.getvalue()
    before = data[:data.rindex(b"\nxref\n") + 1]
    assert re.search(rb"/ID \[<([0-9a-f]{32})>", data).group(1) == hashlib.md5(before).hexdigest().encode()


def test_the_xref_table_made_some_entries_at_a_time_is_the_same_table(monkeypatch):
    whole, batched = io.BytesIO(), io.BytesIO()
    write_small(whole)
    monkeypatch.setattr(pdf_file, "XREF_BATCH", 2)  # 5 objects: entries 1-2, 3-4, 5
    write_small(batched)
    assert batched.getvalue() == whole.getvalue()
    xref = whole.getvalue()[whole.getvalue().rindex(b"\nxref\n") + 1:]
    assert xref.startswith(b"xref\n0 6\n0000000000 65535 f \n") and xref.count(b" 00000 n \n") == 5


def test_two_files_of_one_pdf_are_each_the_pdf_written_alone_under_its_own_title(monkeypatch):
    """The objects are made once for both files; each ends in its own Info, ID and trailer, as if written alone."""
    monkeypatch.setattr(pdf_file, "XREF_BATCH", 2)
    first, second, alone = io.BytesIO(), io.BytesIO(), io.BytesIO()
    write_small(first, second, titles=("見本", "もう一つの題"))
    write_small(alone, titles=("もう一つの題",))
    assert second.getvalue() == alone.getvalue() != first.getvalue()
    assert PdfReader(io.BytesIO(first.getvalue()), strict=True).metadata.title == "見本"
    assert PdfReader(io.BytesIO(second.getvalue()), strict=True).metadata.title == "もう一つの題"
