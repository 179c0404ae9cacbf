"""Turn what maps and cards print from their data into findings: every value a figure's `in:` names (a map's 磐座 per
area, its sheets per set) held to the figure, and a map's `sheets:` held to the sheets that exist (its labels
「シート k／N」 and join marks name no sheet that is not printed)."""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterator

from ..errors import Location
from ..project.expand import expand_pieces
from ..project.model import Card, Component, Figure, Game, Project
from .fields import template_texts
from .findings import FAIL, PASS, WARN, Finding, locator
from .numerals import parse_number
from .templatetext import find_printed_literals

SHEET, SHEETS = "sheet", "sheets"  # a card's sheet of the map, and how many sheets the map is printed on
LENGTH = "|length"
_NUMERAL = r"([0-9０-９]+|[一二三四五六七八九十]+)"
_OF = re.compile(r"(?:^\s*|(?:シート|[Ss]heet)\s*" + _NUMERAL + r"?\s*)[／/]\s*" + _NUMERAL)  # 「シート k／N」, 「／N」
_NAMED = re.compile(r"(?:シート|[Ss]heet)\s*" + _NUMERAL + r"(?!\s*[／/0-9０-９])")  # 「シート３と合わせる」


def check_held_figures(game: Game) -> list[Finding]:
    """Each value a figure's `in:` names must be the figure: a template prints the value, not the figure."""
    return [f for figure in game.figures for path in figure.held for f in check_held(game, figure, path)]


def check_held(game: Game, figure: Figure, path: str) -> list[Finding]:
    check = f"figure {figure.name} in {path}"
    held = list(dict.fromkeys(resolve_path(game, path)))
    if not held:
        return [Finding(FAIL, game.id, check, figure.location, figure.value, "nothing",
                        f"'{path}' names no value of the data; expected defaults.NAME… (a game default) or "
                        f"COMPONENT.FIELD… (a field of that component's cards), `*` for every key or item", figure.source,
                        figure="in")]
    wrong = [(name, value, where) for name, value, where in held if not same_number(value, figure.value)]
    if wrong:
        return [Finding(FAIL, game.id, check, where, figure.value, value,
                        f"{name} holds {value}, but the figure {figure.name} ({figure.location.file}:{figure.location.line}) "
                        f"is {figure.value}: what is printed from it would not be the document's figure", figure.source,
                        figure="in") for name, value, where in wrong]
    if figure.assumed:
        return [Finding(WARN, game.id, check, figure.location, "not stated", figure.value,
                        f"assumption: {len(held)} value(s) printed from the data are {figure.value}, which the document "
                        f"does not state ({figure.assumed})", figure.source, figure="in")]
    return [Finding(PASS, game.id, check, figure.location, figure.value, figure.value,
                    f"{len(held)} value(s) printed from the data agree", figure.source, figure="in")]


def same_number(value, number) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == number


def resolve_path(game: Game, path: str) -> Iterator[tuple[str, object, Location]]:
    """(the value's own path, the value, where it is written) for every value the path names."""
    counted = path.endswith(LENGTH)
    parts = path.removesuffix(LENGTH).strip().split(".")
    if parts[0] == "defaults":
        places = dict(game.default_places)
        found = [(name, value, places.get(name, game.location))
                 for name, value in walk(game.defaults, parts[1:], "defaults")]
    else:
        component = game.component(parts[0])
        cards = component.cards if component is not None and len(parts) > 1 else ()
        found = [(name, value, place_of(game, component, card, parts[1])) for card in cards
                 for name, value in walk(card.fields, parts[1:], component.id)]
    for name, value, where in found:
        if not counted or isinstance(value, (tuple, list)) or hasattr(value, "items"):
            yield name + (LENGTH if counted else ""), len(value) if counted else value, where


def walk(value, parts: list[str], prefix: str) -> Iterator[tuple[str, object]]:
    """The values under `value` that the path's parts name, `*` standing for every key or item."""
    if not parts:
        yield prefix, value
        return
    head, rest = parts[0], parts[1:]
    if hasattr(value, "items"):
        keys = list(value) if head == "*" else [head] if head in value else []
        for key in keys:
            yield from walk(value[key], rest, f"{prefix}.{key}")
    elif isinstance(value, (tuple, list)):
        indices = range(len(value)) if head == "*" else [int(head)] if head.isdigit() and int(head) < len(value) else []
        for index in indices:
            yield from walk(value[index], rest, f"{prefix}.{index}")


def place_of(game: Game, component: Component, card: Card, name: str) -> Location:
    """Where a card's field is written: the card's own value, else the component's (its defaults or matrix), else
    the game's defaults."""
    return (dict(card.cells).get(name) or dict(component.field_locations).get(name)
            or dict(game.default_places).get(f"defaults.{name}", card.location))


def check_sheets(project: Project, game: Game) -> list[Finding]:
    """A map printed across sheets (`sheets: N`, each card's `sheet: k`) must have each sheet 1…N, as often as the
    others: a label or join mark naming a sheet no piece prints is an error at the data or template line."""
    maps = [m for m in game.components if m.cards and all(SHEET in c.fields and SHEETS in c.fields for c in m.cards)]
    return [f for m in maps for f in check_map_sheets(game, m) + check_sheet_labels(project, game, m)]


def check_sheet_labels(project: Project, game: Game, component: Component) -> list[Finding]:
    """A sheet number written into the map's template (「シート 1／3」, 「／3」 after the sheet's own, 「シート３と合わせる」)
    must name the sheets the data has."""
    totals = {c.fields[SHEETS] for c in component.cards}
    sheets = {c.fields[SHEET] for c in component.cards}
    findings = []
    for name, source in template_texts(project, component).items():
        locate = locator(source, f"templates/{name}")
        check = f"template text {name} sheets {component.id}"
        for text, start in find_printed_literals(source):
            stated = [(m.start(2), int(parse_number(m.group(2))), SHEETS) for m in _OF.finditer(text)]
            stated += [(m.start(1), int(parse_number(m.group(1))), SHEET) for m in _OF.finditer(text) if m.group(1)]
            stated += [(m.start(1), int(parse_number(m.group(1))), SHEET) for m in _NAMED.finditer(text)]
            for offset, number, field in stated:
                known, ours, named, has = ((totals, "the sheets", f"a map of {number} sheets", "sheets: ")
                                           if field == SHEETS else (sheets, "a sheet", f"sheet {number}", "sheets "))
                shown = "、".join(str(v) for v in sorted(known, key=str))
                findings.append(Finding(PASS, game.id, check, locate(start + offset), number, number,
                                        f"「{text.strip()}」 names {ours} the data has") if number in known else
                                Finding(FAIL, game.id, check, locate(start + offset), shown, number,
                                        f"「{text.strip()}」 names {named}, but {component.id} has {has}{shown}; "
                                        f"print card.{field} instead of the number"))
    return findings


def check_map_sheets(game: Game, component: Component) -> list[Finding]:
    check = f"sheets {component.id}"
    findings = []
    by_count: dict[int, Counter] = {}
    first: dict[tuple[int, int], Card] = {}
    for piece in expand_pieces(component):
        card = piece.card
        total, sheet = card.fields[SHEETS], card.fields[SHEET]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (total, sheet)):
            findings.append(Finding(FAIL, game.id, check, place_of(game, component, card, SHEET), "whole numbers ≥ 1",
                                    f"sheet: {sheet}, sheets: {total}", "a map's sheet and sheets count its sheets"))
            continue
        by_count.setdefault(total, Counter())[sheet] += 1
        first.setdefault((total, sheet), card)
    for total, printed in sorted(by_count.items()):
        any_card = next(card for (n, _), card in first.items() if n == total)
        count_at = place_of(game, component, any_card, SHEETS)
        beyond = sorted(k for k in printed if k > total)
        missing = [k for k in range(1, total + 1) if k not in printed]
        within = {k: n for k, n in printed.items() if k <= total}
        for k in beyond:
            findings.append(Finding(FAIL, game.id, check, place_of(game, component, first[(total, k)], SHEET),
                                    f"a sheet of 1–{total}", k,
                                    f"sheet {k} of a map of {total} sheet(s) (sheets: {total}, {count_at.file}:"
                                    f"{count_at.line}): its label reads 「シート {k}／{total}」 and its join marks "
                                    "name sheets the map does not have"))
        for k in missing:
            joined = [j for j in (k - 1, k + 1) if j in printed]
            marks = " and ".join(f"sheet {j}" for j in joined) or "no sheet"
            findings.append(Finding(FAIL, game.id, check, count_at, total, len(within),
                                    f"sheets: {total}, but no piece is sheet {k}: {marks} prints a join mark to a sheet "
                                    f"{k} that does not exist and every label reads ／{total}; expected sheets: "
                                    f"{max(within, default=0)} or a card {{sheet: {k}}}"))
        if beyond or missing:
            continue
        if len(set(within.values())) > 1:
            most = max(within, key=lambda k: (within[k], -k))
            least = min(within, key=lambda k: (within[k], k))
            findings.append(Finding(FAIL, game.id, check, place_of(game, component, first[(total, most)], SHEET),
                                    f"each sheet {within[least]}×", f"sheet {most} {within[most]}×",
                                    f"sheet {most} is printed {within[most]} times but sheet {least} {within[least]}: "
                                    f"a set of {total} sheets would lack sheet {least}"))
        else:
            sets = next(iter(within.values()))
            findings.append(Finding(PASS, game.id, check, count_at, total, total,
                                    f"{sets} set(s) of sheets 1–{total}: every label k／{total} and join mark names a "
                                    "sheet that is printed"))
    return findings
