"""Turn the terms a game's document and rulebooks use into findings: each is defined by the document, named by the
data, or declared in `terms:` — with the phrase that defines it, or as undefined with the reading the data assumes."""
from __future__ import annotations

from ..errors import Location
from ..project.model import Game, Project, Term
from .documents import Documents, check_source, normalise
from .findings import FAIL, PASS, WARN, Finding, locator
from .rulebook import read_rulebooks
from .term_finder import STATES, find_definition, find_headings, find_terms


def check_terms(project: Project, game: Game, documents: Documents) -> list[Finding]:
    """A finding for each declared term, and a warning for each term used that nothing defines or declares (found by
    a heuristic, so it tells, never stops a build)."""
    findings = [f for term in game.terms for f in check_declared(game, term, documents)]
    raw = documents.raw(game.document) if game.document else None
    if raw is None:
        return findings
    normalised = documents.text(game.document)
    declared = {term.term for term in game.terms}
    named = name_data(game)
    headings = find_headings(raw)
    places: dict[str, list[Location]] = {}
    locate_raw = locator(raw, f"documents/{game.document}")
    texts = [(raw, f"documents/{game.document}", False)]
    texts += [(text, where, True) for text, where in read_rulebooks(project, game)]
    for text, where, rulebook in texts:
        locate = locator(text, where)
        for use in find_terms(text, rulebook):
            places.setdefault(use.term, []).append(locate(use.at))
    for term, spots in places.items():
        if term in declared or term in named or find_definition(term, raw, normalised, headings):
            continue
        first = locate_raw(raw.find(term)) if term in raw else spots[0]  # where the document first uses it
        also = list(dict.fromkeys(f"{s.file}:{s.line}:{s.col}" for s in spots if s != first))
        how = ("used only as a state a piece is in, never in a rule that puts one so" if term in STATES else
               "no 「…とは」「…と呼びます」, heading or lead 「…：」 defines it")
        findings.append(Finding(WARN, game.id, f"undefined term {term}", first, "a definition in the document", how,
                                (f"also at {', '.join(also[:4])}; " if also else "")
                                + f"add {{term: {term}, quote: …}} to the game's terms: where documents/{game.document} "
                                "defines it, or {term: " + term + ", undefined: …} with how the data reads it and why"))
    return findings


def check_declared(game: Game, term: Term, documents: Documents) -> list[Finding]:
    """A term the data declares: its defining phrase stands in the document and names it, or it is an assumption."""
    name = f"term {term.term}"
    if term.source is None:
        return [Finding(WARN, game.id, name + ": undefined in the document", term.location,
                        detail=f"assumption: {term.undefined}")]
    findings = check_source(documents, game, term.source, term.location)
    if findings:
        return findings
    if normalise(term.term) not in normalise(term.source.quote):
        return [Finding(FAIL, game.id, name + ": defined as the document states", term.location, term.term,
                        "a phrase that does not name it", "expected the phrase of the document that defines the term",
                        term.source)]
    return [Finding(PASS, game.id, name + ": defined as the document states", term.location, source=term.source)]


def name_data(game: Game) -> set[str]:
    """The names the data gives pieces (components, and the text values of their cards' fields): a term that is one
    names something the game is made of."""
    names = {c.name for c in game.components}
    for component in game.components:
        for card in component.cards:
            for value in card.fields.values():
                values = value if isinstance(value, (tuple, list)) else (value,)
                names.update(v for v in values if isinstance(v, str))
    return names
