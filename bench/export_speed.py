"""Measure `pnpgen export png` of every bundled component at 300 dpi on 1 and 2 worker processes, against
pypdfium2 rendering the same single-face PDF pages in-process without PNG encoding.

Run from the checkout: python3 bench/export_speed.py [--runs N]
Not a test: it prints figures; the absolute target is marked PASS/MISS for the reader, nothing fails.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pypdfium2 as pdfium  # noqa: E402

from pnpgen.press import write_png  # noqa: E402
from pnpgen.pipeline.prepare import open_fontbook, select_games
from pnpgen.faces.convert import Converter  # noqa: E402
from pnpgen.export.run import ExportOptions, ExportReport, Job, distinct_document, export  # noqa: E402
from pnpgen.export.pieces import gather_faces  # noqa: E402
from pnpgen.faces.render import Renderer  # noqa: E402
from pnpgen.project.validate import load_project  # noqa: E402

DPI = 300
TARGET = 40.0  # cards/s, every piece counted, on the machine's cores


def time_export(scratch: Path, workers: int, runs: int, cache: Path | None = None) -> tuple[float, ExportReport]:
    """Best wall-clock seconds of `runs` PNG exports of the bundled project (fresh output folder each);
    without a cache folder every face is rendered and converted again, as in a first export."""
    best, report = float("inf"), None
    for run in range(runs):
        options = ExportOptions(out_dir=scratch / f"w{workers}-{run}-{bool(cache)}", dpi=DPI, workers=workers,
                                cache=cache is not None, cache_dir=cache)
        start = time.perf_counter()
        report = export(ROOT, "png", options)
        best = min(best, time.perf_counter() - start)
    return best, report


def single_face_documents() -> tuple[list[bytes], list[write_png.Raster]]:
    """The single-face PDFs the export rasterises (one per component, one page per distinct face)."""
    project = load_project(ROOT)
    fontbook = open_fontbook(project)
    renderer, converter = Renderer(project, fontbook), Converter(fontbook, project.root)
    job = Job(project, Path(tempfile.gettempdir()), ExportOptions(), ExportReport(), fontbook.resolve(None))
    documents, rasters = [], []
    for game in select_games(project, None):
        for component in game.components:
            faces = gather_faces(game, component, renderer, converter)
            document, pages = distinct_document(job, faces)
            documents.append(document)
            c = component
            rasters += [write_png.plan_raster(len(documents) - 1, page, c.size.width, c.size.height, c.bleed, DPI)
                        for page in pages.values()]
    return documents, rasters


def time_reference(documents: list[bytes], runs: int) -> tuple[float, int]:
    """Best seconds for pypdfium2 to render every page at 300 dpi in this process, nothing encoded or written."""
    best, pages = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        pages = 0
        for data in documents:
            document = pdfium.PdfDocument(data)
            for page in document:
                page.render(scale=DPI / 72)
                page.close()
                pages += 1
            document.close()
        best = min(best, time.perf_counter() - start)
    return best, pages


def time_levels(documents: list[bytes], rasters: list[write_png.Raster]) -> list[tuple[int, float, int]]:
    """(zlib level, seconds, bytes) of rasterising and encoding every face in this process."""
    rows = []
    for level in (1, 2, 3, 6):
        start = time.perf_counter()
        pngs = write_png.rasterise(documents, rasters, workers=1, level=level)
        rows.append((level, time.perf_counter() - start, sum(map(len, pngs))))
    return rows


def burn(_=None) -> float:
    """A fixed amount of pure CPU work; returns its seconds."""
    data = bytes(range(256)) * 20000
    start = time.perf_counter()
    for _ in range(12):
        zlib.compress(data, 6)
    return time.perf_counter() - start


def machine_parallelism() -> float:
    """How much more CPU work two processes get done than one in the same time (2.0 = two free cores)."""
    one = min(burn() for _ in range(2))
    context = multiprocessing.get_context(write_png.start_method())
    workers = [context.Process(target=burn) for _ in range(2)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return 2 * one / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the best is shown (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnpgen-export-bench-") as scratch_name:
        scratch = Path(scratch_name)
        export(ROOT / "tests" / "fixtures" / "minimal", "png", ExportOptions(out_dir=scratch / "warm-up", dpi=30))
        start = time.perf_counter()
        documents, rasters = single_face_documents()
        prepare = time.perf_counter() - start
        ref_seconds, ref_pages = time_reference(documents, args.runs)
        one, report = time_export(scratch, 1, args.runs)
        two, _ = time_export(scratch, 2, args.runs)
        time_export(scratch, 2, 1, scratch / "cache")  # fills the cache, as `pnpgen build` would have
        warm, _ = time_export(scratch, 2, args.runs, scratch / "cache")
        levels = time_levels(documents, rasters)
        start = time.perf_counter()
        write_png.rasterise(documents, rasters, workers=2)
        raster_two = time.perf_counter() - start
        parallel = machine_parallelism()
    pieces = report.pieces
    ref_rate = pieces / ref_seconds
    print(f"pnpgen export png, bundled project, {DPI} dpi: {pieces} pieces (cards, chips, maps; every copy counted), "
          f"{report.faces} distinct faces, {len(report.written)} PNG files; best of {args.runs}")
    print()
    print(f"{'':44} {'seconds':>8} {'cards/s':>8} {'× ref':>6}")
    print(f"{'reference: pypdfium2 render, no PNG, 1 process':44} {ref_seconds:8.2f} {ref_rate:8.1f} {1:6.2f}")
    for label, seconds in (("export png, 1 worker", one), ("export png, 2 workers", two),
                           ("export png, 2 workers, faces from the cache", warm)):
        rate = pieces / seconds
        print(f"{label:44} {seconds:8.2f} {rate:8.1f} {rate / ref_rate:6.2f}")
    print()
    print(f"2 workers ÷ 1 worker: {one / two:.2f}× the speed "
          f"(this machine ran {parallel:.2f}× the CPU work on 2 processes as on 1, measured just now)")
    print(f"reference renders {ref_pages} pages: {ref_pages / ref_seconds:.1f} pages/s; "
          f"the export adds loading, checks, templates, painting, PDF, PNG encoding and "
          f"{len(report.written)} atomic writes")
    print(f"of an export, loading the project, rendering templates, painting and writing the single-face PDFs "
          f"took {prepare:.2f} s (one process; the rest is rasterising, encoding and writing)")
    rate = pieces / min(one, two)
    print(f"target ≥ {TARGET:g} cards/s (no cache): {rate:.1f} cards/s — {'PASS' if rate >= TARGET else 'MISS'}")
    print()
    print("PNG zlib level (rasterise + encode every distinct face, 1 process):")
    base = levels[0]
    for level, seconds, size in levels:
        print(f"  level {level}: {seconds:5.2f} s ({seconds / base[1]:.2f}×), "
              f"{size / 1e6:6.2f} MB ({size / base[2]:.2f}×)")
    print(f"  level {write_png.PNG_LEVEL} (used), 2 workers: {raster_two:5.2f} s — "
          f"{base[1] / raster_two:.2f}× the speed of 1 (the part of an export that runs on every core)")


if __name__ == "__main__":
    main()
