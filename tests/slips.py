"""Apply a designer's slip to a copy of the bundled project, and read the failed findings that follow."""
from pathlib import Path

import pnpgen


def edit(project: Path, file: str, old: str, new: str) -> None:
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def failed(project: Path, game: str | None = None, strict: bool = False) -> list:
    if strict:
        from pnpgen.checks.checker import check_project
        from pnpgen.project.validate import load_project

        loaded = load_project(project)
        return [f for f in check_project(loaded, [g for g in loaded.games if game in (None, g.id)], strict=True)
                if f.status == "fail"]
    return [f for f in pnpgen.check(project, game) if f.status == "fail"]


def append(project: Path, file: str, text: str) -> int:
    """Add prose at the end of a rulebook; the line number where it starts."""
    path = project / file
    before = path.read_text(encoding="utf-8")
    path.write_text(before + "\n" + text + "\n", encoding="utf-8")
    return len(before.splitlines()) + 2


def line_of(project: Path, file: str, text: str) -> int:
    """The line of the file where `text` stands."""
    lines = (project / file).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def located(project: Path, game: str) -> list:
    """Each failed finding as (check, expected, found, file, line)."""
    return [(f.check, str(f.expected), str(f.found), f.location.file, f.location.line) for f in failed(project, game)]
