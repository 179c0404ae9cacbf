"""Turn a project folder into its findings: the data held to the design documents' figures (`pnpgen check`)."""
from __future__ import annotations

from pathlib import Path

from ..checks.checker import check_edition
from ..checks.translations import check_translations
from ..project.editions import chosen_languages, edition
from ..project.validate import load_project
from .prepare import check_kept, select_games
from ..store.cache import Cache, default_cache_dir
from ..templating.run_budget import whole_run


@whole_run("check")
def check(path: str | Path = ".", game: str | None = None, strict: bool = False, lang: str | None = None,
          draft: bool = False):
    """Load the project and hold its data to the documents' figures; returns every finding (with `strict`, also
    a warning for each number in rulebooks and card text that nothing accounts for). lang (a language, or all) also
    lists every text with no translation into those editions: a failure each, or with `draft` a warning, and holds
    each of those editions' rulebooks and card text to the data in its own language."""
    project = load_project(Path(path))
    editions = [edition(project, code) for code in chosen_languages(project, lang)]  # one that names none is refused
    games = select_games(project, game)
    findings = check_kept(project, games, Cache(default_cache_dir()), strict)
    original = (project.texts or project).languages[:1]
    for made in editions:
        if made.language is not None and made.language not in original:
            findings += check_edition(made, games, strict=strict)
    return findings + (check_translations(project, lang, games, draft) if lang is not None else [])
