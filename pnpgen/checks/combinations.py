"""Turn combinations and names expectations into findings: every suit × number once, and the names that tie
components together (races, player colours) the same in each component and in the document."""
from __future__ import annotations

import math
from collections import Counter
from itertools import product

from ..project.model import Expectation, Game, Piece
from .findings import FAIL, PASS, WARN, Finding


def check_combinations(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    """Each combination of the fields `of` occurs exactly once (two mislabels that cancel out still fail)."""
    fields = expectation.of
    name = f"combinations {expectation.component} of {' × '.join(fields)}"
    counts = Counter(tuple(str(p.card.fields.get(f)) for f in fields) for p in pieces)
    axes = [list(dict.fromkeys(str(p.card.fields.get(f)) for p in pieces)) for f in fields]
    twice = [(combo, n) for combo, n in counts.items() if n > 1]
    missing = [combo for combo in product(*axes) if combo not in counts]
    problems = [f"{'・'.join(combo)} ×{n} ({locate_cards(pieces, fields, {combo})})" for combo, n in twice]
    problems += [f"{'・'.join(combo)} missing" for combo in missing]
    return [Finding(FAIL if problems else PASS, game.id, name, expectation.location, math.prod(map(len, axes)),
                    len(counts), "; ".join(problems[:12]), expectation.source, figure="combinations")]


def locate_cards(pieces: list[Piece], fields: tuple, wanted: set[tuple], most: int = 4) -> str:
    """Where the first `most` cards are written whose values in `fields` are one of `wanted`."""
    places = sorted({p.card.location for p in pieces if tuple(str(p.card.fields.get(f)) for f in fields) in wanted})
    return ", ".join(f"{loc.file}:{loc.line}" for loc in places[:most])


def check_names(game: Game, expectation: Expectation, pieces_by_component: dict[str, list[Piece]]) -> list[Finding]:
    """The field holds the same names in every component, and (with equals) the names the document lists."""
    field = expectation.by
    found = {cid: collect_names(game, cid, field, pieces_by_component) for cid in expectation.components}
    reference = list(expectation.names) or found[expectation.components[0]]
    findings = []
    for cid, names in found.items():
        extra = [n for n in names if n not in reference]
        lacking = [n for n in reference if n not in names]
        spots = locate_cards(pieces_by_component.get(cid, []), (field,), {(n,) for n in extra}) or cid
        detail = "; ".join(part for part in (f"not in the list: {', '.join(extra)} ({spots})" if extra else "",
                                             f"missing: {', '.join(lacking)}" if lacking else "") if part)
        findings.append(Finding(FAIL if detail else PASS, game.id, f"names {field} in {cid}", expectation.location,
                                reference, names, detail, expectation.source, figure="names"))
    if expectation.names:
        findings.append(check_listed(game, expectation))
    return findings


def collect_names(game: Game, source: str, field: str, pieces_by_component: dict) -> list[str]:
    """The names a component's cards hold in `field`, or the keys of a game default (defaults.race_style)."""
    if source.startswith("defaults."):
        table = game.defaults.get(source.split(".", 1)[1])
        return [str(k) for k in table] if hasattr(table, "items") else []
    return list(dict.fromkeys(str(p.card.fields.get(field)) for p in pieces_by_component[source]))


def check_listed(game: Game, expectation: Expectation) -> Finding:
    """The names of `equals` must be the ones the quoted phrase lists."""
    names, source = list(expectation.names), expectation.source
    absent = [n for n in names if source is not None and n not in source.quote]
    if source is None:
        status, expected, detail = WARN, None, "assumption: no quote lists these names"
    elif len(absent) == len(names):
        status, expected, detail = (WARN, None, "assumption: the quoted phrase names none of them, so the names are "
                                    "assumed, not cited")
    else:
        status, expected = FAIL if absent else PASS, names
        detail = f"the quote does not name {', '.join(absent)}" if absent else ""
    return Finding(status, game.id, f"names {expectation.by} as the document states", expectation.location, expected,
                   names, detail, source, figure="equals")
