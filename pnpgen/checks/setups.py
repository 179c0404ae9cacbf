"""Turn a setup expectation into findings per player count: pieces used, needed versus available."""
from __future__ import annotations

from collections import Counter

from .expressions import evaluate, key_of
from .findings import FAIL, PASS, Finding
from ..project.model import Expectation, Game, Piece


def check_setup(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    findings = []
    for players in expectation.players:
        used = pieces_used(expectation, pieces, players)
        findings.extend(check_used(game, expectation, used, players))
        findings.extend(check_arithmetic(game, expectation, len(used), players))
    return findings


def pieces_used(expectation: Expectation, pieces: list[Piece], players: int) -> list[Piece]:
    setup = expectation.setup
    if setup.use:
        return [p for p in pieces if evaluate(setup.use, expectation, card=p.card.fields, players=players)]
    if setup.remove:
        return [p for p in pieces if not evaluate(setup.remove, expectation, card=p.card.fields, players=players)]
    return pieces


def expected_count(expectation: Expectation, players: int):
    if isinstance(expectation.equals, str):
        return evaluate(expectation.equals, expectation, players=players)
    return expectation.equals


def check_used(game: Game, expectation: Expectation, used: list[Piece], players: int) -> list[Finding]:
    expected = expected_count(expectation, players)
    if expected is None:
        return []
    name = f"setup {expectation.component} at {players} players: pieces used"
    if not expectation.by:
        status = PASS if len(used) == expected else FAIL
        return [Finding(status, game.id, name, expectation.location, expected, len(used), "", expectation.source)]
    counts = Counter(key_of(p.card.fields.get(expectation.by)) for p in used)
    differ = {owner: n for owner, n in counts.items() if n != expected}
    detail = "; ".join(f"{owner}: {n}" for owner, n in sorted(differ.items()))
    found = expected if not differ else f"{len(differ)} of {len(counts)} differ"
    return [Finding(FAIL if differ else PASS, game.id, f"{name} per {expectation.by}", expectation.location,
                    expected, found, detail, expectation.source)]


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
                                expectation.location, f"≤ {available}", needed, detail, expectation.source))
    if setup.stated_needed is not None:
        detail = (f"the document's formula says {setup.stated_needed}; its setup deals {setup.deal} and draws "
                  f"{setup.turns} per player: {players}×{setup.turns} + {players}×{setup.deal} = {hands_and_draws}")
        status = PASS if setup.stated_needed == hands_and_draws else FAIL
        findings.append(Finding(status, game.id, f"{prefix}: the document's own arithmetic", expectation.location,
                                setup.stated_needed, hands_and_draws, detail if status == FAIL else "", expectation.source))
    return findings
