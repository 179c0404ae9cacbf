"""Turn a game's rule figures (rounds, tricks, VP values, thresholds, rules such as players − bullet) into findings:
each held to the numbers its quoted phrase states, an expression to the examples the document gives."""
from __future__ import annotations

from dataclasses import replace

from ..project.model import Figure, Game, Project
from ..templating.sandbox import compile_expression
from .documents import Documents, check_source, check_stated
from .figure_values import check_values
from .findings import FAIL, PASS, WARN, Finding
from .numerals import numbers_for_players
from .wordrules import AXES, check_rule_figure


def check_figures(project: Project, game: Game, documents: Documents) -> list[Finding]:
    findings = []
    for figure in game.figures:
        findings.extend(check_source(documents, game, figure.source, figure.location))
        if figure.name in PLAYER_FIGURES and game.players:
            findings.append(check_players(game, figure))
        if figure.kind:
            findings.append(check_rule_figure(game, figure))
        elif isinstance(figure.value, str):
            findings.extend(check_rule(game, figure))
            values, complete = check_values(game, figure)  # every player count, when every input has a range
            findings.extend(values if complete else values + check_rounding(game, figure))
        else:
            findings.append(check_number(game, figure))
    return findings


PLAYER_FIGURES = {"min_players": min, "max_players": max}  # held to the game's `players:` as well as to the quote


def check_players(game: Game, figure: Figure) -> Finding:
    """The game's `players:` must be the range the document states (「３〜４人用」)."""
    found = PLAYER_FIGURES[figure.name](game.players)
    return Finding(PASS if found == figure.value else FAIL, game.id, f"players: {figure.name}", game.location,
                   figure.value, found, "" if found == figure.value else
                   f"the game's players: runs {min(game.players)}–{max(game.players)}; the document's figure is {figure.value}",
                   figure.source, figure="players")


def check_number(game: Game, figure: Figure) -> Finding:
    found = check_stated(game, f"figure {figure.name}", "value", figure.value, figure.source, figure.location)
    if figure.assumed:  # an assumption stays one, whether or not its phrase has the number
        return replace(found, status=WARN, expected="not stated", found=figure.value,
                       detail=f"assumption: {figure.assumed}")
    return found


def evaluate_figure(figure: Figure, inputs: dict):
    """The figure's value for these inputs (an expression figure), or the number itself."""
    if not isinstance(figure.value, str):
        return figure.value
    try:
        return compile_expression(figure.value)(**inputs)
    except Exception as err:  # a designer's expression failing is a finding, not a crash
        return f"error: {err}"


def check_rule(game: Game, figure: Figure) -> list[Finding]:
    """An expression figure must give the value the document states for each example."""
    name = f"figure {figure.name}"
    if not figure.examples:
        return [Finding(WARN, game.id, name, figure.location, "not stated", figure.value,
                        f"assumption: no example ties '{figure.value}' to a number the document states; add examples:",
                        figure.source, figure="examples")]
    findings = []
    for inputs, stated in figure.examples:
        shown = ", ".join(f"{k}={v}" for k, v in inputs.items())
        value = evaluate_figure(figure, dict(inputs))
        check = f"{name} at {shown}"
        if value != stated:
            findings.append(Finding(FAIL, game.id, check, figure.location, stated, value,
                                    f"'{figure.value}' gives {value}; the document's example says {stated}", figure.source,
                                    figure="value"))
            continue
        quoted = figure.source and [n.value for n in numbers_for_players(figure.source.quote, inputs.get("players"))]
        status = PASS if quoted and stated in quoted else (WARN if not quoted else FAIL)
        detail = {PASS: "", WARN: "assumption: the quoted phrase states no figure for this example",
                  FAIL: f"the quote does not state {stated}"}[status]
        findings.append(Finding(status, game.id, check, figure.location, stated, value, detail, figure.source, figure="examples"))
    return findings


_ROUNDED = {"切り捨て": ("//", "floor"), "切り上げ": ("ceil", "-(-"), "四捨五入": ("round",)}


def check_rounding(game: Game, figure: Figure) -> list[Finding]:
    """An expression whose quote says how it rounds (端数切捨て) must round that way: `//` or floor() for rounding
    down, ceil() for rounding up — a plain `/` loses it, whatever the examples give."""
    quote = figure.source.quote if figure.source else ""
    stated = [word for word, ways in AXES["rounding"].items() if any(w in quote for w in ways)]
    if len(stated) != 1:
        return []
    ways = _ROUNDED[stated[0]]
    name = f"figure {figure.name}: rounding as the document states"
    if any(way in figure.value for way in ways):
        return [Finding(PASS, game.id, name, figure.location, stated[0], figure.value, "", figure.source, figure="rounding")]
    return [Finding(FAIL, game.id, name, figure.location, stated[0], figure.value,
                    f"the quote says {stated[0]}, but '{figure.value}' does not round that way; write it with "
                    f"{' or '.join(ways)}", figure.source, figure="rounding")]
