"""Turn a game's `terms:` into frozen Terms: each with the phrase that defines it, or the reading the data assumes."""
from __future__ import annotations

from ..errors import Collector
from .load import LList, LMap
from .model import Term
from .schema import check_keys, see_readme
from .validate_expectations import read_source
from .validate_values import read_value


def validate_terms(raw: LMap, document: str | None, problems: Collector) -> tuple[Term, ...]:
    """Every `terms:` item; a term needs exactly one of a defining phrase (`quote:`, `source:`) or `undefined:`."""
    items = raw.get("terms") or LList()
    if not isinstance(items, LList):
        problems.add(raw.where("terms"), "'terms' must be a list of {term: …, quote: …} or {term: …, "
                                         "undefined: …}" + see_readme("term"))
        return ()
    terms, seen = [], {}
    for index, item in enumerate(items):
        if not isinstance(item, LMap) or len({"quote", "source", "undefined"} & set(item)) != 1:
            problems.add(items.where(index), "a term needs 'term:' and exactly one of 'quote:' (the phrase of the "
                                             "document that defines it), 'source:' or 'undefined:' (how the data reads it)"
                                             + see_readme("term"))
            continue
        check_keys(item, "term", problems)
        term = read_value(item, "term", "text", problems)
        if not term:
            continue
        if term in seen:
            problems.add(item.where("term"), f"duplicate term '{term}' (first at {seen[term]}); "
                                             "expected each term once")
            continue
        seen[term] = item.where("term")
        source = None if "undefined" in item else read_source(item, problems, document)
        if "quote" in item and not document:
            problems.add(item.where("quote"), f"term '{term}': 'quote:' cites the game's document, but the game has no "
                                              "'document:'; expected source: {document: FILE, quote: …}")
        undefined = read_value(item, "undefined", "text", problems) if "undefined" in item else None
        terms.append(Term(term, item.loc, source, undefined))
    return tuple(terms)
