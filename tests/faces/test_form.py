"""A face's form: content naming glyphs by ID, the same bytes in every PDF, kept in the pack and read back
only as drawing."""
import io
import re
import zlib
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from pnpgen.errors import PnpError
from pnpgen.store.cache import Cache
from pnpgen.faces.convert import Converter, Forms
from pnpgen.faces.fonts import FontBook, font_dirs
from pnpgen.faces.font import font_named, register_font, reportlab_name
from pnpgen.faces.form import FaceForm, glyph_ids
from pnpgen.press.impose import Item, SheetSpec, impose
from pnpgen.press.write_pdf import pdf_bytes
from pnpgen.project.model import Size
from pnpgen.units import mm

FIXTURE = Path(__file__).parent.parent / "fixtures" / "minimal"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="30mm" viewBox="0 0 40 30">'
       '<rect width="40" height="30" fill="#fc0" opacity="0.5"/>'
       '<text x="2" y="10" font-size="5">{text}</text><text x="2" y="20" font-size="4" font-weight="bold">太字 Bold</text></svg>')


@pytest.fixture(scope="module")
def fontbook():
    return FontBook(font_dirs(FIXTURE))


KEY = "ab" * 32  # face keys are SHA-256 digests


def form_of(fontbook, text: str) -> FaceForm:
    return Converter(fontbook, FIXTURE).face_form(KEY, SVG.format(text=text), "t.svg.j2")


def content_of(form: FaceForm) -> bytes:
    return zlib.decompress(form.content)


def test_text_is_shown_in_glyph_ids_of_the_font_file_with_the_text_they_stand_for(fontbook):
    form = form_of(fontbook, "札を引く")
    font = font_named(form.resolved_fonts[0]).file
    ids = font.glyph_ids("札を引く")
    assert b"<" + "".join(f"{g:04x}" for g in ids).encode() + b"> Tj" in content_of(form)
    assert sorted(zip(glyph_ids(form.glyphs[0]), form.glyphs[0][1])) == sorted(set(zip(ids, "札を引く")))
    assert form.states[0] == ("ca", 0.5) and b"/G0 gs" in content_of(form)


def test_a_form_is_the_same_bytes_in_every_document_it_is_placed_in(fontbook):
    """What makes a cached form reusable: no other face in the PDF changes its content stream."""
    shared = form_of(fontbook, "共通の札")
    other = form_of(fontbook, "ほかの字ばかり使う札 XYZ")
    size = Size(mm(40), mm(30))
    font = fontbook.resolve(None)
    streams = []
    for faces in ({"a": shared}, {"b": other, "a": shared}):
        pages = impose([Item(key, None, size) for key in faces], SheetSpec(paper=Size(mm(100), mm(100)), crop_marks=False))
        data = pdf_bytes(pages, faces, title="t", initial_font=font, bleed=0)
        reader = PdfReader(io.BytesIO(data))
        forms = [x.get_object() for page in reader.pages for x in page["/Resources"]["/XObject"].values()]
        streams.append({x.get_data() for x in forms})
        text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(data))
        assert "共通の札" in text
    assert content_of(shared) in streams[0] and content_of(shared) in streams[1]


def test_the_pack_keeps_forms_and_a_tampered_one_is_a_miss(tmp_path, fontbook):
    svg = SVG.format(text="記録")
    first = Converter(fontbook, FIXTURE, Cache(tmp_path / "cache"))
    made = first.face_form(KEY, svg, "t.svg.j2")
    first.pack.save()
    again = Converter(fontbook, FIXTURE, Cache(tmp_path / "cache"))
    read = again.form(KEY)
    assert read.content == made.content and again.conversions == 0
    record = again.pack.form_record(KEY)[0]
    uneven = FaceForm.from_bytes(record)
    uneven.glyphs[0] = (uneven.glyphs[0][0], uneven.glyphs[0][1] + "x")
    for tampered in (record.replace(b'"ca",0.5', b'"ca",5'), record.replace(b"ca", b"xx", 1), uneven.to_bytes(),
                     record[:-20] + zlib.compress(b"(smuggled) Tj")[:20], record[:len(record) // 2]):
        with pytest.raises(ValueError):
            FaceForm.from_bytes(tampered)
    evil = FaceForm.from_bytes(record)
    evil.content = zlib.compress(b"BT /F0 5 Tf (a string) Tj ET << /JS (x) >>")
    with pytest.raises(ValueError):
        FaceForm.from_bytes(evil.to_bytes())


@pytest.mark.parametrize("slip", ["digest", "glyph"])
def test_a_form_made_with_another_font_file_is_a_miss_painted_again(tmp_path, fontbook, slip):
    converter = Converter(fontbook, FIXTURE, Cache(tmp_path / "cache"))
    converter.face_form(KEY, SVG.format(text="字"), "t.svg.j2")
    stale = FaceForm.from_bytes(converter.pack.form_record(KEY)[0])
    if slip == "digest":
        stale.digests = tuple("0" * 32 for _ in stale.digests)
    else:  # a glyph the font does not have
        ids, text = stale.glyphs[0]
        stale.glyphs[0] = (b"\xfd\xe8" + ids[2:], text)  # ID 65000 first: the check must not trust the order
    converter.pack.store_form(KEY, stale.to_bytes())
    converter.pack.checked.clear()  # as in a fresh process
    converter.recent.clear()
    assert not converter.stored.holds(KEY) and converter.pack.form_record(KEY) == (None, False)  # forgotten
    with pytest.raises(PnpError):  # nothing but the SVG can draw it now
        converter.form(KEY)
    fresh = converter.face_form(KEY, SVG.format(text="字"), "t.svg.j2")
    assert converter.conversions == 2 and re.fullmatch(r"[0-9a-f]{32}", fresh.digests[0])
    assert max(glyph_ids(fresh.glyphs[0])) < font_named(fresh.resolved_fonts[0]).file.num_glyphs
    assert fresh.to_bytes() == converter.pack.form_record(KEY)[0] != stale.to_bytes()


@pytest.fixture
def reportlab_fonts_restored():
    """reportlab keeps its fonts for the process, one per PostScript name: a collection member registered here
    must not stand in for the bundled font of the same name in tests that run later in this process."""
    from reportlab.pdfbase import pdfmetrics

    from pnpgen.faces import font as font_model

    saved = dict(pdfmetrics._fonts), dict(pdfmetrics._dynFaceNames), dict(font_model._fonts)
    yield
    for registry, before in zip((pdfmetrics._fonts, pdfmetrics._dynFaceNames, font_model._fonts), saved):
        registry.clear()
        registry.update(before)


def test_a_font_of_a_collection_is_read_from_its_own_member(tmp_path, reportlab_fonts_restored):
    """Glyph IDs and widths come from the registered member of a collection, not the first, and agree with
    what reportlab measures in it (the rulebooks set type in it)."""
    from fontTools.ttLib import TTCollection, TTFont as ToolsFont
    from reportlab.pdfbase import pdfmetrics as metrics

    from pnpgen.faces.fonts import BUNDLED_FONTS

    collection = TTCollection()
    collection.fonts = [ToolsFont(str(BUNDLED_FONTS / "NotoSansJP-Regular.ttf"), lazy=True),
                        ToolsFont(str(BUNDLED_FONTS / "NotoSansJP-Bold.ttf"), lazy=True)]
    collection.save(str(tmp_path / "Both.ttc"))
    font = register_font("FormTestBoth", tmp_path / "Both.ttc", 1)
    assert font.file.postscript_name == "NotoSansJP-Bold"
    text = "太字 Bold"
    assert font.width(text, 1000) == metrics.stringWidth(text, reportlab_name("FormTestBoth"), 1000)


def test_a_checked_record_goes_to_the_writer_as_bytes_and_writes_the_same_pdf(tmp_path, fontbook):
    keys = [f"{n:02x}" * 32 for n in range(1, 6)]
    converter = Converter(fontbook, FIXTURE, Cache(tmp_path / "cache"))
    for n, key in enumerate(keys):
        converter.face_form(key, SVG.format(text=f"札{n}を引く"), "t.svg.j2")
    converter.recent.clear()
    raw = converter.form(keys[1], raw=True)
    assert isinstance(raw, FaceForm) and raw.record is not None and not raw.glyphs  # checked here: not parsed
    data = raw.record[0]
    parsed = FaceForm.from_bytes(data)
    assert raw.content == parsed.content and raw.resolved_fonts == converter.form(keys[1]).resolved_fonts
    assert raw.parsed().glyphs == parsed.glyphs and raw.parsed().resolved_fonts == raw.resolved_fonts
    assert raw.shape.fonts == parsed.fonts and len(converter.recent) == 1  # the raw one was not remembered
    converter.pack.checked.clear()  # as in a fresh process: an unchecked record is parsed and checked
    converter.recent.clear()
    assert converter.form(keys[2], raw=True).record is None
    assert converter.form(keys[3], raw=True).record is None and keys[3] in converter.pack.checked
    size = Size(mm(40), mm(30))
    pages = impose([Item(key, None, size) for key in keys + keys[:2]], SheetSpec(paper=Size(mm(100), mm(100))))
    font = fontbook.resolve(None)
    converter.pack.checked.clear()
    parsed = {key: converter.form(key) for key in keys}  # FaceForms, as a dict gives them
    for key in keys:
        converter.pack.checked.add(key)
    converter.recent.clear()
    written = pdf_bytes(pages, Forms(converter), title="t", initial_font=font, bleed=0)
    assert written == pdf_bytes(pages, parsed, title="t", initial_font=font, bleed=0)
    text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(written))
    assert all(f"札{n}を引く" in text for n in range(5)) and "太字 Bold" in text
