"""Turn an invariant — a relation every card of a component satisfies, with the phrase of the document it comes
from — into findings: each card that breaks it, where that card is written, and the numbers the rule names held to
the quote (a rule edited together with the data cannot hide a change from the document)."""
from __future__ import annotations

import difflib
import json

from ..errors import PnpError
from ..project.model import Card, Expectation, Game, Piece, plain
from ..templating.sandbox import compile_expression
from .documents import find_cited_source
from .expression_tree import read_compared_numbers, read_fields
from .expressions import describe_failure, explain, locate_field
from .findings import FAIL, PASS, WARN, Finding
from .numerals import find_numbers

MAX_REPORTED = 12  # cards named one by one; the rest are counted in one more finding
PLAIN = (int, float, str, bool)


def check_invariant(game: Game, expectation: Expectation, pieces: list[Piece]) -> list[Finding]:
    rule = expectation.holds
    if rule is None:  # validation has reported it
        return []
    cards = list({id(p.card): p.card for p in pieces}.values())
    name = f"invariant {expectation.component}"
    source = find_cited_source(expectation, "holds")
    read = check_rule_reads(expectation, cards)
    if not cards:
        return [Finding(WARN, game.id, name, expectation.location, rule, "no card",
                        "the invariant applies to no card (see where:); expected the cards it speaks of", source,
                        figure="holds")]
    broken = [card for card in cards if not holds(expectation, card, pieces, game)]
    others = naming_fields(cards, read) if broken else []
    findings = [report_card(game, expectation, card, read, others, source) for card in broken[:MAX_REPORTED]]
    if len(broken) > MAX_REPORTED:
        rest = broken[MAX_REPORTED:]
        spots = ", ".join(str(c.location) for c in rest[:8]) + (" …" if len(rest) > 8 else "")
        findings.append(Finding(FAIL, game.id, name, expectation.location, rule, f"{len(rest)} more cards",
                                f"{len(rest)} more cards break it: {spots}", source, figure="holds"))
    if not broken:
        findings.append(Finding(PASS, game.id, name, expectation.location, rule, f"all {len(cards)} cards hold",
                                "", source, figure="holds"))
    findings.extend(check_rule_numbers(game, expectation, name, source))
    return findings


def check_rule_reads(expectation: Expectation, cards: list[Card]) -> tuple[str, ...]:
    """The fields the rule reads; a rule that reads none, or a field no card has, is an error where it is written."""
    rule, where = expectation.holds, expectation.holds_at or expectation.location
    read = read_fields(rule)
    if not read:
        raise PnpError(f"invariant '{rule}' reads no field of the card; expected a relation between the card's "
                       "fields, such as card.number == 12", where)
    known = sorted({name for card in cards for name in card.fields})
    for field in read_fields(rule, required=True):
        if cards and field not in known:
            close = difflib.get_close_matches(field, known, n=1)
            hint = f"did you mean '{close[0]}'?" if close else "expected one of: " + ", ".join(known[:12])
            raise PnpError(f"invariant '{rule}' reads card.{field}, but no card of {expectation.component} has a "
                           f"field '{field}'; {hint}", where)
    return read


def holds(expectation: Expectation, card: Card, pieces: list[Piece], game: Game) -> bool:
    rule = expectation.holds
    try:
        return bool(compile_expression(rule)(card=card.fields, players=game.players))
    except Exception as err:  # a designer's rule failing on one card is a located input error
        if "has no attribute" in str(err) or "is undefined" in str(err):
            raise PnpError(f"{describe_failure(rule, err, card, pieces)} (the invariant at {expectation.location})",
                           locate_field(card, err, pieces)) from None
        raise PnpError(f"invariant '{rule}' failed on the card at {card.location} ({show_read(card, read_fields(rule))}): "
                       f"{explain(err)}; expected a rule that works for every card (narrow it with where:, or test the "
                       "value first, as in card.bullet == 'down' or card.bullet <= 6)",
                       expectation.holds_at or expectation.location) from None


def report_card(game: Game, expectation: Expectation, card: Card, read: tuple, others: list[str], source) -> Finding:
    """A card that breaks the rule, where it is written: the field's own cell when the rule reads one field the card
    gives, else the card."""
    own = [name for name, _ in card.cells if name in read]
    where = card.where(own[0]) if len(own) == 1 else card.location
    shown = show_card(card, [name for name in others if card.fields.get(name) not in ("", None)])
    named = f" ({shown})" if shown else ""
    return Finding(FAIL, game.id, f"invariant {expectation.component}", where, expectation.holds, show_read(card, read),
                   f"this card{named} breaks the rule of {expectation.location}", source, figure="holds")


def naming_fields(cards: list[Card], read: tuple) -> list[str]:
    """Fields besides those the rule reads that name a card (character, race): at least one, then more until they
    tell the cards apart, each added field the one that tells most cards apart."""
    candidates = sorted({name for card in cards for name, value in card.fields.items() if isinstance(value, PLAIN)}
                        - set(read))
    chosen: list[str] = []

    def kinds(names) -> int:
        return len({tuple(str(card.fields.get(n)) for n in names) for card in cards})

    while candidates and (not chosen or kinds([*read, *chosen]) < len(cards)) and len(chosen) < 3:
        best = max(candidates, key=lambda n: (kinds([*read, *chosen, n]), kinds([n]), -candidates.index(n)))
        if kinds([best]) == 1 or (chosen and kinds([*read, *chosen, best]) == kinds([*read, *chosen])):
            break
        chosen.append(best)
        candidates.remove(best)
    return chosen


def show_read(card: Card, read: tuple) -> str:
    """The plain values the rule reads (aim 7); a list or mapping only when it reads no plain one (skills [...])."""
    simple = [name for name in read if isinstance(card.fields.get(name), PLAIN)]
    return show_card(card, simple or [name for name in read if name != "figures"] or read)


def show_card(card: Card, names) -> str:
    shown = []
    for name in names:
        value = card.fields.get(name)
        text = str(value) if isinstance(value, PLAIN) or value is None else json.dumps(plain(value), ensure_ascii=False)
        text = " ".join(text.split())
        shown.append(f"{name} {text[:32] + '…' if len(text) > 32 else text}")
    return ", ".join(shown)


def check_rule_numbers(game: Game, expectation: Expectation, name: str, source) -> list[Finding]:
    """The numbers a card field is compared with (12 in card.number == 12) must be ones its quote states; 0 and 1
    are the arithmetic of any rule."""
    why = dict(expectation.assumed).get("holds")
    check = f"{name}: figures as the document states"
    if why:
        return [Finding(WARN, game.id, check, expectation.location, "not stated", expectation.holds,
                        f"assumption: {why}", source, figure="holds")]
    compared = [n for n in read_compared_numbers(expectation.holds) if not {0, 1} & set(n)]
    if not compared or source is None:
        return []
    stated = [n.value for n in find_numbers(source.quote)]
    missing = [n[0] for n in compared if not set(n) & set(stated)]
    written = ", ".join(str(n[0]) for n in compared)
    shown = "、".join(str(n) for n in dict.fromkeys(stated)) or "no number"
    if not missing:
        return [Finding(PASS, game.id, check, expectation.location, shown, written, "", source, figure="holds")]
    return [Finding(FAIL, game.id, check, expectation.location, shown, ", ".join(map(str, missing)),
                    f"the rule compares with {', '.join(map(str, missing))}, which the quote does not state (it states "
                    f"{shown}); the rule and the document disagree", source, figure="holds")]
