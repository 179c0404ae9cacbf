"""Turn a project of several languages and a build's options into each edition's PDFs: output/<game>/<lang>/ for
every language but the original, whose PDFs keep the paths a project of one language has."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

from ..project.editions import chosen_languages, edition
from ..project.model import Project
from ..project.translations import find_missing
from ..project.validate import load_project
from .prepare import refuse_failed_checks, select_games


def build_editions(path: str | Path, options, build_one: Callable, report):
    """build() of the editions options.lang names (a language, or all): the data checked once, in the original's
    words, then each edition built in turn into its own folder by build_one(project, options), into report."""
    project = load_project(Path(path))
    languages = chosen_languages(project, options.lang)
    editions = [edition(project, code) for code in languages]  # a --lang that names none is refused before any build
    if options.check:
        refuse_failed_checks(project, select_games(project, options.game))
    for made in editions:
        built = build_one(made, dataclasses.replace(options, check=False))
        report.written += built.written
        report.unchanged += built.unchanged
        report.pieces += built.pieces
        report.faces += built.faces
        report.renders += built.renders
        report.reused = report.reused or built.reused
        report.notes += note_missing(made, options.game)
        report.notes += [note for note in built.notes if note not in report.notes]
    return report


def note_missing(project: Project, game: str | None) -> list[str]:
    """How many texts of each game the edition prints in the original's words, for want of a translation."""
    if project.language is None or project.language == (project.texts or project).languages[0]:
        return []
    counts: dict[str, int] = {}
    for missing in find_missing(project, (project.language,)):
        if game is None or missing.game == game:
            counts[missing.game] = counts.get(missing.game, 0) + 1
    original = (project.texts or project).languages[0]
    return [f"{name}: {count} {'text has' if count == 1 else 'texts have'} no {project.language} translation and "
            f"print{'s' if count == 1 else ''} in {original} (`pnpgen check --lang {project.language}` lists them)"
            for name, count in counts.items()]
