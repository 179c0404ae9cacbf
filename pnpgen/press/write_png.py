"""Turn print PDFs into PNG images with pypdfium2, on every core."""
from __future__ import annotations

import io
import multiprocessing
import threading
from dataclasses import dataclass
from typing import Iterator, Sequence

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from .cores import usable_cores

PNG_LEVEL = 1  # zlib level: far faster than Pillow's default 6, for files only a little larger
MIN_PARALLEL = 16  # fewer pages than this render in-process: starting workers costs more than it saves
CHUNKS_PER_WORKER = 4  # contiguous runs of pages per worker, handed out as workers free up


@dataclass(frozen=True)
class Raster:
    """One image to make from one PDF page: the page is mapped onto full = (w, h) pixels (its whole
    box, stretched to exactly that many pixels), and the image is the window (left, top, width, height)
    of those pixels, measured from the top-left corner."""

    document: int  # index into the documents passed to rasterise
    page: int  # 0-based
    full: tuple[int, int]
    window: tuple[int, int, int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.window[2], self.window[3]


def page_pixels(length: float, dpi: float) -> int:
    """A length in points as a whole number of pixels at dpi: round(inches × dpi), the one rounding rule."""
    return round(length / 72 * dpi)


def plan_raster(document: int, page: int, width: float, height: float, bleed: float, dpi: float,
                with_bleed: bool = True) -> Raster:
    """The raster of a single-face page (width × height trim, bleed on every side, in points) at dpi:
    the whole page, or only its trim, cropped exactly from the whole page's pixels."""
    full = (page_pixels(width + 2 * bleed, dpi), page_pixels(height + 2 * bleed, dpi))
    if with_bleed:
        return Raster(document, page, full, (0, 0, *full))
    edge = page_pixels(bleed, dpi)
    return Raster(document, page, full, (edge, edge, page_pixels(width, dpi), page_pixels(height, dpi)))


def rasterise(documents: Sequence[bytes], rasters: Sequence[Raster], **options) -> list[bytes]:
    """Return one PNG (encode) or raw RGB buffer (not encode) per raster, in order (rasterise_as_done's options)."""
    return [data for _, data in sorted(rasterise_as_done(documents, rasters, **options))]


def rasterise_as_done(documents: Sequence[bytes], rasters: Sequence[Raster], *, workers: int | None = None,
                      encode: bool = True, dpi: float | None = None,
                      level: int = PNG_LEVEL) -> Iterator[tuple[int, bytes]]:
    """Yield (index, PNG or raw RGB bytes) as each raster is done, so the caller can write while workers render:
    worker processes, as pdfium is not thread-safe (small jobs render in this one); their number changes no byte."""
    workers = usable_cores() if workers is None else max(1, workers)
    jobs = list(enumerate(rasters))
    if workers == 1 or len(jobs) < MIN_PARALLEL:
        documents_open: dict[int, pdfium.PdfDocument] = {}
        try:
            for index, raster in jobs:
                yield index, make_image(documents, documents_open, raster, encode, dpi, level)
        finally:
            for document in documents_open.values():
                document.close()
        return
    chunks = split(jobs, workers * CHUNKS_PER_WORKER)
    context = multiprocessing.get_context(start_method())
    with context.Pool(workers, initializer=open_worker, initargs=(list(documents),)) as pool:
        for done in pool.imap_unordered(render_chunk, [(chunk, encode, dpi, level) for chunk in chunks]):
            yield from done


def start_method() -> str:
    """fork (a worker starts in milliseconds) where there is one and this process has no other thread
    that could hold a lock across the fork; else spawn (a fresh interpreter a worker, slower to start)."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def split(jobs: list, count: int) -> list[list]:
    """Cut jobs into at most count contiguous runs of near-equal length (neighbours share a PDF)."""
    count = max(1, min(count, len(jobs)))
    size, extra = divmod(len(jobs), count)  # the first `extra` runs are one longer
    return [jobs[i * size + min(i, extra):(i + 1) * size + min(i + 1, extra)] for i in range(count)]


_worker_documents: Sequence[bytes] = ()
_worker_open: dict[int, pdfium.PdfDocument] = {}


def open_worker(documents: Sequence[bytes]) -> None:
    global _worker_documents, _worker_open
    _worker_documents, _worker_open = documents, {}


def render_chunk(task) -> list[tuple[int, bytes]]:
    chunk, encode, dpi, level = task
    return [(index, make_image(_worker_documents, _worker_open, raster, encode, dpi, level)) for index, raster in chunk]


def make_image(documents: Sequence[bytes], documents_open: dict, raster: Raster, encode: bool,
               dpi: float | None, level: int) -> bytes:
    document = documents_open.get(raster.document)
    if document is None:
        document = documents_open[raster.document] = pdfium.PdfDocument(documents[raster.document])
    image = render_raster(document, raster)
    return encode_png(image, dpi, level) if encode else image.tobytes()


def render_raster(document: pdfium.PdfDocument, raster: Raster) -> Image.Image:
    """Render the raster's window of its page as an RGB image of exactly raster.size pixels."""
    (full_w, full_h), (left, top, width, height) = raster.full, raster.window
    page = document[raster.page]
    try:
        bitmap = pdfium.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
        # The page box maps onto exactly full_w × full_h pixels (a stretch of well under a pixel from the
        # uniform dpi scale), so every size is the rounded one the caller asked for.
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page, -left, -top, full_w, full_h, 0, pdfium_c.FPDF_REVERSE_BYTE_ORDER)
        image = bitmap.to_pil()
        bitmap.close()
    finally:
        page.close()
    return image


def encode_png(image: Image.Image, dpi: float | None = None, level: int = PNG_LEVEL) -> bytes:
    """PNG bytes with no timestamp or text chunk, so equal pixels give equal files."""
    buffer = io.BytesIO()
    options = {"compress_level": level}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(buffer, "PNG", **options)
    return buffer.getvalue()


def image_from_raw(data: bytes, size: tuple[int, int]) -> Image.Image:
    """The RGB image rasterise(encode=False) returned as bytes."""
    return Image.frombytes("RGB", size, data)
