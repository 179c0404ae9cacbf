"""Turn `pnpgen diff` into files: compare the project with REF, write changes.html and changes.pdf, report."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..files.atomic import replace_all, staging_path, unwritable
from ..project.validate import load_project
from .html import render_html
from .pdf import render_pdf
from .report import as_json, list_changes
from .session import compare_project


@dataclass(frozen=True)
class DiffOptions:
    out_dir: Path | None = None  # default: PROJECT/output
    since: str | None = None  # a git revision or "last-build"; default: the last commit, else the last build
    game: str | None = None
    cache: bool = True
    cache_dir: Path | None = None


@dataclass
class DiffReport:
    lines: list[str] = field(default_factory=list)
    json: dict = field(default_factory=dict)
    written: list[Path] = field(default_factory=list)
    rasterised: int = 0  # face images drawn: only those of changed faces
    notes: list[str] = field(default_factory=list)


def diff(path: str | Path = ".", options: DiffOptions | None = None) -> DiffReport:
    """Compare the project at path with options.since; write OUTDIR/changes.html and OUTDIR/changes.pdf."""
    options = options or DiffOptions()
    project = load_project(Path(path))
    out_dir = Path(options.out_dir) if options.out_dir else project.root / "output"
    with compare_project(project, options.since, options.game, out_dir, cache=options.cache,
                         cache_dir=options.cache_dir) as comparison:
        report = DiffReport(list_changes(comparison), as_json(comparison), rasterised=comparison.rasterised)
        html = render_html(comparison).encode("utf-8")
        pdf = render_pdf(comparison, comparison.fontbook.resolve(None))
    staged = []
    try:  # both files replace their targets together, or neither does
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, data in (("changes.html", html), ("changes.pdf", pdf)):
            staged.append((staging_path(out_dir / name), out_dir / name))
            staged[-1][0].write_bytes(data)
    except OSError as err:
        for staging, _ in staged:
            staging.unlink(missing_ok=True)
        raise unwritable(out_dir / "changes.html", "comparison", err) from None
    replace_all(staged, "comparison")
    report.written = [target for _, target in staged]
    return report
