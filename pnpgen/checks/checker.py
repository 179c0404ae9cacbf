"""Turn a game's expectations, notes and placeholders into findings: the data held to its documents."""
from __future__ import annotations

from collections import Counter

from ..errors import Location
from ..project.expand import expand_pieces
from ..project.model import Expectation, Game, Piece, Project, Source
from .boxes import state_boxes
from .expressions import evaluate, key_of
from .findings import FAIL, PASS, WARN, Finding

def check_project(project: Project, games=None) -> list[Finding]:
    findings: list[Finding] = []
    for game in games if games is not None else project.games:
        findings.extend(check_game(project, game))
    return findings


def check_game(project: Project, game: Game) -> list[Finding]:
    from .setups import check_setup

    pieces = {c.id: expand_pieces(c) for c in game.components}
    findings: list[Finding] = []
    for expectation in game.expectations:
        chosen = filter_pieces(pieces[expectation.component], expectation.where, expectation)
        if expectation.kind == "total":
            results = [check_total(game, expectation, chosen)]
        elif expectation.kind == "distribution":
            results = [check_distribution(game, expectation, chosen)]
        elif expectation.kind == "per":
            results = check_per_owner(game, expectation, chosen)
        else:
            results = check_setup(game, expectation, chosen)
        findings.extend(apply_known(expectation, results))
        findings.extend(check_quote(project, game, expectation.source, expectation.location))
    for note in game.notes:
        findings.append(Finding(WARN, game.id, note.kind, note.location, detail=note.text, source=note.source))
        findings.extend(check_quote(project, game, note.source, note.location))
    findings.extend(check_placeholders(game))
    findings.extend(state_boxes(game))
    if game.rulebook or game.rules_sheet:
        from .rulebook import check_rulebook

        findings.extend(check_rulebook(project, game))
    return findings


def filter_pieces(pieces: list[Piece], where: str | None, expectation: Expectation, **names) -> list[Piece]:
    if not where:
        return pieces
    return [p for p in pieces if evaluate(where, expectation, card=p.card.fields, **names)]


def subject(expectation: Expectation) -> str:
    text = f"{expectation.kind} {expectation.component}"
    if expectation.by:
        text += f" by {expectation.by}"
    if expectation.where:
        text += f" where {expectation.where}"
    return text


def check_total(game: Game, expectation: Expectation, pieces: list[Piece]) -> Finding:
    found = len(pieces)
    status = PASS if found == expectation.equals else FAIL
    detail = "" if status == PASS else card_breakdown(pieces)
    return Finding(status, game.id, subject(expectation), expectation.location, expectation.equals, found, detail, expectation.source)


def card_breakdown(pieces: list[Piece]) -> str:
    counts = Counter(p.card.location for p in pieces)
    return "cards: " + ", ".join(f"{loc.file}:{loc.line} ×{n}" for loc, n in sorted(counts.items()))


def check_distribution(game: Game, expectation: Expectation, pieces: list[Piece]) -> Finding:
    expected = {key_of(k): v for k, v in expectation.equals.items()}
    found = Counter(key_of(p.card.fields.get(expectation.by)) for p in pieces)
    keys = list(expected) + [k for k in sorted(found) if k not in expected]
    differ = [k for k in keys if expected.get(k, 0) != found.get(k, 0)]
    detail = "; ".join(
        f"{expectation.by} {k}: expected {expected.get(k, 0)}, found {found.get(k, 0)} ({locations(pieces, expectation.by, k)})"
        for k in differ
    )
    found_shown = {k: found.get(k, 0) for k in keys}
    return Finding(FAIL if differ else PASS, game.id, subject(expectation), expectation.location,
                   expected, found_shown, detail, expectation.source)


def locations(pieces: list[Piece], field: str, value: str) -> str:
    spots = sorted({p.card.location for p in pieces if key_of(p.card.fields.get(field)) == value})
    return ", ".join(f"{loc.file}:{loc.line}" for loc in spots[:6]) or "no card"


def check_per_owner(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    counts = Counter(key_of(p.card.fields.get(expectation.by)) for p in pieces)
    differ = {owner: n for owner, n in counts.items() if n != expectation.each}
    detail = "; ".join(f"{owner}: {n} ({locations(pieces, expectation.by, owner)})" for owner, n in sorted(differ.items()))
    results = [Finding(FAIL if differ else PASS, game.id, subject(expectation) + " (each)", expectation.location,
                       expectation.each, "all" if not differ else f"{len(differ)} owner(s) differ", detail, expectation.source)]
    if expectation.owners is not None:
        results.append(Finding(PASS if len(counts) == expectation.owners else FAIL, game.id, subject(expectation) + " (owners)",
                               expectation.location, expectation.owners, len(counts), ", ".join(sorted(counts)), expectation.source))
    return results


def apply_known(expectation: Expectation, results: list[Finding]) -> list[Finding]:
    """A contradiction the designer has recorded stays visible as a warning instead of stopping builds."""
    if not expectation.known:
        return results
    if not any(r.status == FAIL for r in results):
        first = results[0]
        return results + [Finding(WARN, first.game, subject(expectation), first.location,
                                  detail=f"marked known but every check now holds; remove 'known:' ({expectation.known})",
                                  source=first.source)]
    return [r if r.status != FAIL else
            Finding(WARN, r.game, r.check, r.location, r.expected, r.found,
                    f"known: {expectation.known}" + (f" — {r.detail}" if r.detail else ""), r.source)
            for r in results]


def check_placeholders(game: Game) -> list[Finding]:
    findings = []
    for component in game.components:
        placeholders = [c for c in component.cards if c.tbd]
        if placeholders:
            fields = sorted({name for c in placeholders for name in c.tbd})
            lines = Counter(f"{c.location.file}:{c.location.line}" for c in placeholders)
            spots = ", ".join(f"{spot} ×{n}" if n > 1 else spot for spot, n in list(lines.items())[:8])
            more = f" and {len(lines) - 8} more" if len(lines) > 8 else ""
            findings.append(Finding(WARN, game.id, f"placeholders in {component.id}", placeholders[0].location,
                                    detail=f"{len(placeholders)} card(s) still have placeholder {', '.join(fields)}: {spots}{more}"))
    return findings


def check_quote(project: Project, game: Game, source: Source | None, location: Location) -> list[Finding]:
    """A cited phrase must really stand in the cited document, when the document is in the project."""
    if source is None:
        return []
    path = project.root / "documents" / source.document
    if not path.is_file():
        return []
    text = normalise(path.read_text(encoding="utf-8-sig", errors="replace"))
    if normalise(source.quote) in text:
        return []
    return [Finding(FAIL, game.id, "quote not in the document", location, source.quote, "no such phrase",
                    f"documents/{source.document} does not contain it; quote the document exactly", source)]


def normalise(text: str) -> str:
    return "".join(text.split())
