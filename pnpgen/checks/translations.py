"""Turn the translations an edition lacks into findings: a failure each (a warning in a draft), at its original."""
from __future__ import annotations

from ..project.editions import chosen_languages
from ..project.model import Project
from ..project.translations import find_missing
from .findings import FAIL, WARN, Finding


def check_translations(project: Project, lang: str | None, games, draft: bool = False) -> list[Finding]:
    """Every text of these games with no translation into the editions `lang` names (a language, or all)."""
    source = project.texts or project
    wanted = tuple(code for code in chosen_languages(project, lang) if code and code != source.languages[0])
    chosen = {game.id for game in games}
    return [Finding(WARN if draft else FAIL, missing.game, f"translation into {missing.language}", missing.location,
                    detail=missing.message() + (" (a draft: `--draft` lets it pass)" if draft else ""))
            for missing in find_missing(project, wanted) if missing.game in chosen]
