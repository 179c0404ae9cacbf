"""Turn a setup expectation into findings per player count: hand size, set-aside, turns and removals each held to
their own quoted phrase, pieces used, needed versus available, and pieces left unaccounted for."""
from __future__ import annotations

from collections import Counter

from ..project.model import Expectation, Game, Piece
from .documents import check_cited, find_cited_source
from .expression_tree import read_fields
from .expressions import evaluate, select_cards
from .figure_values import is_whole, shown
from .findings import FAIL, PASS, WARN, Finding
from .numerals import numbers_for_players

STATED = ("deal", "set_aside", "turns", "stated_needed")


def check_setup(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    findings = []
    for players in expectation.players:
        used = pieces_used(expectation, pieces, players)
        findings.extend(check_used(game, expectation, used, players))
        findings.extend(check_removed(game, expectation, pieces, used, players))
        findings.extend(check_arithmetic(game, expectation, len(used), players))
        findings.extend(check_setup_figures(game, expectation, players))
    return findings


def check_setup_figures(game: Game, expectation: Expectation, players: int) -> list[Finding]:
    """Hand size, set-aside, turns and the stated total: each the number its phrase states for this player count."""
    setup = expectation.setup
    prefix = f"setup {expectation.component} at {players} players"
    cited = dict(expectation.cited)
    findings = []
    for figure in STATED:
        value = getattr(setup, figure)
        if value or figure in cited or figure in dict(expectation.assumed):
            findings.append(check_cited(game, prefix, expectation, figure, value, players))
    if isinstance(expectation.equals, int) and ("equals" in cited or not (setup.remove or setup.use)):
        findings.append(check_cited(game, prefix, expectation, "equals", expectation.equals, players))
    return findings


def pieces_used(expectation: Expectation, pieces: list[Piece], players: int) -> list[Piece]:
    setup = expectation.setup
    if setup.use:
        return select_cards(setup.use, expectation, pieces, players=players)
    if setup.remove:
        return select_cards(setup.remove, expectation, pieces, keep=False, players=players)
    return pieces


def check_used(game: Game, expectation: Expectation, used: list[Piece], players: int) -> list[Finding]:
    expected = expectation.equals
    if isinstance(expected, str):
        expected = evaluate(expected, expectation, players=players)
    if expected is None:
        return []
    name = f"setup {expectation.component} at {players} players: pieces used"
    if not is_whole(expected):  # 'players / 2' at 5 players: no count of pieces is 2.5
        return [Finding(FAIL, game.id, name, expectation.location, "a whole number", shown(expected),
                        f"'{expectation.equals}' gives {shown(expected)} at {players} players; a count of pieces is a "
                        "whole number", expectation.source, figure="used")]
    if not expectation.by:
        status = PASS if len(used) == expected else FAIL
        return [Finding(status, game.id, name, expectation.location, expected, len(used), "", expectation.source, figure="used")]
    counts = Counter(str(p.card.fields.get(expectation.by)) for p in used)
    differ = {owner: n for owner, n in counts.items() if n != expected}
    detail = "; ".join(f"{owner}: {n}" for owner, n in sorted(differ.items()))
    found = expected if not differ else f"{len(differ)} of {len(counts)} differ"
    return [Finding(FAIL if differ else PASS, game.id, f"{name} per {expectation.by}", expectation.location,
                    expected, found, detail, expectation.source, figure="used")]


def check_removed(game: Game, expectation: Expectation, pieces: list[Piece], used: list[Piece], players: int) -> list[Finding]:
    """The cards a removal takes out must be the ones its phrase names (「１０と１１を抜き」: numbers 10 and 11)."""
    setup = expectation.setup
    if not setup.remove:
        return []
    kept = {id(p) for p in used}
    removed = [p for p in pieces if id(p) not in kept]
    source = find_cited_source(expectation, "remove")
    name = f"setup {expectation.component} at {players} players: pieces removed as the document states"
    values = {f: sorted({p.card.fields.get(f) for p in removed}, key=str) for f in read_fields(setup.remove)}
    shown = "; ".join(f"{f} {', '.join(map(str, v)) or 'none'}" for f, v in values.items())
    if source is None:
        return []
    stated = {n.value for n in numbers_for_players(source.quote, players)}
    numeric = {f: v for f, v in values.items() if v and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)}
    if not stated and numeric:
        return [Finding(WARN, game.id, name, expectation.location, None, shown,
                        "assumption: the quoted phrase names no figure, so the removal is assumed, not cited", source, figure="remove")]
    wrong = [f for f, v in numeric.items() if set(v) != stated]
    wrong += [f for f, v in values.items() if f not in numeric and not all(str(x) in source.quote for x in v)]
    if not wrong:
        return [Finding(PASS, game.id, name, expectation.location, shown, shown, "", source, figure="remove")]
    said = "、".join(str(n) for n in sorted(stated)) or "no figure"
    return [Finding(FAIL, game.id, name, expectation.location, said, shown,
                    f"the removal takes out {shown}, the quote names {said}", source, figure="remove")]


def check_arithmetic(game: Game, expectation: Expectation, available: int, players: int) -> list[Finding]:
    setup = expectation.setup
    findings = []
    hands_and_draws = players * setup.deal + players * setup.turns
    prefix = f"setup {expectation.component} at {players} players"
    if setup.deal or setup.turns or setup.set_aside:
        needed = hands_and_draws + setup.set_aside
        formula = f"{players}×{setup.deal} dealt + {players}×{setup.turns} drawn + {setup.set_aside} set aside = {needed}"
        spare = available - needed
        detail = f"{formula}; {spare} left over" if spare >= 0 else f"{formula}; short by {-spare}"
        findings.append(Finding(PASS if spare >= 0 else FAIL, game.id, f"{prefix}: pieces needed ≤ available",
                                expectation.location, f"≤ {available}", needed, detail, expectation.source, figure="needed"))
        if spare > 0:
            findings.append(check_rest(game, expectation, prefix, available, formula, spare))
    if setup.stated_needed is not None:
        detail = (f"the document's formula says {setup.stated_needed}; its setup deals {setup.deal} and draws "
                  f"{setup.turns} per player: {players}×{setup.turns} + {players}×{setup.deal} = {hands_and_draws}")
        status = PASS if setup.stated_needed == hands_and_draws else FAIL
        findings.append(Finding(status, game.id, f"{prefix}: the document's own arithmetic", expectation.location,
                                setup.stated_needed, hands_and_draws, detail if status == FAIL else "", expectation.source,
                                figure="arithmetic"))
    return findings


def check_rest(game: Game, expectation: Expectation, prefix: str, available: int, formula: str, spare: int) -> Finding:
    """Pieces neither dealt, drawn nor set aside must go somewhere the data names."""
    name = f"{prefix}: pieces left over"
    if expectation.setup.rest:
        return Finding(PASS, game.id, name, expectation.location, spare, spare,
                       f"{available} − ({formula}): {expectation.setup.rest}", figure="rest")
    return Finding(WARN, game.id, name, expectation.location, 0, spare,
                   f"{spare} of {available} pieces are not dealt, drawn or set aside ({formula}) and the data does not say "
                   "where they go; add rest: with what happens to them", figure="rest")
