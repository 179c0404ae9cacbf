"""Turn a project's components into export files: a PNG per face, Tabletop Simulator decks, print-shop files, proofs."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .atomic import write_atomically
from .pipeline import open_fontbook, select_games
from .cache import Cache, default_cache_dir, inputs_digest
from .checker import check_project, failures
from .convert import Converter
from .errors import PnpError, Problem
from .faces import ComponentFaces, PieceFaces, face_page, face_pdf, gather_faces
from .model import Project
from .render import Renderer
from .validate import load_project
from .write_png import Raster, plan_raster, rasterise_as_done

KINDS = ("png", "tts", "shop", "proof")
DEFAULT_DPI = 300
DPI_RANGE = (30, 1200)


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
        return self.out_dir / faces.game.id / kind

    def write(self, path: Path, data: bytes, what: str) -> None:
        write_atomically(path, data, what)
        self.report.written.append(path)

    def pdf(self, faces: ComponentFaces, pages: list) -> bytes:
        return face_pdf(faces, pages, initial_font=self.initial_font, subject=self.project.name)

    def tell(self, phase: str, done: int, total: int, label: str) -> None:
        if self.progress:
            self.progress(phase, done, total, label)


def export(path: str | Path = ".", kind: str = "png", options: ExportOptions | None = None,
           progress: Callable[[str, int, int, str], None] | None = None) -> ExportReport:
    """Export every component of the project (or of options.game) as kind: png, tts, shop or proof.

    progress(phase, done, total, label) is called as components are rendered and files written, as by build().
    """
    options = options or ExportOptions()
    refuse_bad_options(kind, options)
    project = load_project(Path(path))
    games = select_games(project, options.game)
    if options.check:
        failed = failures(check_project(project, games))
        if failed:
            raise PnpError([f.as_problem() for f in failed] + [Problem(None, no_check_hint())])
    cache = Cache(options.cache_dir or default_cache_dir()) if options.cache else None
    fontbook = open_fontbook(project)
    renderer = Renderer(project, fontbook, cache, inputs_digest(project))
    converter = Converter(fontbook, project.root, cache)
    out_dir = Path(options.out_dir) if options.out_dir else project.root / "output"
    job = Job(project, out_dir, options, ExportReport(out_dir), fontbook.resolve(None), progress)
    # Every face is rendered and converted before anything is written: a template error writes nothing.
    planned = [(game, component) for game in games for component in game.components]
    components = []
    for done, (game, component) in enumerate(planned, 1):
        components.append(gather_faces(game, component, renderer, converter))
        job.tell("rendering", done, len(planned), f"{game.id}/{component.id}")
    job.report.pieces = sum(len(c.pieces) for c in components)
    if kind == "png":
        export_png(job, components)
    elif kind == "tts":
        from .export_tts import export_tts
        export_tts(job, components)
    elif kind == "shop":
        from .export_shop import export_shop
        export_shop(job, components)
    else:
        from .proof import write_proofs
        write_proofs(job, components)
    return job.report


def refuse_bad_options(kind: str, options: ExportOptions) -> None:
    if kind not in KINDS:
        raise PnpError(f"export '{kind}': expected one of {', '.join(KINDS)}")
    low, high = DPI_RANGE
    if options.dpi is not None and not low <= options.dpi <= high:
        raise PnpError(f"--dpi {options.dpi}: expected a resolution from {low} to {high} dpi")
    if not options.bleed and kind in ("shop", "proof"):
        raise PnpError(f"--no-bleed: {kind} files always show the bleed (print shops cut it off); "
                       "expected it only with png (tts images never have bleed)")
    if options.preset is not None and kind != "shop":
        raise PnpError(f"--preset {options.preset}: presets are print-shop sizes; expected it only with shop")
    if options.preset is not None:
        from .export_shop import find_preset
        find_preset(options.preset)  # an unknown name fails before any work


def no_check_hint() -> str:
    return ("the export stopped because checks failed; fix the data or run `pnpgen check` for details "
            "(`pnpgen export --no-check` exports anyway)")


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
        for piece in faces.pieces:
            names.setdefault(piece.front, []).append(piece_name(faces, piece, "front"))
            if piece.back is not None:
                names.setdefault(piece.back, []).append(piece_name(faces, piece, "back"))
        folder = folder_of(faces)
        for key, page in page_of.items():
            rasters.append(raster_of(faces, len(documents) - 1, page))
            targets.append([folder / name for name in names[key]])
    job.report.faces += len(rasters)
    done = 0
    for index, png in rasterise_as_done(documents, rasters, workers=job.options.workers, dpi=dpi):
        for target in targets[index]:
            job.write(target, png, "PNG")
        done += 1
        job.tell("writing", done, len(rasters), targets[index][0].name)
    for faces in components:
        remove_stale(job, folder_of(faces), faces.component.id)


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


def export_png(job: Job, components: list[ComponentFaces]) -> None:
    """OUTDIR/<game>/png/<component>-<index>-<side>.png: every piece's faces at dpi, with or without bleed."""
    dpi = job.options.dpi or DEFAULT_DPI

    def raster_of(faces: ComponentFaces, document: int, page: int) -> Raster:
        c = faces.component
        return plan_raster(document, page, c.size.width, c.size.height, c.bleed, dpi, job.options.bleed)

    write_piece_images(job, components, lambda faces: job.folder(faces, "png"), raster_of, dpi)
