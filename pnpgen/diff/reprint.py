"""Turn a comparison into OUTDIR/<game>/<game>-reprint.pdf: only the changed and added pieces, imposed like a full build.

Every copy of a card whose faces changed is printed again, and the extra copies of a card that gained some;
the pages come from the same sheet spec and imposition as the full build (backs, crop marks, duplex,
gutterfold), so a reprint sheet is cut and sleeved exactly like the first print.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from ..faces.render import Renderer
from ..files.atomic import replace_all, staging_path
from ..pipeline.build import Options, Report
from ..pipeline.prepare import refuse_failed_checks, select_games
from ..press.impose import Item, Page, impose
from ..press.cutouts import is_cutout
from ..press.layout import lay_out, sheet_spec
from ..press.write_pdf import write_pdf
from ..project.expand import expand_pieces
from ..project.model import Component, Game
from ..project.revision import Stamp
from ..project.validate import load_project
from ..pipeline.record import record_build
from .compare import CardChange
from .session import Comparison, compare_project


@dataclass
class ReprintReport:
    lines: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)  # reprints of an earlier run that no longer apply
    notes: list[str] = field(default_factory=list)


def reprint(path: str | Path = ".", options: Options | None = None, since: str | None = None) -> ReprintReport:
    """Write each game's reprint PDF of what changed since `since` (default: the last commit, else the last build)."""
    options = options or Options()
    project = load_project(Path(path))
    games = select_games(project, options.game)
    if options.check:
        refuse_failed_checks(project, games)
    out_dir = Path(options.out_dir) if options.out_dir else project.root / "output"
    report = ReprintReport()
    with compare_project(project, since, options.game, out_dir, cache=options.cache,
                         cache_dir=options.cache_dir) as comparison:
        report.lines.append(f"since {comparison.label}:")
        today = comparison.renderer.stamp
        stamp = Stamp(today.revision, True, comparison.since) if today.revision else today
        renderer = Renderer(project, comparison.fontbook, comparison.renderer.disk, comparison.renderer.inputs, stamp)
        staged = []
        try:  # every game's reprint replaces its target together, or none does
            for game in games:
                staged += reprint_game(game, comparison, renderer, options, out_dir / game.id / f"{game.id}-reprint.pdf",
                                       report)
        except BaseException:
            for staging, _ in staged:
                staging.unlink(missing_ok=True)
            raise
        replace_all(staged, "reprint PDF")
        for stale in report.removed:
            stale.unlink(missing_ok=True)
        record_build(project, out_dir, today.revision)
    report.written = [target for _, target in staged]
    return report


def reprint_game(game: Game, comparison: Comparison, renderer: Renderer, options: Options, target: Path,
                 report: ReprintReport) -> list[tuple[Path, Path]]:
    """Write the game's reprint beside target; return [(staged file, target)], or [] when nothing changed."""
    changes = [c for c in comparison.cards if c.game == game.id]
    pages, faces, sheets, full = [], {}, 0, 0
    for component in game.components:
        again = cut_to_reprint(component, [c for c in changes if c.component == component.id])
        full += count_sheets(component, list(expand_pieces(component)), options)
        if not again.cards:
            continue
        laid, drawn, _, _ = lay_out(game, again, options, renderer, Report())
        sheets += sum(page.side == "front" for page in laid)
        pages += laid
        faces.update(drawn)
    for change in changes:
        if change.status == "removed" or (change.old_card and change.card.copies < change.old_card.copies):
            count = change.card.copies if change.status == "removed" else change.old_card.copies - change.card.copies
            report.lines.append(f"  {game.id}/{change.component}: take out {count} × card {change.index} "
                                f"({change.caption}), {change.status if change.status == 'removed' else 'fewer copies'}")
    if not pages:
        if target.exists():
            report.removed.append(target)  # an earlier reprint no longer says what changed
        report.lines.append(f"  {game.id}: nothing to reprint")
        return []
    summary = f"reprint: {sheets} sheet{'s' if sheets != 1 else ''} instead of {full}"
    pages = label_sheets(pages, f"{game.title} — {summary} (since {comparison.label})")
    drawings = comparison.converter.convert_faces(faces.values())
    staging = staging_path(target)
    staging.parent.mkdir(parents=True, exist_ok=True)
    write_pdf(pages, drawings, staging, title=f"{game.title} — reprint", initial_font=comparison.fontbook.resolve(None),
              bleed=None, subject=f"{summary} since {comparison.label}")
    report.lines.append(f"  {game.id}: {summary} → {target}")
    return [(staging, target)]


def cut_to_reprint(component: Component, changes: list[CardChange]) -> Component:
    """The component holding only what must be printed again: every copy of a card that looks different
    (or is new), and the added copies of a card that only gained copies."""
    by_card = {id(c.card): c for c in changes if c.status != "removed"}
    cards = []
    for card in component.cards:
        change = by_card.get(id(card))
        if change is None:
            continue
        # A die-cut piece's dieline follows its data (a tuck box's depth, its deck's count): any edit reprints it.
        if change.status == "added" or change.faces or (is_cutout(component) and any(
                f.name != "copies" for f in change.fields)):
            cards.append(card)
        elif change.old_card is not None and card.copies > change.old_card.copies:
            cards.append(dataclasses.replace(card, copies=card.copies - change.old_card.copies))
    return dataclasses.replace(component, cards=tuple(cards))


def count_sheets(component: Component, pieces: list, options: Options) -> int:
    """Sheets of paper the pieces take in a full build: pure imposition, nothing rendered."""
    if not pieces:
        return 0
    back = "back" if component.back else None
    items = [Item("front", back, component.size) for _ in pieces]
    try:
        return sum(page.side == "front" for page in impose(items, sheet_spec(component, options)))
    except ValueError:
        return 0


def label_sheets(pages: list[Page], text: str) -> list[Page]:
    """Name the reprint on the margin of every front page: a stray sheet still says what it belongs to."""
    return [dataclasses.replace(page, label=f"{text} {page.label}".strip()) if page.side == "front" else page
            for page in pages]
