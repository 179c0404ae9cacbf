"""Turn command-line arguments into library calls, and PnpErrors into messages and exit codes."""
from __future__ import annotations

import json
import math
import shlex
import sys
from pathlib import Path

import click

from . import units
from .pipeline.build import Options, build
from .pipeline.progress import ProgressLine
from .errors import CONTROL, PnpError, shown
from .project.summary import counted

PAPERS = click.Choice(list(units.PAPER_SIZES_MM), case_sensitive=False)  # what `layout: paper` takes


def say(line: str) -> None:
    """One line of output: anything from the project in it (names, titles, quotes) cannot drive the terminal."""
    click.echo(shown(line))


def echo_json(value) -> None:
    text = json.dumps(value, ensure_ascii=False, indent=2)
    # json.dumps escapes C0 controls inside strings; the others (C1, bidi overrides) get JSON escapes too
    click.echo(CONTROL.sub(lambda m: m.group() if m.group() == "\n" else f"\\u{ord(m.group()):04x}", text))


def parse_offset(_ctx, _param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
    except ValueError:
        raise click.BadParameter("expected X,Y in millimetres, such as 0.5,-1") from None
    return units.mm(x), units.mm(y)


class Commands(click.Group):
    """The commands; whichever raises a PnpError ends with its messages and exit code 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpError as err:
            for problem in err.problems:
                click.echo(f"error: {problem}" if problem.location is None else str(problem), err=True)
            sys.exit(1)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnpgen")
def main() -> None:
    """Print-and-play components from YAML data and SVG templates."""


@main.command("build")
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path), help="Output folder (default: PROJECT/output).")
@click.option("--paper", type=PAPERS, default="a4", show_default=True, help="Paper size.")
@click.option("--game", help="Build only this game id.")
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default=None,
              help="Back pages for long-edge or short-edge duplex, or none. [default: long; a --booklet: short, "
                   "or long-edge if asked]")
@click.option("--back-offset", default="0,0", callback=parse_offset, show_default=True,
              help="Shift back pages by X,Y mm to correct a printer's duplex misalignment.")
@click.option("--gutterfold", is_flag=True, help="Fronts and backs side by side, to fold and glue.")
@click.option("--no-check", is_flag=True, help="Build even when `pnpgen check` finds failures.")
@click.option("--only", type=click.Choice(["all", "components", "rules"]), default="all", show_default=True,
              help="Build only the components, or only the rulebooks and rules sheets.")
@click.option("--rules-page", type=click.Choice(["a4", "a5", "letter", "half-letter"]), default=None,
              help="Rulebook page size. [default: the paper's own, a4 or letter]")
@click.option("--booklet", is_flag=True, help="Rulebook as a saddle-stitch booklet of half-size pages on the paper "
                                              "(A5 on A4, half-letter on Letter; print duplex, short-edge flip).")
@click.option("--no-cache", is_flag=True, help="Render, convert and write everything again.")
@click.option("--reprint", is_flag=True, help="Write only <game>-reprint.pdf: the pieces changed or added since REF.")
@click.option("--since", metavar="REF", help="With --reprint: a git revision or last-build (default: the last commit, "
                                             "else the last build).")
@click.option("--sheet-per-component", is_flag=True, help="In the print-and-play PDF, keep each component on sheets "
                                                          "of its own (by default small components share sheets).")
@click.option("--final", is_flag=True, help="Print rulebooks without the 「仮」 marks (the build says how many remain).")
@click.option("--lang", metavar="CODE", help="Build this edition (a language code, or all) into OUTDIR/<game>/<lang>/.")
@click.option("--clean", is_flag=True, help="Delete PDFs earlier builds wrote for components or games that are gone "
                                            "(without it they are only reported).")
def build_command(project, out_dir, paper, game, duplex, back_offset, gutterfold, no_check, only, rules_page, booklet,
                  no_cache, reprint, since, sheet_per_component, final, lang, clean) -> None:
    """Build every component of PROJECT (a folder with cards.yaml, or a YAML file) into PDFs."""
    options = Options(out_dir=out_dir, paper=paper.lower(), game=game, duplex=duplex, back_offset=back_offset,
                      gutterfold=gutterfold, check=not no_check, only=only, rules_page=rules_page, booklet=booklet,
                      cache=not no_cache, clean=clean, share_sheets=not sheet_per_component, final=final, lang=lang)
    if reprint or since:
        return reprint_command(project, options, reprint, since)
    report = run_with_progress(lambda progress: build(project, options, progress=progress))
    written = report.written + report.unchanged
    unchanged = f", {len(report.unchanged)} unchanged" if report.unchanged else ""
    cached = ", the rest from the cache" if report.reused else ""
    say(f"wrote {counted(len(report.written), 'PDF')}{unchanged} ({counted(report.pieces, 'piece')}; "
        f"{counted(report.renders, 'face')} rendered, {report.faces} converted{cached}) into {common_folder(written)}")


def reprint_command(project: Path, options: Options, reprint: bool, since: str | None) -> None:
    from .diff.reprint import reprint as write_reprint

    if not reprint:
        raise PnpError(f"--since {since}: goes with --reprint; expected `pnpgen build --reprint --since {since}`")
    report = run_with_progress(lambda _progress: write_reprint(project, options, since))
    for line in report.lines:
        click.echo(line)


def run_with_progress(job):
    """job(progress) with a progress line on terminals, then its notes printed."""
    bar = ProgressLine()
    try:
        report = job(bar.show)
    finally:
        bar.clear()
    for note in report.notes:
        say(f"note: {note}")
    return report


def common_folder(paths: list[Path]) -> str:
    if not paths:
        return "nothing"
    parents = {p.parent.parent for p in paths}
    return str(parents.pop()) if len(parents) == 1 else str(paths[0].parent)


@main.command("check")
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("--game", help="Check only this game id.")
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON (the documentation's checker page gives the shape).")
@click.option("--strict", is_flag=True, help="Also list every number in rulebooks and card text that no component or figure accounts for.")
@click.option("--lang", metavar="CODE", help="Also check this edition (a language code, or all): its rulebooks and card text in its language, and each untranslated text.")
@click.option("--draft", is_flag=True, help="With --lang: a missing translation is a warning, not a failure.")
def check_command(project, game, as_json, strict, lang, draft) -> None:
    """Hold the data to the figures its design documents state."""
    from .pipeline.check import check

    findings = check(project, game, strict, lang=lang, draft=draft)
    summary = {s: sum(f.status == s for f in findings) for s in ("pass", "fail", "warn")}
    if as_json:
        echo_json({"version": 1, "summary": summary, "findings": [f.as_dict() for f in findings]})
    else:
        for finding in findings:
            say(finding.line())
        click.echo(f"{summary['pass']} passed, {summary['fail']} failed, {counted(summary['warn'], 'warning')}")
    sys.exit(1 if summary["fail"] else 0)


@main.command("preflight")
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("--game", help="Inspect only this game id.")
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON.")
def preflight_command(project, game, as_json) -> None:
    """Inspect every face as a print shop would: safe zone, bleed, type and line sizes, image resolution, ink,
    contrast and colour-blind players; exit 1 on any error."""
    from .prepress.preflight import preflight

    findings = preflight(project, game)
    errors = sum(f.severity == "error" for f in findings)
    if as_json:
        echo_json({"errors": errors, "warnings": len(findings) - errors, "findings": [f.as_dict() for f in findings]})
    else:
        for finding in findings:
            say(finding.line_text())
        click.echo(f"{counted(errors, 'error')}, {counted(len(findings) - errors, 'warning')}")
    sys.exit(1 if errors else 0)


@main.command("watch")
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path), help="Output folder (default: PROJECT/output).")
@click.option("--paper", type=PAPERS, default="a4", show_default=True, help="Paper size.")
@click.option("--game", help="Build only this game id.")
@click.option("--no-check", is_flag=True, help="Build even when checks fail.")
@click.option("--interval", type=click.FloatRange(0.1, 10), default=0.5, show_default=True, help="Seconds between looks at the files; a save the system tells of is seen at once.")
def watch_command(project, out_dir, paper, game, no_check, interval) -> None:
    """Rebuild PROJECT whenever cards.yaml, a template, a font or an image changes (Ctrl-C stops)."""
    from .live.watch import watch

    options = Options(out_dir=out_dir, paper=paper.lower(), game=game, check=not no_check)
    try:
        watch(project, options, say, interval=interval)
    except KeyboardInterrupt:
        click.echo("stopped")


@main.command("init")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--name", help="The game's title (default: the folder name, or the sheet's).")
@click.option("--from-sheet", "sheet", type=click.Path(path_type=Path),
              help="Start around this spreadsheet (.csv, .xlsx, .xls, .ods): a component per tab, a front showing "
                   "every column.")
def init_command(folder, name, sheet) -> None:
    """Start a new project in FOLDER: a small deck, its templates and a README (or, with --from-sheet, the cards of
    an existing spreadsheet)."""
    from .project.init import init_from_sheet, init_project

    written = init_from_sheet(folder, sheet, name) if sheet else init_project(folder, name)
    say(f"created {folder} ({counted(len(written), 'file')}). Next: cd {shlex.quote(str(folder))} && pnpgen build")


@main.command("list")
@click.argument("project", default=".", type=click.Path(path_type=Path))
def list_command(project) -> None:
    """Show the games, components, card counts and sizes of PROJECT."""
    from .project.summary import summary_lines
    from .project.validate import load_project

    for line in summary_lines(load_project(project)):
        say(line)


@main.command("export")
@click.argument("kind", type=click.Choice(["png", "tts", "shop", "proof", "csv", "xlsx"]))
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path), help="Output folder (default: PROJECT/output).")
@click.option("--game", help="Export only this game id.")
@click.option("--dpi", type=int, help="Resolution, 30–1200 (png and shop: 300; tts: the most that fits 4096 px, ≤ 300).")
@click.option("--no-bleed", is_flag=True, help="png: crop every image to the trim.")
@click.option("--preset", help="shop: a print-shop size such as dtpc-poker (default: the one matching each component).")
@click.option("--workers", type=click.IntRange(1, 64), help="Processes rasterising (default: every core).")
@click.option("--base-url", help="tts: the http(s) address the images will be hosted at (default: file names "
                                 "beside the JSON).")
@click.option("--pdfx", type=click.Choice(["1a", "4"]), is_flag=False, flag_value="1a",
              help="shop: the PDFs as CMYK PDF/X-1a:2001 (--pdfx alone) or PDF/X-4 (--pdfx 4) for a press.")
@click.option("--profile", type=click.Choice(["fogra39", "gracol", "swop"]), metavar="PRESS",
              help="With --pdfx: the press to separate for: fogra39 (default, coated offset in Europe), gracol, swop.")
@click.option("--no-check", is_flag=True, help="Export even when `pnpgen check` finds failures.")
@click.option("--no-cache", is_flag=True, help="Render and convert every face again.")
@click.option("--lang", metavar="CODE", help="Export this edition (a language code, or all) into OUTDIR/<game>/<lang>/.")
def export_command(kind, project, out_dir, game, dpi, no_bleed, preset, workers, base_url, pdfx, profile, no_check,
                   no_cache, lang) -> None:
    """Export PROJECT as a PNG per face (png), Tabletop Simulator decks (tts), print-shop files (shop), proof
    sheets (proof), or its cards as spreadsheets that read back as the same cards (csv: a file per component;
    xlsx: a workbook per game, a tab per component), into OUTDIR/<game>/<kind>/."""
    from .export.run import ExportOptions, export

    options = ExportOptions(out_dir=out_dir, game=game, dpi=dpi, bleed=not no_bleed, preset=preset,
                            workers=workers, check=not no_check, cache=not no_cache, base_url=base_url, pdfx=pdfx,
                            profile=profile, lang=lang)
    report = run_with_progress(lambda progress: export(project, kind, options, progress=progress))
    removed = f", removed {counted(len(report.removed), 'stale image')}" if report.removed else ""
    faces = f", {report.faces} distinct faces" if report.faces else ""
    say(f"wrote {counted(len(report.written), 'file')}{removed} ({counted(report.pieces, 'piece')}{faces}) "
        f"into {report.out_dir}")


@main.command("diff")
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("--since", "since", metavar="REF",
              help="A git revision (HEAD~2, a tag) or last-build (default: the last commit, else the last build).")
@click.option("--game", help="Compare only this game id.")
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path), help="Output folder (default: PROJECT/output).")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON (the documentation's designer's loop page gives the shape).")
def diff_command(project, since, game, out_dir, as_json) -> None:
    """Show which cards, faces and rulebook sections changed since REF; write changes.html and changes.pdf."""
    from .diff.run import DiffOptions, diff

    report = diff(project, DiffOptions(out_dir=out_dir, since=since, game=game))
    if as_json:
        echo_json(report.json)
        return
    for line in report.lines:
        click.echo(line)
    click.echo(f"wrote {', '.join(p.name for p in report.written)} ({counted(report.rasterised, 'face image')}) "
               f"into {report.written[0].parent}")


@main.command("serve")
@click.argument("project", default=".", type=click.Path(path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Loopback address to listen on: 127.0.0.1, ::1 or localhost.")
@click.option("--game", help="Show only this game id.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default web browser.")
@click.option("--since", metavar="REF", help="Mark the cards changed since REF (a git revision or last-build) "
                                             "and show old and new side by side at /changes.html.")
def serve_command(project, port, host, game, open_browser, since) -> None:
    """A live gallery of every face of PROJECT and its checks in your browser, rebuilt on every save (Ctrl-C stops)."""
    from .live.serve import serve

    def ready(url: str) -> None:
        say(f"serving {project} at {url} — Ctrl-C to stop")
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    try:
        serve(project, host=host, port=port, options=Options(game=game), ready=ready, since=since)
    except KeyboardInterrupt:
        click.echo("stopped")
