"""Turn an expression figure into its values at every player count the game supports, and those into findings: each
value a whole number, rounded as the document's words say (端数切捨て, 切り上げ), and the figure the quote states for
a player count (「４人プレイ時は４点」) — a rule with no worked example is still held to the document."""
from __future__ import annotations

import itertools
import math

from ..project.model import Figure, Game
from ..templating.sandbox import compile_expression
from .expression_tree import compile_unrounded
from .findings import FAIL, PASS, WARN, Finding
from .numerals import find_numbers
from .wordrules import AXES

MAX_POINTS = 10_000  # combinations of input values at one player count: a figure's inputs are small numbers
_ROUNDING = {"切り捨て": (math.floor, "// or |int"), "切り上げ": (math.ceil, "-(-a // b)"),
             "四捨五入": (lambda x: math.floor(x + 0.5), "(a / b + 0.5)|int")}
_SLACK = 1e-9  # 0.1 * 3 is 0.30000000000000004: a value that close to a whole number is that number


def check_values(game: Game, figure: Figure) -> tuple[list[Finding], bool]:
    """The findings, and whether every input could be run over (when not, the caller falls back on reading the
    expression for its rounding)."""
    missing = [i for i in figure.inputs if i != "players" and i not in {name for name, _, _ in figure.ranges}]
    uses_players = "players" in figure.inputs or any(isinstance(b, str) for _, a, z in figure.ranges for b in (a, z))
    if missing or (uses_players and not game.players):
        why = (f"no ranges: for {', '.join(missing)}; add e.g. ranges: {{{missing[0]}: {{from: 1, to: players - 1}}}}"
               if missing else "the game gives no players:")
        return [Finding(WARN, game.id, f"figure {figure.name}: values at every player count", figure.location, None, None,
                        f"assumption: '{figure.value}' is checked only at its examples: {why}", figure.source,
                        figure="values")], False
    word = stated_rounding(game, figure)
    counts = game.players if uses_players else (None,)
    values: list = []
    findings = [f for players in counts for f in check_at(game, figure, players, word, values)]
    if not findings:
        where = f"at {counts[0]}–{counts[-1]} players" if uses_players else "at every value"
        low, high = (shown(round(v)) for v in (min(values), max(values))) if values else ("none", "none")
        found = f"{low}–{high}" if low != high else low
        findings.append(Finding(PASS, game.id, f"figure {figure.name} {where}: whole numbers", figure.location,
                                "a whole number", found, "", figure.source, figure="values"))
        if word:
            findings.append(Finding(PASS, game.id, f"figure {figure.name}: rounding as the document states",
                                    figure.location, word, figure.value, "", figure.source, figure="rounding"))
    if "players" in figure.inputs and tuple(figure.inputs) == ("players",):
        findings.extend(check_stated_counts(game, figure))
    return findings, True


def stated_rounding(game: Game, figure: Figure) -> str | None:
    """How the document says the figure rounds: its own quote's word, else that of a rounding rule sharing one of
    its words (survival_rounding for survival_bonus)."""
    quote = figure.source.quote if figure.source else ""
    stated = {word for word, ways in AXES["rounding"].items() if any(w in quote for w in ways)}
    if not stated:
        for rule in game.figures:
            if rule.kind == "rounding" and set(rule.words) & set(figure.words):
                stated |= {word for word, ways in AXES["rounding"].items() if any(w in rule.value for w in ways)}
    return next(iter(stated)) if len(stated) == 1 else None


def input_points(figure: Figure, players: int | None) -> list[dict]:
    """Every combination of the inputs' values at this player count (players first)."""
    bound = {} if players is None else {"players": players}
    axes = []
    for name, low, high in figure.ranges:
        ends = [end if isinstance(end, int) else compile_expression(end)(**bound) for end in (low, high)]
        if not all(isinstance(e, int) and not isinstance(e, bool) for e in ends):
            raise ValueError(f"the range of {name} runs from {ends[0]} to {ends[1]}; expected whole numbers")
        values = range(ends[0], ends[1] + 1)
        if math.prod(len(a) for a in axes) * len(values) > MAX_POINTS:  # measured before any list is made
            raise ValueError(f"its ranges give more than {MAX_POINTS:,} combinations; expected ranges of a game's size")
        axes.append([(name, v) for v in values])
    base = {"players": players} if "players" in figure.inputs else {}
    return [dict(base, **dict(combination)) for combination in itertools.product(*axes)]


def check_at(game: Game, figure: Figure, players: int | None, word: str | None, values: list) -> list[Finding]:
    """The figure's values at one player count (added to `values`): a finding for each way they fail."""
    at = f" at {players} players" if players is not None else ""
    try:
        points = input_points(figure, players)
    except Exception as err:  # a designer's range failing is a finding, not a crash
        return [Finding(FAIL, game.id, f"figure {figure.name}{at}: whole numbers", figure.location, "a whole number",
                        "no values", f"{err}", figure.source, figure="values")]
    run, unrounded = compile_expression(figure.value), compile_unrounded(figure.value)
    broken, misrounded = [], []
    for point in points:
        try:
            value = run(**point)
        except Exception as err:  # a designer's expression failing at some count is a finding, not a crash
            broken.append((point, f"fails ({err})"))
            continue
        if not is_whole(value):
            broken.append((point, f"gives {shown(value)}"))
            continue
        values.append(value)
        exact = exact_value(unrounded, point)
        if word and exact is not None and round_as(word, exact) != value:
            misrounded.append((point, value, exact))
    findings = []
    if broken:
        alike: dict[str, list[str]] = {}
        for point, text in broken:
            alike.setdefault(text, []).append(name_point(point, players))
        spots = "; ".join(f"{text} at {', '.join(points[:4])}{' …' if len(points) > 4 else ''}"
                          for text, points in list(alike.items())[:4])
        more = f"; and {len(alike) - 4} more" if len(alike) > 4 else ""
        hint = f"; the document says {word}: write it with {_ROUNDING[word][1]}" if word else ""
        whole = ("a count is a whole number" if any(t.startswith("gives") for _, t in broken)
                 else "expected an expression that runs at every player count")
        findings.append(Finding(FAIL, game.id, f"figure {figure.name}{at}: whole numbers", figure.location,
                                "a whole number", broken[0][1].removeprefix("gives "),
                                f"'{figure.value}' {spots}{more}: {whole}{hint}", figure.source, figure="values"))
    if misrounded:
        point, value, exact = misrounded[0]
        rounded = round_as(word, exact)
        others = f" (and at {len(misrounded) - 1} more)" if len(misrounded) > 1 else ""
        findings.append(Finding(FAIL, game.id, f"figure {figure.name}{at}: rounding as the document states",
                                figure.location, rounded, value,
                                f"at {name_point(point, players)} '{figure.value}' gives {value}, but {shown(exact)} "
                                f"{word} is {rounded}{others}", figure.source, figure="rounding"))
    return findings


def round_as(word: str, exact: float) -> int:
    """The exact value rounded as the document's word says."""
    return _ROUNDING[word][0](exact - _SLACK if word == "切り上げ" else exact + _SLACK)


def exact_value(unrounded, point: dict):
    try:
        exact = unrounded(**point)
    except Exception:  # without its rounding the expression may not run (range(a / b)): nothing to hold it to
        return None
    return exact if isinstance(exact, (int, float)) and not isinstance(exact, bool) and math.isfinite(exact) else None


def is_whole(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or (math.isfinite(value) and abs(value - round(value)) < _SLACK)


def shown(value) -> str:
    if isinstance(value, float) and math.isfinite(value) and not value.is_integer():
        return f"{value:.3g}"
    return str(value)


def name_point(point: dict, players: int | None) -> str:
    named = ", ".join(f"{k}={v}" for k, v in point.items() if k != "players")
    return named or f"{players} players"


def check_stated_counts(game: Game, figure: Figure) -> list[Finding]:
    """A figure of players alone held to the number its quote states for a player count (「４人プレイ時は４点」),
    at the counts no example covers."""
    covered = {inputs.get("players") for inputs, _ in figure.examples}
    findings = []
    for players in game.players:
        stated = numbers_stated_at(figure.source.quote if figure.source else "", players)
        if players in covered or not stated:
            continue
        try:
            value = compile_expression(figure.value)(players=players)
        except Exception:  # reported by check_at
            continue
        status = PASS if value in stated else FAIL
        said = "、".join(str(n) for n in dict.fromkeys(stated))
        findings.append(Finding(status, game.id, f"figure {figure.name} at {players} players: as the document states",
                                figure.location, said, value, "" if status == PASS else
                                f"the quote states {said} at {players} players; '{figure.value}' gives {value}",
                                figure.source, figure="values"))
    return findings


def numbers_stated_at(quote: str, players: int) -> list:
    """The numbers a quote states after 「N人プレイ」 for this N, up to the next player count."""
    numbers = find_numbers(quote)
    marks = [i for i, n in enumerate(numbers) if n.players]
    return [n.value for index, stop in zip(marks, marks[1:] + [len(numbers)]) if numbers[index].value == players
            for n in numbers[index + 1:stop]]
