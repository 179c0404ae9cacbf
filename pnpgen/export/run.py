"""Turn a project's components into export files: a PNG per face, Tabletop Simulator decks, print-shop files, proofs."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Callable

from ..files.atomic import refuse_links_out
from ..pipeline.prepare import open_fontbook, select_games
from ..store.cache import Cache, default_cache_dir
from ..faces.inputs import inputs_digest
from ..checks.checker import check_project
from ..checks.findings import failures
from ..faces.convert import Converter
from ..errors import PnpError, Problem
from .job import ExportOptions, ExportReport, Job
from .pieces import gather_faces
from .png import export_png
from .proof import write_proofs
from .shop import export_shop, find_preset
from .pdfx import refuse_bad_pdfx
from .sheets import SHEET_KINDS, export_sheets
from .tts import export_tts
from ..faces.render import Renderer
from ..project.editions import chosen_languages, edition, edition_folder
from ..project.model import Project
from ..project.validate import load_project
from ..templating.run_budget import whole_run

KINDS = ("png", "tts", "shop", "proof", *SHEET_KINDS)
DPI_RANGE = (30, 1200)
NO_CHECK_HINT = ("the export stopped because checks failed; fix the data or run `pnpgen check` for details "
                 "(`pnpgen export --no-check` exports anyway)")


@whole_run("export")
def export(path: str | Path = ".", kind: str = "png", options: ExportOptions | None = None,
           progress: Callable[[str, int, int, str], None] | None = None) -> ExportReport:
    """Export every component of the project (or of options.game) as kind: png, tts, shop, proof, csv or xlsx.

    progress(phase, done, total, label) is called as components are rendered and files written, as by build().
    """
    options = options or ExportOptions()
    refuse_bad_options(kind, options)
    loaded = load_project(Path(path))
    if options.lang == "all" and kind not in SHEET_KINDS:  # each edition in turn, into its own folder
        return export_editions(loaded, kind, options, progress)
    return export_edition(loaded, kind, options, progress)


def export_edition(loaded: Project, kind: str, options: ExportOptions, progress) -> ExportReport:
    """export() of the edition options.lang names (None: the original) of a loaded project."""
    # the data of every edition is one sheet, a column per language (name, name@en); else one edition's
    project = (loaded.texts or loaded) if options.lang == "all" else edition(loaded, options.lang)
    games = select_games(project, options.game)
    out_dir = Path(options.out_dir) if options.out_dir else project.root / "output"
    folders = [out_dir / game.id / edition_folder(project) for game in games]
    refuse_links_out(project.root, out_dir, *(f for folder in folders for f in (folder.parent, folder, folder / kind)))
    if kind in SHEET_KINDS:  # the data itself: nothing to render, nothing to check
        return export_sheets(project, games, kind, out_dir)
    if options.check:
        failed = failures(check_project(edition(loaded), games))
        if failed:
            raise PnpError([f.as_problem() for f in failed] + [Problem(None, NO_CHECK_HINT)])
    cache = Cache(options.cache_dir or default_cache_dir()) if options.cache else None
    fontbook = open_fontbook(project, options)
    renderer = Renderer(project, fontbook, cache, inputs_digest(project))
    converter = Converter(fontbook, project.root, cache)
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
        export_tts(job, components)
    elif kind == "shop":
        export_shop(job, components)
    else:
        write_proofs(job, components)
    job.report.notes.extend(cache.notes if cache is not None else [])  # a refused cache folder
    return job.report


def export_editions(project: Project, kind: str, options: ExportOptions, progress) -> ExportReport:
    """export() of every edition of the project, the original first, into one report."""
    report = ExportReport()
    for code in chosen_languages(project, "all"):
        made = export_edition(project, kind, dataclasses.replace(options, lang=code), progress)
        report.out_dir = report.out_dir or made.out_dir
        report.written += made.written
        report.removed += made.removed
        report.pieces += made.pieces
        report.faces += made.faces
        report.notes += [note for note in made.notes if note not in report.notes]
    return report


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
        find_preset(options.preset)  # an unknown name fails before any work
    refuse_bad_pdfx(options.pdfx, options.profile, kind)
    if options.base_url is not None and kind != "tts":
        raise PnpError(f"--base-url {options.base_url}: it says where TTS images are hosted; expected it only with tts")
    if options.base_url is not None and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", options.base_url):
        raise PnpError(f"--base-url {options.base_url}: expected an http or https address of the folder holding the "
                       "images, such as https://example.com/my-game/tts")
