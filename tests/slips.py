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
