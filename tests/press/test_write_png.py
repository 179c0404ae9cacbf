"""Rasterise single-face PDFs: exact pixel sizes, the trim cropped from the bleed, the same bytes on any
number of workers, and PNGs that carry nothing but pixels and their resolution."""
import io

import pytest
from PIL import Image

from pnpgen import units
from pnpgen.press import write_png
from pnpgen.export.pieces import face_page
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.faces.form import FaceForm
from pnpgen.errors import Location
from pnpgen.project.model import Component, Layout, Size
from pnpgen.press.write_pdf import pdf_bytes
from painted import painted

POKER = Size(units.mm(63), units.mm(88))
BLEED = units.mm(3)


def px(mm: float, dpi: int = 300) -> int:
    return round(mm / 25.4 * dpi)


def test_poker_sizes_with_and_without_bleed_at_300_dpi():
    with_bleed = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, 300)
    trimmed = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, 300, with_bleed=False)
    assert with_bleed.size == (px(69), px(94)) == (815, 1110)
    assert trimmed.size == (px(63), px(88)) == (744, 1039)
    assert trimmed.window[:2] == (px(3), px(3)) == (35, 35)


@pytest.mark.parametrize("dpi", [30, 72, 150, 299, 300, 600, 1200])
def test_sizes_follow_the_one_rounding_rule(dpi):
    raster = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, dpi, with_bleed=False)
    assert raster.size == (px(63, dpi), px(88, dpi))
    left, top, width, height = raster.window
    assert left + width <= raster.full[0] and top + height <= raster.full[1]


def component(bleed: float = BLEED) -> Component:
    return Component("deck", "deck", "card", POKER, "rect", bleed, "front.svg.j2", None, False, Layout(), (),
                     Location("cards.yaml"))


def framed_face(inner: str, outer: str = "#ffffff") -> FaceForm:
    """A face's form: the bleed in one colour, the trim in another."""
    w, h = POKER.width + 2 * BLEED, POKER.height + 2 * BLEED
    return painted(w, h, f'<rect width="{w}" height="{h}" fill="{outer}"/><rect x="{BLEED}" y="{BLEED}" '
                         f'width="{POKER.width}" height="{POKER.height}" fill="{inner}"/>')


def face_document(colours: list[str]) -> bytes:
    deck = component()
    drawings = {f"face{i}": framed_face(colour) for i, colour in enumerate(colours)}
    pages = [face_page(deck, key, "front") for key in drawings]
    return pdf_bytes(pages, drawings, title="t", initial_font=FontBook([BUNDLED_FONTS]).resolve(None), bleed=BLEED)


def test_the_trim_crop_holds_only_the_trim():
    document = face_document(["#2040c0"])
    raster = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, 300, with_bleed=False)
    image = Image.open(io.BytesIO(write_png.rasterise([document], [raster])[0]))
    assert image.size == (744, 1039) and image.mode == "RGB"
    for xy in [(1, 1), (742, 1), (1, 1037), (742, 1037), (372, 520)]:
        assert image.getpixel(xy) == (0x20, 0x40, 0xC0), xy
    for xy in [(0, 0), (743, 0), (0, 1038), (743, 1038)]:  # at most half a pixel of bleed shows on an edge
        assert image.getpixel(xy)[0] < 0x20 + 0.5 * (255 - 0x20) + 1, xy


def test_with_bleed_the_page_fills_the_image_edge_to_edge():
    document = face_document(["#2040c0"])
    raster = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, 300)
    image = Image.open(io.BytesIO(write_png.rasterise([document], [raster])[0]))
    assert image.size == (815, 1110)
    for xy in [(0, 0), (814, 0), (0, 1109), (814, 1109)]:
        assert image.getpixel(xy) == (255, 255, 255), xy  # the white bleed, not the white of no page
    assert image.getpixel((60, 60)) == (0x20, 0x40, 0xC0)


def test_a_page_stretches_to_any_exact_size():
    document = face_document(["#2040c0"])
    raster = write_png.Raster(0, 0, (822, 1122), (0, 0, 822, 1122))
    image = Image.open(io.BytesIO(write_png.rasterise([document], [raster])[0]))
    assert image.size == (822, 1122)
    assert image.getpixel((411, 561)) == (0x20, 0x40, 0xC0)


def test_workers_change_nothing_but_speed(monkeypatch):
    colours = [f"#{(37 * i) % 256:02x}{(91 * i) % 256:02x}80" for i in range(6)]
    documents = [face_document(colours), face_document(list(reversed(colours)))]
    rasters = [write_png.plan_raster(d, p, POKER.width, POKER.height, BLEED, 100, with_bleed=p % 2 == 0)
               for d in range(2) for p in range(6)]
    alone = write_png.rasterise(documents, rasters, workers=1)
    monkeypatch.setattr(write_png, "MIN_PARALLEL", 1)  # force the worker processes even for 12 pages
    shared = write_png.rasterise(documents, rasters, workers=2)
    assert shared == alone
    assert len(set(alone)) == 12


def test_raw_buffers_are_rgb_of_the_raster_size():
    document = face_document(["#102030"])
    raster = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, 50, with_bleed=False)
    raw = write_png.rasterise([document], [raster], encode=False)[0]
    image = write_png.image_from_raw(raw, raster.size)
    assert image.size == raster.size and image.getpixel((image.width // 2, image.height // 2)) == (0x10, 0x20, 0x30)


def chunks(png: bytes) -> list[bytes]:
    found, at = [], 8
    while at < len(png):
        length = int.from_bytes(png[at:at + 4], "big")
        found.append(png[at + 4:at + 8])
        at += 12 + length
    return found


def test_png_has_no_timestamp_or_text_only_its_resolution():
    document = face_document(["#aabbcc"])
    raster = write_png.plan_raster(0, 0, POKER.width, POKER.height, BLEED, 300)
    png = write_png.rasterise([document], [raster], dpi=300)[0]
    assert set(chunks(png)) == {b"IHDR", b"pHYs", b"IDAT", b"IEND"}  # no tIME, tEXt, iTXt
    assert Image.open(io.BytesIO(png)).info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_split_keeps_order_and_balances():
    runs = write_png.split(list(range(10)), 4)
    assert [len(r) for r in runs] == [3, 3, 2, 2]
    assert sum(runs, []) == list(range(10))
    assert write_png.split([1], 8) == [[1]]
