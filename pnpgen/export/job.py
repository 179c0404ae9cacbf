"""Turn gathered component faces into written files: the job every kind of export shares (options, report, PNGs per piece)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..files.atomic import write_atomically
from ..errors import PnpError
from ..press.write_png import Raster, rasterise_as_done
from ..project.editions import edition_folder
from ..project.model import Project
from ..press.write_pdf import pdf_bytes
from .pieces import ComponentFaces, PieceFaces, face_page

DEFAULT_DPI = 300
MAX_PIXELS = 64_000_000  # 8,000 × 8,000: a poker card at 1,200 dpi is 3.5 million


@dataclass(frozen=True)
class ExportOptions:
    out_dir: Path | None = None  # default: PROJECT/output
    game: str | None = None
    dpi: int | None = None  # png and shop: 300; tts: the most that fits 4096 px, at most 300
    bleed: bool = True  # png: False crops every image to the trim
    preset: str | None = None  # shop: a preset name; None picks the preset matching each component's size
    workers: int | None = None  # processes rasterising; None: every core
    check: bool = True  # refuse to export when `pnpgen check` fails, like build
    cache: bool = True  # reuse the faces `pnpgen build` rendered and converted (the same cache as build)
    cache_dir: Path | None = None  # default: $PNPGEN_CACHE, else ~/.cache/pnpgen
    base_url: str | None = None  # tts: where the images will be hosted (http or https); None: names beside the JSON
    pdfx: str | None = None  # shop: "1a" (PDF/X-1a:2001) or "4" (PDF/X-4) in CMYK; None: the RGB PDF
    profile: str | None = None  # with pdfx: the press (faces.cmyk.PRESSES) to separate for; None: fogra39
    lang: str | None = None  # the edition: a language of the project, all, or None for the original


@dataclass
class ExportReport:
    """What an export wrote and what the user should know about it."""

    out_dir: Path | None = None  # OUTDIR: files go to OUTDIR/<game>/<kind>/
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)  # stale images of pieces that no longer exist
    pieces: int = 0
    faces: int = 0  # distinct faces rasterised (or drawn, for proofs)
    notes: list[str] = field(default_factory=list)


@dataclass
class Job:
    """What every kind of export needs: the project, where to write, the options, the report."""

    project: Project
    out_dir: Path
    options: ExportOptions
    report: ExportReport
    initial_font: str
    progress: Callable[[str, int, int, str], None] | None = None

    def folder(self, faces: ComponentFaces, kind: str) -> Path:
        return self.out_dir / faces.game.id / edition_folder(self.project) / kind

    def write(self, path: Path, data: bytes, what: str) -> None:
        write_atomically(path, data, what)
        self.report.written.append(path)

    def pdf(self, faces: ComponentFaces, pages: list, pdfx=None) -> bytes:
        """The PDF of single-face pages of one component (a PDF/X with pdfx, a press.pdfx.PdfX)."""
        return pdf_bytes(pages, faces.forms, title=f"{faces.game.title} — {faces.component.name}",
                         initial_font=self.initial_font, bleed=faces.component.bleed, subject=self.project.name,
                         pdfx=pdfx)

    def tell(self, phase: str, done: int, total: int, label: str) -> None:
        if self.progress:
            self.progress(phase, done, total, label)


def piece_name(faces: ComponentFaces, piece: PieceFaces, side: str) -> str:
    """<component>-<index>-<side>.png, the index zero-padded so an uploader's name order is print order."""
    digits = max(3, len(str(len(faces.pieces))))
    return f"{faces.component.id}-{piece.index:0{digits}d}-{side}.png"


def distinct_document(job: Job, faces: ComponentFaces) -> tuple[bytes, dict[str, int]]:
    """The single-face PDF of a component's distinct faces, and each face key's page index in it."""
    distinct = faces.distinct()
    pages = [face_page(faces.component, key, side) for key, side in distinct]
    return job.pdf(faces, pages), {key: index for index, (key, _) in enumerate(distinct)}


def write_piece_images(job: Job, components: list[ComponentFaces], folder_of: Callable[[ComponentFaces], Path],
                       raster_of: Callable[[ComponentFaces, int, int], Raster], dpi: float) -> None:
    """Rasterise every distinct face of every component once, on every core, and write its PNG under
    the name of every piece (and side) that shows it; then remove images of pieces that are gone."""
    documents, rasters, targets = [], [], []
    for faces in components:
        document, page_of = distinct_document(job, faces)
        documents.append(document)
        names: dict[str, list[str]] = {}
        for piece, side, key in faces.shown():
            names.setdefault(key, []).append(piece_name(faces, piece, side))
        folder = folder_of(faces)
        for key, page in page_of.items():
            rasters.append(refuse_huge(raster_of(faces, len(documents) - 1, page), faces, dpi))
            targets.append([folder / name for name in names[key]])
    job.report.faces += len(rasters)
    for done, (index, png) in enumerate(rasterise_as_done(documents, rasters, workers=job.options.workers, dpi=dpi), 1):
        for target in targets[index]:
            job.write(target, png, "PNG")
        job.tell("writing", done, len(rasters), targets[index][0].name)
    for faces in components:
        remove_stale(job, folder_of(faces), faces.component.id)


def refuse_huge(raster: Raster, faces: ComponentFaces, dpi: float) -> Raster:
    """A raster of more than MAX_PIXELS (a 2 m map at 300 dpi is 560 million) would take gigabytes: refused."""
    (width, height), pixels = raster.full, raster.full[0] * raster.full[1]
    if pixels > MAX_PIXELS:
        fitting = int(dpi * math.sqrt(MAX_PIXELS / pixels))
        raise PnpError(f"component '{faces.component.id}' at {dpi:g} dpi is {width:,} × {height:,} pixels; expected "
                       f"at most {MAX_PIXELS:,} pixels an image (--dpi {fitting} or less)", faces.component.location)
    return raster


def remove_stale(job: Job, folder: Path, component_id: str) -> None:
    """Delete <component>-NNN-front/back.png left from an export when the component had more pieces."""
    if not folder.is_dir():
        return
    pattern = re.compile(re.escape(component_id) + r"-\d{3,}-(front|back)\.png")
    written = set(job.report.written)
    for path in sorted(folder.iterdir()):
        if pattern.fullmatch(path.name) and path not in written:
            path.unlink()
            job.report.removed.append(path)
