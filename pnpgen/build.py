"""Turn a project folder into print-ready PDFs: the pipeline from cards.yaml to output/."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import units
from .check import check_project, failures
from .convert import Converter
from .errors import PnpError
from .expand import expand_pieces
from .fonts import FontBook
from .impose import Item, Page, SheetSpec, impose, plan_grid
from .model import Component, Game, Project, Size
from .render import Renderer, describe_card
from .validate import load_project
from .write_pdf import write_pdf

BUNDLED_FONTS = Path(__file__).resolve().parent.parent / "fonts"


@dataclass(frozen=True)
class Options:
    out_dir: Path | None = None
    paper: str = "a4"
    game: str | None = None
    duplex: str = "long"  # long | short | none
    back_offset: tuple[float, float] = (0.0, 0.0)  # points
    gutterfold: bool = False
    check: bool = True
    only: str = "all"  # all | components | rules
    rules_page: str = "a4"  # a4 | a5
    booklet: bool = False  # A5 rulebook pages imposed two-up on A4 in saddle-stitch order


@dataclass
class Report:
    """What a build wrote and what the user should know about it."""

    written: list[Path] = field(default_factory=list)
    pieces: int = 0
    faces: int = 0
    renders: int = 0
    notes: list[str] = field(default_factory=list)


def build(path: str | Path = ".", options: Options | None = None, progress: Callable[[str], None] | None = None) -> Report:
    options = options or Options()
    project = load_project(Path(path))
    games = select_games(project, options.game)
    if options.check:
        failed = failures(check_project(project, games))
        if failed:
            raise PnpError([f.as_problem() for f in failed] + [no_check_hint()])
    out_dir = Path(options.out_dir) if options.out_dir else project.root / "output"
    fontbook = open_fontbook(project)
    renderer = Renderer(project, fontbook)
    converter = Converter(fontbook, project.root)
    report = Report()
    with_components = options.only in ("all", "components")
    planned = [(game, [(c, *lay_out(game, c, options, renderer, converter, report)) for c in game.components]
                if with_components else []) for game in games]
    # Everything is typeset before anything is written: a build that fails writes nothing.
    staged = stage_rules(project, games, options, out_dir, fontbook, renderer, converter) if options.only != "components" else []
    initial_font = fontbook.resolve(None)
    for game, components in planned:
        if not components:
            continue
        game_pages: list[Page] = []
        drawings: dict = {}
        for component, pages, faces in components:
            target = out_dir / game.id / f"{component.id}.pdf"
            write_pdf(pages, faces, target, title=f"{game.title} — {component.name}", initial_font=initial_font, bleed=component.bleed,
                      subject=project.name)
            report.written.append(target)
            report.notes.extend(note_reduced_bleed(game, component, options))
            game_pages.extend(pages)
            drawings.update(faces)
            if progress:
                progress(f"{game.id}/{component.id}.pdf")
        target = out_dir / game.id / f"{game.id}-print-and-play.pdf"
        write_pdf(game_pages, drawings, target, title=game.title, initial_font=initial_font, bleed=None,
                  subject=project.name)
        report.written.append(target)
    for staged_file, target in staged:
        os.replace(staged_file, target)
        report.written.append(target)
    report.renders = renderer.renders
    report.faces = converter.conversions
    return report


def stage_rules(project, games, options, out_dir, fontbook, renderer, converter) -> list[tuple[Path, Path]]:
    """Typeset every rulebook and rules sheet into a staging folder; the caller moves them into place."""
    from .rules import build_rulebook, build_rules_sheet

    staged = []
    for game in games:
        targets = []
        if game.rulebook:
            targets.append((build_rulebook, game.rulebook, "rulebook.pdf",
                            {"page": options.rules_page, "booklet": options.booklet}))
        if game.rules_sheet:
            targets.append((build_rules_sheet, game.rules_sheet, "rules-sheet.pdf", {}))
        for typeset, source, name, extra in targets:
            target = out_dir / game.id / name
            target.parent.mkdir(parents=True, exist_ok=True)
            staging = target.parent / f".{name}.staged"
            typeset(project, game, Path(source), staging, fontbook=fontbook, renderer=renderer, converter=converter, **extra)
            staged.append((staging, target))
    return staged


def select_games(project: Project, game_id: str | None) -> tuple[Game, ...]:
    if game_id is None:
        return project.games
    game = project.game(game_id)
    if game is None:
        known = ", ".join(g.id for g in project.games)
        raise PnpError(f"--game {game_id}: no such game in {project.source.name}; expected one of: {known}")
    return (game,)


def open_fontbook(project: Project) -> FontBook:
    dirs = [d for d in (BUNDLED_FONTS, project.root / "fonts") if d.is_dir()]
    unique = list(dict.fromkeys(d.resolve() for d in dirs))
    return FontBook(unique, cache_dir=project.root / ".pnpgen-cache" / "fonts", default_family=project.default_font)


def sheet_spec(component: Component, options: Options) -> SheetSpec:
    paper_name = component.layout.paper or options.paper
    width, height = units.PAPER_SIZES_MM[paper_name]
    has_back = component.back is not None
    return SheetSpec(
        paper=Size(units.mm(width), units.mm(height)),
        bleed=component.bleed,
        gap=component.layout.gap,
        crop_marks=component.layout.crop_marks,
        cut_lines=component.layout.cut_lines,
        shape=component.shape,
        duplex=options.duplex if has_back else "none",
        back_offset=options.back_offset,
        gutterfold=options.gutterfold and has_back,
    )


def lay_out(game: Game, component: Component, options: Options, renderer: Renderer, converter: Converter, report: Report):
    """Render every piece's faces, convert each distinct face once, and impose them on pages."""
    spec = sheet_spec(component, options)
    refuse_oversize(component, spec, options)
    items, faces = [], {}
    for piece in expand_pieces(component):
        front = renderer.render(game, component, piece.card, "front")
        back = renderer.render(game, component, piece.card, "back")
        for face in (front, back):
            if face is not None and face.key not in faces:
                try:
                    faces[face.key] = converter.convert(face.key, face.svg, face.template)
                except PnpError as err:
                    raise PnpError(f"{component.id} card {describe_card(piece.card)}: {err.problems[0].message}",
                                   piece.card.location) from None
        items.append(Item(front.key, back.key if back else None, component.size, f"{component.id} #{piece.index}"))
        report.pieces += 1
    try:
        pages = impose(items, spec)
    except ValueError as err:
        raise PnpError(f"component '{component.id}': {err}", component.location) from None
    return pages, faces


def refuse_oversize(component: Component, spec: SheetSpec, options: Options) -> None:
    """Maps and sheets larger than the paper are tiled; a card or chip that large is a mistake."""
    if component.kind in ("map", "sheet"):
        return
    try:
        plan_grid(component.size, spec)
    except ValueError:
        w, h = units.to_mm(component.size.width), units.to_mm(component.size.height)
        paper = component.layout.paper or options.paper
        raise PnpError(f"component '{component.id}' ({w:g} × {h:g} mm) does not fit on {paper.upper()} with 6 mm margins; "
                       "expected a smaller size, a larger paper, or kind: map to tile it across sheets",
                       component.location) from None


def note_reduced_bleed(game: Game, component: Component, options: Options) -> list[str]:
    """Tell the user when the 6 mm margin left less outer bleed than the component asks for."""
    try:
        used = plan_grid(component.size, sheet_spec(component, options)).bleed
    except ValueError:  # tiled maps keep their full bleed
        return []
    smallest = min(used.left, used.bottom, used.right, used.top)
    if component.bleed <= 0 or smallest >= component.bleed - 0.01:
        return []
    paper = (component.layout.paper or options.paper).upper()
    return [f"{game.id}/{component.id}: on {paper} the outer bleed is {units.to_mm(smallest):.1f} mm on some edges "
            f"(asked {units.to_mm(component.bleed):g} mm) to keep the 6 mm margin home printers cannot print"]


def no_check_hint():
    from .errors import Problem

    return Problem(None, "the build stopped because checks failed; fix the data or run `pnpgen check` for details "
                         "(`pnpgen build --no-check` builds anyway)")
