"""Turn a project folder into print-ready PDFs: the pipeline from cards.yaml to output/."""
from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from .._version import __version__
from ..files.atomic import refuse_links_out, replace_all, staging_path
from ..digests import digest
from .manifest import Manifest
from .record import record_build
from .uptodate import LastBuild, possible_outputs
from ..templating import run_budget
from ..templating.run_budget import Spender, apart, whole_run

if TYPE_CHECKING:
    from ..project.model import Game, Project
    from ..faces.face import Face
    from ..faces.render import Renderer
    from ..press.impose import Page

# A build whose outputs are up to date loads nothing more than the modules above: what renders, paints, checks,
# lays out and writes (and the project model, with its loader) is imported by the functions that do it.

@dataclass(frozen=True)
class Options:
    out_dir: Path | None = None
    paper: str = "a4"
    game: str | None = None
    duplex: str | None = None  # long | short | none; None: long for components, short for a booklet
    back_offset: tuple[float, float] = (0.0, 0.0)  # points
    gutterfold: bool = False
    check: bool = True
    only: str = "all"  # all | components | rules
    rules_page: str | None = None  # a4 | a5 | letter | half-letter; None: the paper's own (a4 or letter)
    booklet: bool = False  # half-size rulebook pages imposed two-up on the paper in saddle-stitch order
    cache: bool = True  # reuse rendered faces and converted drawings, skip unchanged PDFs
    cache_dir: Path | None = None  # default: $PNPGEN_CACHE, else ~/.cache/pnpgen
    clean: bool = False  # delete PDFs earlier builds wrote for components or games that are gone
    share_sheets: bool = True  # small components share sheets in the print-and-play PDF
    final: bool = False  # rulebooks print the numbers the data only assumes without their 「仮」 marks
    lang: str | None = None  # the edition: a language of the project, all, or None for the original (editions.py)


@dataclass
class Report:
    """What a build wrote and what the user should know about it."""

    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    pieces: int = 0
    faces: int = 0  # faces converted from SVG in this build (the rest came from the cache)
    renders: int = 0  # faces rendered from templates in this build
    reused: bool = False  # whether some faces came from the cache
    notes: list[str] = field(default_factory=list)


@dataclass
class Output:
    """One file the build is responsible for, and what it takes to write it."""

    target: Path
    digest: str
    pages: list[Page] = field(default_factory=list)
    faces: dict[str, Face] = field(default_factory=dict)  # those still to convert (the rest are in the pack)
    title: str = ""
    bleed: float | None = None
    typeset: Callable | None = None  # rulebooks: typeset(staging_path)
    source: Spender | None = None  # what writing it is charged to (components' PDFs: their own, their game's)
    appendix: Output | None = None  # a print-and-play PDF: the rulebook whose pages end it
    same_as: Output | None = None  # the output whose PDF this one is under another title (pipeline/pdf_jobs.py)


def build(path: str | Path = ".", options: Options | None = None,
          progress: Callable[[str, int, int, str], None] | None = None) -> Report:
    """Build every output of the project that is not already up to date; see Options.

    progress(phase, done, total, label) is called as components are rendered and files written.
    """
    options = options or Options()
    if options.lang is not None:
        from .editions import build_editions

        return build_editions(path, options, functools.partial(build_project, progress=progress), Report())
    last = LastBuild(Path(path), options)  # before loading: a file edited meanwhile spoils the digest, not the answer
    if last.holds():
        return last.answer(Report())
    from ..project.validate import load_project

    project = load_project(Path(path))
    last.note_loaded(project)
    return build_project(project, options, progress, last)


@whole_run("build")
def build_project(project: Project, options: Options, progress=None, last: LastBuild | None = None,
                  memos: dict | None = None) -> Report:
    """build() for a project already loaded (watch reuses the model it compares); last: its record, to renew;
    memos: what checking the card text gave, kept by a process that builds again (check_project)."""
    from ..faces.convert import Converter
    from ..faces.inputs import input_digests
    from ..faces.render import Renderer
    from ..press.append_pdf import append_pdf
    from ..press.layout import refuse_conflicting_options
    from ..press.write_pdf import write_document
    from ..project.editions import edition_folder
    from ..store.cache import Cache, default_cache_dir
    from .prepare import counter, note_final, open_fontbook, refuse_empty_rules, refuse_failed_checks, select_games
    from .pdf_jobs import group_retitled, share_writing, write_group
    from .prerender import render_ahead
    from .print_notes import note_print_flaws
    from .workers import Background, in_turn

    refuse_conflicting_options(options)
    games = select_games(project, options.game)
    refuse_empty_rules(games, options)
    # Without the cache the faces are kept for this build only, in memory.
    cache = Cache(options.cache_dir or default_cache_dir() if options.cache else None)
    if options.check:
        refuse_failed_checks(project, games, memos, cache)
    report = Report(notes=note_final(games) if options.final else [])
    out_dir = Path(options.out_dir) if options.out_dir else project.root / "output"
    refuse_links_out(project.root, out_dir, *(out_dir / game.id / edition_folder(project) for game in games))
    fontbook = open_fontbook(project, options)
    inputs, assets = input_digests(project)
    converter = Converter(fontbook, project.root, cache)
    renderer = Renderer(project, fontbook, cache, inputs, store=converter.paint, final=options.final)
    report.notes.extend([renderer.stamp.note] if renderer.stamp.note else [])  # a stamp the repository denied
    manifest = Manifest(out_dir)

    def is_stale(output: Output) -> bool:
        return not (options.cache and manifest.is_current(output.target, output.digest))

    game_rules = {game.id: plan_rules(project, game, options, out_dir, fontbook, renderer, converter)
                  for game in games if options.only != "components"}
    rules = [o for outputs in game_rules.values() for o in outputs]
    stale_rules = [o for o in rules if is_stale(o)]
    staged: list[tuple[Path, Path]] = []
    jobs: list[Background] = []

    # Every output is made in full beside its target first, then all replace their targets together:
    # a build that fails (or is interrupted) leaves the previous outputs as they were.
    def stage(output: Output) -> Path:
        staged.append((staging_path(output.target), output.target))
        return staged[-1][0]

    try:
        for output in stale_rules:  # a typesetter writes its file itself, into the folder made here
            output.target.parent.mkdir(parents=True, exist_ok=True)
        # typeset on the other core while this one does the components
        typesets = [functools.partial(output.typeset, stage(output)) for output in stale_rules]
        # All in one process, which reads the fonts and makes the half-width ones once; started first, for
        # it is the longest single job of a build with rulebooks (typesetting, and its pictures' faces).
        jobs.extend([Background(apart(in_turn(typesets)))] if typesets else [])
        render_ahead(games if options.only != "rules" else (), renderer, converter, progress)
        tick = counter("laying out", sum(len(g.components) for g in games), progress)
        components = [o for game in games if options.only != "rules"
                      for o in plan_components(project, game, options, out_dir, renderer, report, tick, assets,
                                               game_rules.get(game.id, ()))]
        renderer.face_keys.components.clear()  # every card is laid out: its face keys are not needed again
        stale_components = [o for o in components if is_stale(o)]
        forms = converter.convert_faces(face for output in stale_components for face in output.faces.values())
        report.notes.extend(note_print_flaws(components, forms, converter.pack, project.root))  # written or not
        initial_font = fontbook.resolve(None) if stale_components else ""

        document = functools.partial(write_document, drawings=forms, initial_font=initial_font, subject=project.name,
                                     duplex=options.duplex or "long")
        mine, theirs = share_writing(group_retitled(stale_components))
        if theirs:  # written on the other core meanwhile: each PDF is made whole by one process
            jobs.append(Background(apart(in_turn([functools.partial(write_group, group, [stage(o) for o in group],
                                                                    document) for group in theirs]))))
        for done, group in enumerate(mine, 1):
            write_group(group, [stage(output) for output in group], document)
            if progress:
                progress("writing", done, len(mine), manifest.key(group[0].target))
        cache.save()  # while the other core finishes: the faces are kept even if a PDF then fails
        for job in jobs:
            run_budget.take(job.wait())  # what the other core spent counts too
        cache.close()  # the processes that read the faces are done
        staged_as = {target: staging for staging, target in staged}
        for output in (o for o in stale_components if o.appendix is not None):  # its rulebook is typeset by now
            append_pdf(staged_as[output.target], staged_as.get(output.appendix.target, output.appendix.target))
        sizes = {target: staging.stat().st_size for staging, target in staged}
        replace_all(staged, "PDF")
    except BaseException:
        for job in jobs:
            job.cancel()
        for staging, _ in staged:
            with contextlib.suppress(OSError):  # e.g. its folder could not be made: nothing to remove
                staging.unlink(missing_ok=True)
        raise
    stale = stale_components + stale_rules
    report.unchanged = [o.target for o in components + rules if o not in stale]
    for output in stale:
        manifest.record(output.target, output.digest, sizes[output.target])
        report.written.append(output.target)
    renewed = last is not None and last.remember(project, manifest, components + rules, report, renderer.stamp.revision)
    notes, removed = manifest.tidy(possible_outputs(project), options.game, options.clean)
    report.notes.extend(notes)
    if stale or removed or renewed:
        manifest.save()
    record_build(project, out_dir, renderer.stamp.revision)  # what `diff --since last-build` compares with
    report.notes.extend(cache.notes)  # a cache folder refused: this build, not the next, went without it
    report.renders, report.faces, report.reused = renderer.renders, converter.conversions, renderer.reused
    return report


def plan_components(project: Project, game: Game, options: Options, out_dir: Path, renderer: Renderer, report: Report,
                    tick: Callable[[str], None], assets: str, rules: Sequence[Output] = ()) -> list[Output]:
    """One output per component and the game's print-and-play PDF, each with its pages and faces; rules: the
    game's rulebook and rules sheet to build, the first of which ends the print-and-play PDF (a booklet's
    sheets print flipping on the other edge: it keeps to its own file)."""
    from ..press.layout import lay_out, note_bare_edges, note_pinned_paper, note_reduced_bleed
    from ..press.shared_sheets import laid_out, note_shared_sheets, share_sheets
    from ..press.sheet_order import end_sheet, order_for_duplex
    from ..project.editions import edition_folder
    from .pdf_digest import pdf_digest

    outputs, laid, folder = [], [], out_dir / game.id / edition_folder(project)
    for component in game.components:
        tick(f"{game.id}/{component.id}")
        pages, faces, items, spec = lay_out(game, component, options, renderer, report)
        laid.append(laid_out(component.id, items, spec, pages))
        title = f"{game.title} — {component.name}"
        # Digests only decide what to skip: without the cache nothing is skipped, so none is computed.
        found = pdf_digest(project, assets, title, pages, component.bleed, items, spec) if options.cache else ""
        outputs.append(Output(folder / f"{component.id}.pdf", found, pages, faces, title, component.bleed,
                              source=Spender(f"the PDF of component {game.id}/{component.id}", component.location, "")))
        report.notes.extend(note_reduced_bleed(game, component, options))
        report.notes.extend(note_bare_edges(game, component, pages, options))
        report.notes.extend(note_pinned_paper(game, component, pages, options))
        report.notes.extend(dict.fromkeys(f"{game.id}/{component.id}: {note}" for page in pages for note in page.notes))
    if outputs:
        pages, shared = share_sheets(laid) if options.share_sheets else (
            order_for_duplex([page for output in outputs for page in output.pages]), [])
        report.notes.extend(note_shared_sheets(game, pages, shared))
        faces = {key: face for o in outputs for key, face in o.faces.items()}
        appendix = rules[0] if rules and not options.booklet else None
        found = digest(__version__, "print-and-play", game.title, [o.digest for o in outputs], options.share_sheets,
                       appendix.digest if appendix else None) if options.cache else ""
        pages = end_sheet(pages) if appendix else pages
        alone = outputs[0] if len(outputs) == 1 and appendix is None and len(pages) == len(outputs[0].pages) and all(
            page is its for page, its in zip(pages, outputs[0].pages)) else None  # the pages of its one component
        outputs.append(Output(folder / f"{game.id}-print-and-play.pdf", found, pages, faces, game.title,
                              alone.bleed if alone else None,
                              source=Spender(f"the print-and-play PDF of game {game.id}", game.location, ""),
                              appendix=appendix, same_as=alone))
    return outputs


def plan_rules(project, game, options, out_dir, fontbook, renderer, converter) -> list[Output]:
    """The rulebook and rules sheet of a game: their sources, what typesetting them reads of the data (else all the
    game's data files) and the templates decide their bytes."""
    from ..rules.reads import data_files_digest, rulebook_digest
    from ..rules.sizes import rulebook_pages
    from ..project.editions import edition_folder

    files = data_files_digest(project, game)  # once a game: its rulebook and rules sheet read the same
    planned = []
    if game.rulebook:
        page, sheet = rulebook_pages(options.paper, options.rules_page, options.booklet)
        flip = "long" if options.duplex == "long" else "short"  # a booklet flips on the short edge unless asked
        extra = {"page": page, "booklet": options.booklet, "sheet": sheet, "final": options.final,
                 **({"flip": flip} if options.booklet else {})}
        planned.append((game.rulebook, "rulebook.pdf", extra))
    if game.rules_sheet:
        planned.append((game.rules_sheet, "rules-sheet.pdf",
                        {"page": rulebook_pages(options.paper, options.rules_page, False)[0], "final": options.final}))
    outputs, folder = [], out_dir / game.id / edition_folder(project)
    for source, name, extra in planned:
        def run(staging, source=source, name=name, extra=extra):
            from ..rules.typeset import build_rulebook, build_rules_sheet

            typeset = build_rulebook if name == "rulebook.pdf" else build_rules_sheet
            typeset(project, game, Path(source), staging, fontbook=fontbook, renderer=renderer, converter=converter, **extra)
        text = Path(source).read_bytes()
        reads = rulebook_digest(project, game, text, Path(source), renderer, options.final, files)
        outputs.append(Output(folder / name, digest(__version__, name, game.id, text, reads, renderer.inputs,
                                                   sorted(extra.items())), typeset=run))
    return outputs
