"""Turn a game's expectations, notes and placeholders into findings: the data held to its documents."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from ..project.expand import expand_pieces
from ..project.model import Expectation, Game, Piece, Project, Source
from .boxes import state_boxes
from .cardtext import check_card_text, check_edition_card_text
from .combinations import check_combinations, check_names, locate_cards
from .documents import (Documents, check_cited, check_game_document, check_source, check_stated_distribution,
                        find_cited_source)
from .expressions import select_cards
from .fields import check_unread_fields
from .figures import check_figures
from .findings import FAIL, PASS, WARN, Finding
from .invariants import check_invariant
from .phrasing import phrasing
from .printed import check_held_figures, check_sheets
from .setups import check_setup
from .templatetext import check_template_text
from .terms import check_terms
from .prose import SentenceMemo
from .vocabulary import build_vocabulary

def check_project(project: Project, games=None, strict: bool = False, memos: dict | None = None) -> list[Finding]:
    """Every finding for the chosen games; `strict` also lists numbers in prose that nothing accounts for. memos:
    what reading each game's card text gave, by game id, kept by a process that checks again (watch, serve)."""
    documents = Documents(project)
    return [f for game in (games if games is not None else project.games)
            for f in check_game(project, game, documents, strict, None if memos is None
                                else memos.setdefault(game.id, SentenceMemo(kept=True, splits=True)))]


def check_edition(edition: Project, games=None, strict: bool = False) -> list[Finding]:
    """Every finding of an edition other than the original (`edition(project, lang)`): its own rulebooks and rules
    sheets and its printed card text, read in its language, held to the data and the documents as the original's
    are. The data itself is checked once, with the original."""
    words = phrasing(edition.language)
    chosen = {game.id for game in games} if games is not None else None
    originals = {game.id: game for game in (edition.texts or edition).games}
    findings: list[Finding] = []
    for game in edition.games:
        if chosen is not None and game.id not in chosen:
            continue
        if words is None:
            findings.append(Finding(WARN, game.id, f"figures in {edition.language}", game.location,
                                    detail=f"pnpgen reads the numbers of Japanese and English text only: the "
                                    f"{edition.language} edition's rulebooks and card text are not held to the data"))
            continue
        nouns = build_vocabulary(game, words.lang)
        findings.extend(check_edition_card_text(game, nouns, words, strict))
        original = originals[game.id]
        own = [Path(p) for p, was in ((game.rulebook, original.rulebook), (game.rules_sheet, original.rules_sheet))
               if p and p != was]  # an edition without its own rulebook prints the original's: nothing to read
        if own:
            from .rulebook import check_rulebook  # imported here: most decks have no rulebook of their own

            findings.extend(check_rulebook(edition, game, own, strict=strict, nouns=nouns, words=words))
    return findings


def check_game(project: Project, game: Game, documents: Documents, strict: bool = False,
               memo: SentenceMemo | None = None) -> list[Finding]:
    pieces = {c.id: expand_pieces(c) for c in game.components}
    findings: list[Finding] = check_game_document(documents, game)
    for expectation in game.expectations:
        chosen = pieces[expectation.component]
        if expectation.where:
            chosen = select_cards(expectation.where, expectation, chosen)
        if expectation.kind == "names":
            results = check_names(game, expectation, pieces)
        else:
            check = {"total": check_total, "distribution": check_distribution, "per": check_per_owner,
                     "combinations": check_combinations, "invariant": check_invariant}.get(expectation.kind)
            results = (check or check_setup)(game, expectation, chosen)
        findings.extend(apply_known(expectation, results))
        cited = [Source(expectation.source.document, q) for _, q in expectation.cited] if expectation.source else []
        for source in [expectation.source, *cited]:
            findings.extend(check_source(documents, game, source, expectation.location))
    findings.extend(check_figures(project, game, documents))
    findings.extend(check_held_figures(game))
    findings.extend(check_sheets(project, game))
    for note in game.notes:
        findings.append(Finding(WARN, game.id, note.kind, note.location, detail=note.text, source=note.source))
        findings.extend(check_source(documents, game, note.source, note.location))
    findings.extend(check_placeholders(game))
    findings.extend(check_terms(project, game, documents))
    findings.extend(check_unread_fields(project, game))
    nouns = build_vocabulary(game)
    findings.extend(check_card_text(game, nouns, strict, memo))
    findings.extend(check_template_text(project, game, nouns, strict))
    findings.extend(state_boxes(game))

    if game.rulebook or game.rules_sheet:
        from .paragraphs import check_paragraphs  # imported here: a deck without a rulebook reads none
        from .rulebook import check_rulebook

        findings.extend(check_rulebook(project, game, strict=strict, nouns=nouns))
        findings.extend(check_paragraphs(project, game, documents))
    return findings


def subject(expectation: Expectation) -> str:
    text = f"{expectation.kind} {expectation.component}"
    if expectation.by:
        text += f" by {expectation.by}"
    if expectation.where:
        text += f" where {expectation.where}"
    return text


def check_total(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    status = PASS if len(pieces) == expectation.equals else FAIL
    counts = sorted(Counter(p.card.location for p in pieces).items())
    detail = "" if status == PASS else "cards: " + ", ".join(f"{loc.file}:{loc.line} ×{n}" for loc, n in counts)
    return [Finding(status, game.id, subject(expectation), expectation.location, expectation.equals, len(pieces),
                    detail, expectation.source, figure="total"),
            check_cited(game, subject(expectation), expectation, "equals", expectation.equals)]


def check_distribution(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    """Each value's count held to `equals`, and `equals` to its quote."""
    expected = {str(k): v for k, v in expectation.equals.items()}
    found = Counter(str(p.card.fields.get(expectation.by)) for p in pieces)
    keys = list(expected) + [k for k in sorted(found) if k not in expected]
    differ = [k for k in keys if expected.get(k, 0) != found.get(k, 0)]
    detail = "; ".join(
        f"{expectation.by} {k}: expected {expected.get(k, 0)}, found {found.get(k, 0)} ({locations(pieces, expectation.by, k)})"
        for k in differ
    )
    stated = (check_cited(game, subject(expectation), expectation, "equals", expected)
              if "equals" in dict(expectation.assumed) else
              check_stated_distribution(game, subject(expectation), expected, find_cited_source(expectation, "equals"),
                                        expectation.location))
    return [Finding(FAIL if differ else PASS, game.id, subject(expectation), expectation.location,
                    expected, {k: found.get(k, 0) for k in keys}, detail, expectation.source, figure="distribution"),
            stated]


def locations(pieces: list[Piece], field: str, value: str) -> str:
    return locate_cards(pieces, (field,), {(value,)}, most=6) or "no card"


def check_per_owner(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    counts = Counter(str(p.card.fields.get(expectation.by)) for p in pieces)
    differ = {owner: n for owner, n in counts.items() if n != expectation.each}
    detail = "; ".join(f"{owner}: {n} ({locations(pieces, expectation.by, owner)})" for owner, n in sorted(differ.items()))
    name = subject(expectation)
    results = [Finding(FAIL if differ else PASS, game.id, name + " (each)", expectation.location, expectation.each,
                       "all" if not differ else f"{len(differ)} owner(s) differ", detail, expectation.source, figure="each"),
               check_cited(game, name, expectation, "each", expectation.each)]
    if expectation.owners is not None:
        results.append(Finding(PASS if len(counts) == expectation.owners else FAIL, game.id, name + " (owners)",
                               expectation.location, expectation.owners, len(counts), ", ".join(sorted(counts)),
                               expectation.source, figure="owners"))
        results.append(check_cited(game, name, expectation, "owners", expectation.owners))
    return results


def apply_known(expectation: Expectation, results: list[Finding]) -> list[Finding]:
    """A contradiction the designer has recorded for one figure stays visible as a warning; every other
    figure of the expectation keeps failing normally."""
    if not expectation.known:
        return results
    known = dict(expectation.known)
    figures = list(dict.fromkeys(r.figure for r in results if r.figure))
    first = results[0] if results else None
    where = first.location if first else expectation.location
    extra = []
    for figure, why in known.items():
        if figure not in figures:
            extra.append(Finding(FAIL, first.game if first else "", subject(expectation), where, "a figure this expectation checks",
                                 figure, f"known: names '{figure}', which this expectation does not check; expected one of: "
                                 f"{', '.join(figures)}", figure="known"))
        elif not any(r.status == FAIL and r.figure == figure for r in results):
            extra.append(Finding(WARN, first.game, subject(expectation), where,
                                 detail=f"'{figure}' is marked known but now holds; remove it from 'known:' ({why})",
                                 source=first.source, figure=figure))
    return [r if r.status != FAIL or r.figure not in known else
            replace(r, status=WARN, detail=f"known: {known[r.figure]}" + (f" — {r.detail}" if r.detail else ""))
            for r in results] + extra


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
