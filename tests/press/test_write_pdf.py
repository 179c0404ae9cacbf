"""Write real PDFs from imposed pages and read them back with pypdf and pypdfium2."""
from __future__ import annotations

import dataclasses
import hashlib
import io
from pathlib import Path

import pypdf
import pypdfium2
import pytest

from pnpgen.errors import PnpError
from pnpgen.faces.form import FaceForm
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.press import recurring as recurring_module, write_pdf as write_pdf_module
from pnpgen.press.impose import Item, Page, SheetSpec, impose
from pnpgen.project.model import Size
from pnpgen.units import mm, to_mm
from painted import painted
from pnpgen.press import pdf_file
from pnpgen.press.write_pdf import Document, form_name, write_document, write_pdf

FONT = "NotoSansJP-Regular"
A4 = Size(mm(210), mm(297))
LETTER = Size(mm(215.9), mm(279.4))
POKER = Size(mm(63), mm(88))
BLEED = mm(3)
RED, BLUE, GREEN = "#b3262d", "#224488", "#00aa00"


@pytest.fixture(scope="module", autouse=True)
def font():
    """The bundled font registered as a build registers it: once a process, so that the font model of the tests
    that run later in this process is the one their font book gives (registering it again under its name would
    replace it)."""
    assert FontBook([BUNDLED_FONTS]).resolve(None) == FONT


def art_face(text: str, colour: str, size: Size = POKER) -> FaceForm:
    """A face with bleed: colour to the bleed edge, a white panel, a green bottom-left corner, text; as
    the painter gives it."""
    width, height = size.width + 2 * BLEED, size.height + 2 * BLEED
    return painted(width, height, f'<rect width="{width}" height="{height}" fill="{colour}"/>'
                   f'<rect x="{BLEED + mm(4)}" y="{BLEED + mm(4)}" width="{size.width - mm(8)}" '
                   f'height="{size.height - mm(8)}" fill="#fff"/>'
                   f'<rect x="{BLEED}" y="{height - BLEED - mm(8)}" width="{mm(8)}" height="{mm(8)}" fill="{GREEN}"/>'
                   f'<text x="{BLEED + mm(6)}" y="{BLEED + mm(12)}" font-size="12">{text}</text>', FONT)


face = art_face


def deck(n: int = 11) -> tuple[list[Item], dict[str, FaceForm]]:
    items = [Item(f"front-{i % 4}", "back" if i != 3 else None, POKER, f"deck #{i + 1}") for i in range(n)]
    drawings = {f"front-{i}": face(f"カード{i}番", RED) for i in range(4)}
    drawings["back"] = face("裏面 back", BLUE)
    return items, drawings


def write(pages, drawings, path: Path, **kw) -> bytes:
    kw.setdefault("bleed", BLEED)
    write_pdf(pages, drawings, path, title="テスト — deck", initial_font=FONT, **kw)
    return path.read_bytes()


def form_xobjects(reader: pypdf.PdfReader) -> dict[int, list[float]]:
    """Return each Form XObject's bounding box, keyed by object number."""
    forms = {}
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            if ref.get_object()["/Subtype"] == "/Form":
                forms[ref.idnum] = [float(v) for v in ref.get_object()["/BBox"]]
    return forms


def test_pdf_has_pages_boxes_forms_and_text(tmp_path):
    items, drawings = deck()
    pages = impose(items, SheetSpec(A4))
    path = tmp_path / "out" / "deck.pdf"  # the folder does not exist yet
    raw = write(pages, drawings, path)
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == len(pages) == 4
    for page, pdf_page in zip(pages, reader.pages):
        box = pdf_page.mediabox
        assert to_mm(float(box.width)) == pytest.approx(210, abs=0.1)
        assert to_mm(float(box.height)) == pytest.approx(297, abs=0.1)
        assert "/TrimBox" in pdf_page and "/BleedBox" in pdf_page
        trim = [float(v) for v in pdf_page.trimbox]
        assert trim == pytest.approx([page.trim_box.x0, page.trim_box.y0, page.trim_box.x1, page.trim_box.y1], abs=0.01)
    assert float(reader.pages[2].trimbox[1]) > float(reader.pages[0].trimbox[1])  # 2 cards: one row
    forms = form_xobjects(reader)
    assert len(forms) == 5  # unique faces, not the 20 placements
    for bbox in forms.values():  # each form spans its face with bleed, not the page
        assert bbox == pytest.approx([0, 0, POKER.width + 2 * BLEED, POKER.height + 2 * BLEED], abs=0.01)
    assert b"/Helvetica" not in raw
    assert "カード0番" in reader.pages[0].extract_text() and "裏面 back" in reader.pages[1].extract_text()
    assert reader.metadata.title == "テスト — deck" and reader.metadata.creator == "pnpgen"
    assert reader.metadata.author == "pnpgen"
    assert sorted(p.name for p in path.parent.iterdir()) == ["deck.pdf"]


def test_output_is_byte_identical_for_the_same_input(tmp_path):
    items, drawings = deck()
    pages = impose(items, SheetSpec(A4))
    first = write(pages, drawings, tmp_path / "a.pdf")
    second = write(pages, drawings, tmp_path / "b.pdf")
    again = write(pages, drawings, tmp_path / "a.pdf")
    assert first == second == again


def test_bleed_none_reads_the_bleed_from_each_drawing(tmp_path):
    items, drawings = deck()
    pages = impose(items, SheetSpec(A4))
    assert write(pages, drawings, tmp_path / "a.pdf") == write(pages, drawings, tmp_path / "b.pdf", bleed=None)


def test_grid_pages_write_as_their_placements_listed_one_by_one(tmp_path):
    """A grid page's placements come from slots its sheets share (whose operators are made once); the
    same placements as a plain tuple must give the same bytes, with the bleed given or read per face."""
    items, drawings = deck(20)
    pages = impose(items, SheetSpec(A4))
    listed = [dataclasses.replace(page, placements=tuple(page.placements)) for page in pages]
    assert type(pages[0].placements) is not tuple and len(pages) == 6
    for bleed in (BLEED, None):
        grid = write(pages, drawings, tmp_path / "grid.pdf", bleed=bleed)
        assert grid == write(listed, drawings, tmp_path / "listed.pdf", bleed=bleed)
        assert len(pypdf.PdfReader(tmp_path / "grid.pdf").pages) == 6


def test_forms_are_named_from_the_face_key():
    assert form_name("front-1") == form_name("front-1") != form_name("front-2")
    assert form_name("front-1").startswith("F") and len(form_name("front-1")) == 17


def test_a_failed_write_keeps_the_old_pdf_and_leaves_no_temp_file(tmp_path):
    items, drawings = deck()
    pages = impose(items, SheetSpec(A4))
    path = tmp_path / "deck.pdf"
    path.write_bytes(b"old pdf")
    del drawings["back"]
    with pytest.raises(KeyError):
        write(pages, drawings, path)
    assert path.read_bytes() == b"old pdf"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]


def test_an_unwritable_folder_is_a_located_error(tmp_path):
    items, drawings = deck()
    pages = impose(items, SheetSpec(A4))
    blocker = tmp_path / "output"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(PnpError, match="cannot write the PDF here .*expected a writable folder") as info:
        write(pages, drawings, blocker / "deck.pdf")
    assert str(blocker) in str(info.value)
    target = tmp_path / "taken"
    target.mkdir()  # os.replace cannot put a file over a folder
    (target / "keep").write_text("x")
    with pytest.raises(PnpError, match="cannot write the PDF here"):
        write(pages, drawings, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output", "taken"]


def test_tile_labels_are_printed_and_a_label_without_room_is_omitted(tmp_path):
    big = Size(mm(400), mm(300))
    pages = impose([Item("map", None, big, "map-a")], SheetSpec(A4))
    write(pages, {"map": face("地図", RED, big)}, tmp_path / "map.pdf")
    reader = pypdf.PdfReader(tmp_path / "map.pdf")
    assert "map-a 1/4 (row 1, col 1)" in reader.pages[0].extract_text()
    items, drawings = deck(9)
    letter = [dataclasses.replace(p, label="no room here") for p in impose(items, SheetSpec(LETTER))]
    write(letter, drawings, tmp_path / "letter.pdf")
    assert "no room here" not in pypdf.PdfReader(tmp_path / "letter.pdf").pages[0].extract_text()


def colour_at(image, x_mm: float, y_mm: float, page_h_mm: float, scale: float = 2) -> tuple[int, int, int]:
    px = mm(x_mm) * scale
    py = (mm(page_h_mm) - mm(y_mm)) * scale
    return image.getpixel((int(px), int(py)))[:3]


def test_rendered_page_shows_bleed_marks_and_mirrored_backs(tmp_path):
    items, drawings = deck(9)
    pages = impose(items, SheetSpec(A4))
    path = tmp_path / "deck.pdf"
    write(pages, drawings, path)
    doc = pypdfium2.PdfDocument(str(path))
    front, back = (doc[i].render(scale=2).to_pil().convert("RGB") for i in (0, 1))
    front.save(tmp_path / "front.png")
    back.save(tmp_path / "back.png")
    red, white = (0xB3, 0x26, 0x2D), (255, 255, 255)

    def close(a, b):
        return all(abs(p - q) <= 24 for p, q in zip(a, b))

    # top-left card: trim at x 10.5 mm, y 192.5..280.5 mm; bleed 3 mm outside
    assert close(colour_at(front, 9, 240, 297), red)  # in the outer bleed
    assert close(colour_at(front, 6.5, 240, 297), white)  # beyond the bleed
    assert close(colour_at(front, 12, 194, 297), (0, 0xAA, 0))  # the face's own bottom-left corner
    # the crop mark above the first column line, 1..6 mm above the trim
    assert darkest(front, 10.5, 284, 297) < 160 and darkest(front, 20, 284, 297) == 255
    # long-edge back: the top-left card's back sits top-right, drawn upright (green corner bottom-left)
    assert close(colour_at(back, 200.5, 240, 297), (0x22, 0x44, 0x88))
    assert close(colour_at(back, 140, 196, 297), (0, 0xAA, 0))
    assert close(colour_at(back, 75.5, 150, 297), (0x22, 0x44, 0x88))
    # card 4 (middle row, left) has no back: a hole middle right
    assert close(colour_at(front, 12, 150, 297), red) and close(colour_at(back, 198, 150, 297), white)


def darkest(image, x_mm: float, y_mm: float, page_h_mm: float, scale: float = 2) -> int:
    px, py = int(mm(x_mm) * scale), int((mm(page_h_mm) - mm(y_mm)) * scale)
    return min(min(image.getpixel((i, j))) for i in range(px - 2, px + 3) for j in range(py - 2, py + 3))


def test_pages_are_written_as_they_come_not_held_until_the_end(monkeypatch):
    """The streaming writer asks for each face when a page first shows it, and by then the pages before
    are already in the file (once its few kilobytes of gathered objects are full, here at once): what
    memory holds does not grow with the document."""
    monkeypatch.setattr(pdf_file, "FLUSH_SIZE", 1)
    items = [Item(f"front-{i}", None, POKER) for i in range(40)]
    written_when_asked = []
    out = io.BytesIO()

    class Faces(dict):
        def __getitem__(self, key):
            written_when_asked.append(out.tell())
            return art_face(key, RED)

    pages = impose(items, SheetSpec(paper=A4))
    write_document(out, pages, Faces(), title="t", initial_font=FONT, bleed=BLEED)
    assert len(written_when_asked) == 40 and len(pages) == 5
    first_of_page = written_when_asked[::9]
    assert all(a < b for a, b in zip(first_of_page, first_of_page[1:]))  # each page's bytes before the next's faces
    assert written_when_asked[-1] > out.tell() * 0.6  # the last face is asked for near the end, not up front


def recurring_deck(name) -> tuple[list[Page], dict[str, FaceForm]]:
    """20 cards on 3 sheets: a shared back, card 2 again as card 17 (a sheet later), card 5 three times."""
    fronts = [f"card-{i}" for i in range(20)]
    fronts[17], fronts[6], fronts[7] = "card-2", "card-5", "card-5"
    items = [Item(name(front), name("back"), POKER) for front in fronts]
    return impose(items, SheetSpec(A4)), {name(text): art_face(text, RED) for text in fronts + ["back"]}


def test_a_face_placed_again_is_one_form_remembered_only_until_its_last_placement(monkeypatch, tmp_path):
    name = lambda text: hashlib.sha256(text.encode()).hexdigest()  # noqa: E731 - as faces are named
    pages, drawings = recurring_deck(name)
    held = []
    real = Document.write_page

    def write_page(self, page, *args):
        number = real(self, page, *args)
        held.append(sorted(self.forms))
        return number

    monkeypatch.setattr(Document, "write_page", write_page)
    write(pages, drawings, tmp_path / "deck.pdf")
    reader = pypdf.PdfReader(tmp_path / "deck.pdf")
    assert len(form_xobjects(reader)) == len(drawings) == 18  # one form per face, however often placed
    shown = [{key: ref.idnum for key, ref in page["/Resources"]["/XObject"].items()} for page in reader.pages]
    card_2 = "/FormXob." + form_name(name("card-2"))
    assert shown[0][card_2] == shown[2][card_2] and len(shown[1]) == 1  # the same object on both sheets
    assert [page.side for page in pages] == ["front", "back"] * 3
    assert held == [[name("card-2")], sorted([name("back"), name("card-2")]), [name("back")], [name("back")],
                    [name("back")], []]  # card 5's three placements are on one page: not kept past it


def test_faces_sharing_their_number_make_the_same_pdf(monkeypatch, tmp_path):
    """Faces whose numbers are alike count together: each form is then remembered longer, never less."""
    pages, drawings = recurring_deck(str)
    alone = write(pages, drawings, tmp_path / "alone.pdf")
    for number in (lambda face: 0, len):
        monkeypatch.setattr(write_pdf_module, "key_prefix", number)
        monkeypatch.setattr(recurring_module, "key_prefix", number)
        assert write(pages, drawings, tmp_path / "shared.pdf") == alone
