"""Turn a game's rulebook sources into findings: every literal number held to the data, expressions and pictures.

An expression (`{{ count('battle-cards')|zen }}枚`) cannot drift; a number written out is tied to the nearest
noun of its phrase or table (prose.py, tables.py) and fails when the data gives another."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import Location, PnpError
from ..project.model import Game, Project
from ..templating.run_budget import RunOutOfBudget
from .findings import FAIL, PASS, Finding, locator
from .phrasing import JAPANESE, Phrasing
from .tables import check_prose
from .templatetext import spaces
from .vocabulary import build_vocabulary
from .wordrules import check_text, find_rules

_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
_URL = re.compile(r"\]\([^)\n]*\)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*(component:[^\s)\"]+)")


def check_rulebook(project: Project, game: Game, sources: list[Path] | None = None, strict: bool = False,
                   nouns=None, words: Phrasing = JAPANESE) -> list[Finding]:
    """Findings for the game's rulebook sources (default: `rulebook:` and, when set, `rules_sheet:`), read in the
    phrasing of their language (`words`); the rules the document states in words are Japanese's to hold."""
    if sources is None:
        sources = [Path(p) for p in (game.rulebook, game.rules_sheet) if p]
    from ..rules.expand import show_path  # imported here: a game without a rulebook reads none

    findings: list[Finding] = []
    nouns = nouns if nouns is not None else build_vocabulary(game)
    for source in sources:
        where = show_path(project, source)
        try:
            text = Path(source).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            findings.append(Finding(FAIL, game.id, "rulebook source", Location(where), detail=f"cannot read it ({err})"))
            continue
        scan = blank_title(blank(text), str(game.title))
        locate = locator(scan, where)
        findings.extend(check_prose(game, scan, locate, nouns, strict, "rulebook", words=words))
        if words is JAPANESE:
            findings.extend(check_text(game, scan, locate, find_rules(game), "rulebook"))
        findings.extend(check_expansion(project, game, Path(source), text, where))
    return findings


def check_expansion(project: Project, game: Game, source: Path, text: str, where: str) -> list[Finding]:
    """The rulebook's expressions must evaluate and its pictures must name pieces that exist."""
    from ..rules.expand import expand_markdown
    from ..rules.references import resolve_reference

    try:
        expanded = expand_markdown(project, game, source, text)
    except RunOutOfBudget:
        raise  # the whole run stops: not a finding about this rulebook
    except PnpError as err:
        problem = err.problems[0]
        return [Finding(FAIL, game.id, "rulebook template", problem.location or Location(where), detail=problem.message)]
    expressions = len(re.findall(r"\{\{", text))
    pictures = _IMAGE.findall(expanded)
    findings = [Finding(PASS, game.id, "rulebook template", Location(where),
                        detail=f"{expressions} expression(s) evaluated against the data, {len(pictures)} picture(s)")]
    for match in _IMAGE.finditer(expanded):
        try:
            resolve_reference(match.group(1), game)
        except PnpError as err:
            line = next((n for n, content in enumerate(text.splitlines(), 1) if match.group(1) in content), 0)
            findings.append(Finding(FAIL, game.id, "rulebook picture", Location(where, line, 1 if line else 0),
                                    detail=err.problems[0].message))
    return findings


def read_rulebooks(project: Project, game: Game) -> list[tuple[str, str]]:
    """(text with template code blanked, where it is shown) of each rulebook source that can be read; check_rulebook
    reports one that cannot."""
    from ..rules.expand import show_path  # imported here: a game without a rulebook reads none

    texts = []
    for source in [Path(p) for p in (game.rulebook, game.rules_sheet) if p]:
        try:
            texts.append((blank(source.read_text(encoding="utf-8-sig")), show_path(project, source)))
        except (OSError, UnicodeDecodeError):
            continue
    return texts


def blank(text: str) -> str:
    """The text with template code, fenced code and link targets replaced by spaces (lines and columns kept)."""
    for pattern in (_TEMPLATE, _FENCE, _URL):
        text = pattern.sub(spaces, text)
    return text


def blank_title(text: str, title: str) -> str:
    """text with the game's own title blanked, offsets kept: a title is a name, and the numbers in one
    (Three Times Undress, 7 Wonders) count nothing."""
    return text.replace(title, " " * len(title)) if title.strip() else text
