"""Turn the colours that tell a component's cards apart into findings where a colour-blind player cannot.

The fields that tell cards apart are those a `distribution:` (`by`) or `combinations:` (`of`) expectation
names. For each value of such a field, its colour is, among the colours that not every value's faces show
(the suit's, not the paper's or the frame's), the one with the most area times chroma (a suit's ink
rather than its pale tint); a value without one is not told by colour. Two values' colours are compared as faces/print_colour.py says (Machado 2009
dichromacy, CIE76 ΔE in CIELAB): a pair a trichromat tells apart but a dichromat does not is a warning (a
symbol or word on the card may still tell them apart: that is for the designer to judge).
"""
from __future__ import annotations

import math
from itertools import combinations

from ..faces.marking import Mark
from ..faces.print_checks import hex_of
from ..faces.print_colour import DISTINGUISHABLE, MACHADO_2009, delta_e, lab, simulate
from ..project.model import Card, Component, Game
from .findings import WARNING, PrintFinding


def colour_areas(marks: list[Mark]) -> dict[tuple, float]:
    """Each flat colour a face paints, by the area (mm², boxes) it covers."""
    areas: dict[tuple, float] = {}
    for mark in marks:
        if mark.kind in ("fill", "stroke", "text") and mark.colour and mark.opaque:
            x0, y0, x1, y1 = mark.box
            colour = tuple(round(v, 3) for v in mark.colour)
            areas[colour] = areas.get(colour, 0.0) + max(0.0, x1 - x0) * max(0.0, y1 - y0)
    return areas


def telling_fields(game: Game, component: Component) -> list[tuple[str, object]]:
    """(field, the expectation naming it) for the fields that tell the component's cards apart."""
    found: dict[str, object] = {}
    for expectation in game.expectations:
        if expectation.component != component.id:
            continue
        if expectation.kind == "distribution" and expectation.by:
            found.setdefault(expectation.by, expectation)
        elif expectation.kind == "combinations":
            for name in expectation.of:
                found.setdefault(name, expectation)
    return list(found.items())


def check_colour_vision(game: Game, component: Component, faces: list[tuple[Card, dict]]) -> list[PrintFinding]:
    """faces: each card with its faces' colour areas (colour_areas, both sides summed)."""
    findings = []
    for field, expectation in telling_fields(game, component):
        by_value: dict[str, dict[tuple, float]] = {}
        for card, areas in faces:
            if field in card.fields:
                shown = by_value.setdefault(str(card.fields[field]), {})
                for colour, area in areas.items():
                    shown[colour] = shown.get(colour, 0.0) + area
        if len(by_value) < 2:
            continue
        common = set.intersection(*(set(areas) for areas in by_value.values()))
        keys = {}
        for value, areas in by_value.items():
            own = {colour: area for colour, area in areas.items() if colour not in common}
            if own:
                keys[value] = max(sorted(own), key=lambda colour: own[colour] * math.hypot(*lab(colour)[1:]))
        for (first, a), (second, b) in combinations(keys.items(), 2):
            if delta_e(a, b) < DISTINGUISHABLE:
                continue  # alike to everyone: not a colour-vision matter
            alike = [(vision, delta_e(simulate(a, vision), simulate(b, vision))) for vision in MACHADO_2009]
            alike = [(vision, distance) for vision, distance in alike if distance < DISTINGUISHABLE]
            if not alike:
                continue
            said = ", ".join(f"{vision} (ΔE {distance:.1f})" for vision, distance in alike)
            findings.append(PrintFinding(
                WARNING, "colour vision", expectation.location.file, expectation.location.line,
                f"{component.id} {field}",
                f"{field} {first} ({hex_of(a)}) and {second} ({hex_of(b)}) look alike under {said}, simulated as "
                f"Machado 2009; expected ΔE {DISTINGUISHABLE:g} or more, or a symbol that tells them apart"))
    return findings
