"""Turn a game's data into the names rulebook Markdown templates use: counts, count tables, rule tables."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from markupsafe import Markup, escape

from ..errors import PnpError
from ..project.assumptions import assumed_count
from ..project.expand import expand_pieces
from ..project.languages import Texts
from ..project.model import Fields, Game, Project
from ..templating.sandbox import compile_expression
from .words import word

# A number the data only assumes (a count or figure the documents leave blank) travels from the rulebook's
# expressions to the typesetter followed by this private-use mark, which is set as a small 「仮」 (in English, TBD).
ASSUMED_MARK = "\U000fff31"
KNOWN_MARK = "\U000fff32"  # likewise where the data records that the document contradicts itself: a small 「注」, NOTE


@dataclass(frozen=True)
class ComponentFacts:
    """What a rulebook may say about a component: its name, piece count, kind and distinct cards."""

    id: str
    name: str
    kind: str
    count: int  # physical pieces, copies included
    cards: tuple[Fields, ...]  # distinct cards, in data order


def select_fields(game: Game, component_id: str, where: str | None = None) -> list[Fields]:
    """The fields of every piece of a component (copies included), optionally filtered by an expression."""
    component = game.component(component_id)
    if component is None:
        known = ", ".join(c.id for c in game.components)
        raise PnpError(f"no component '{component_id}' in game '{game.id}'; expected one of: {known}")
    fields = [piece.card.fields for piece in expand_pieces(component)]
    if not where:
        return fields
    test = compile_expression(where)
    return [f for f in fields if test(card=f)]


def quickdraw_downs(players: int, bullet: int) -> int:
    """LWS "Shoot The QuickDrow": a quick draw with bullet N at P players downs P − N children."""
    if not 1 <= bullet <= players - 1:
        raise PnpError(f"bullet {bullet} is not used at {players} players; expected 1 to {players - 1}")
    return players - bullet


def bullets_used(players: int, values) -> list:
    """The bullet values in play at a player count: numbers 1 to players − 1, and every non-number (down)."""
    return [v for v in values if not isinstance(v, int) or isinstance(v, bool) or 1 <= v <= players - 1]


def markdown_table(header: list[str], rows: list[list[str]], align: list[str] | None = None) -> Markup:
    """A GitHub-style Markdown table; cells are escaped for Markdown and HTML."""
    align = align or ["left"] + ["center"] * (len(header) - 1)
    rule = {"left": ":--", "center": ":-:", "right": "--:"}

    def cell(value) -> str:
        return str(escape(str(value))).replace("|", "\\|")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "| " + " | ".join(rule[a] for a in align) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return Markup("\n" + "\n".join(lines) + "\n")


class Assumed(int):
    """A number the data only assumes: printed with ASSUMED_MARK after it; arithmetic on it gives plain ints."""

    def __str__(self) -> str:
        return f"{int(self)}{ASSUMED_MARK}"


@dataclass(frozen=True)
class Assumption:
    """An assumed number a rulebook printed: what it is, its value, why it stands and where it would come from."""

    what: str
    value: int | None  # None: a contradiction of the document (`known:`), not a number chosen
    why: str
    source: str = ""


@dataclass(frozen=True)
class Edition:
    """The edition a rulebook is expanded for: its language (pnpgen's words are printed in it), whether that is the
    original's (whose words a figure's `words` are), and the game as the project's source holds it (every language's
    text: what tells a name given per language from one that stays single)."""

    language: str | None = None
    original: bool = True
    source: Game | None = None


def find_edition(project: Project, game: Game) -> Edition:
    """The edition of `project` that `game` belongs to."""
    source = project.texts or project
    original = not source.languages or project.language in (None, source.languages[0])
    held = next((g for g in source.games if g.id == game.id), None) if project.texts is not None else None
    return Edition(project.language, original, held)


def find_names(game: Game, source: Game | None, component_id: str, keys: list[str]) -> dict[str, str]:
    """The edition's name of each value in `keys` of a component's field, where the data gives one per language: a
    mapping of its cards keyed by those values (defaults.area_style) whose entries carry a `name` (or `label`) with one
    text per language. Empty when the data names them in no such mapping."""
    held = source.component(component_id) if source is not None else None
    component = game.component(component_id)
    if held is None or component is None or not held.cards or not component.cards:
        return {}
    for field, mapping in held.cards[0].fields.items():
        entries = {str(k): v for k, v in mapping.items()} if type(mapping) is Fields else {}
        if not entries or not set(keys) <= set(entries) or type(entries[keys[0]]) is not Fields:
            continue
        for name in ("name", "label"):
            if all(type(entries[k]) is Fields and type(entries[k].get(name)) is Texts for k in keys):
                shown = {str(k): v for k, v in component.cards[0].fields[field].items()}
                return {k: str(shown[k][name]) for k in keys}
    return {}


EDITION_WORD = "\0edition"  # a helper's default text: the edition's own word for it (words.py)


def make_context(game: Game, marks: list[Assumption] | None = None, edition: Edition = Edition()) -> dict:
    """Names the rulebook's Jinja expressions see: game, players, components and the helpers below. marks:
    where the assumed numbers printed are noted (each then printed with its mark); None prints them plain. What the
    helpers print besides the data is in the edition's language."""
    language = edition.language
    components = {c.id: ComponentFacts(c.id, c.name, c.kind, len(expand_pieces(c)),
                                       tuple(card.fields for card in c.cards)) for c in game.components}

    def note(assumption: Assumption) -> None:
        if assumption not in marks:
            marks.append(assumption)

    def mark(value, what: str, why: str, source: str):
        if marks is None or not isinstance(value, int) or isinstance(value, bool):
            return value
        note(Assumption(what, value, why, source))
        return Assumed(value)

    def count(component_id: str, where: str | None = None) -> int:
        """Pieces of a component, copies included; `where` filters by an expression over `card`."""
        found = len(select_fields(game, component_id, where))
        assumed = assumed_count(game, component_id) if where is None else None
        if assumed is None:
            return found
        what = word("count of", language, component=components[component_id].name)  # select_fields found it
        return mark(found, what, *assumed)

    def each(component_id: str, by: str) -> int:
        """Pieces per value of the field `by`, when every value has the same number (e.g. markers per race)."""
        counts = Counter(str(f.get(by)) for f in select_fields(game, component_id))
        if len(set(counts.values())) != 1:
            raise PnpError(f"{component_id} by {by}: the counts differ ({dict(counts)}); expected the same count for every {by}")
        return next(iter(counts.values()))

    def values(component_id: str, by: str, where: str | None = None) -> list:
        """The distinct values of a field, in data order."""
        return list(dict.fromkeys(f.get(by) for f in select_fields(game, component_id, where)))

    def names(component_id: str, by: str, where: str | None = None) -> list:
        """The distinct values of a field as the edition prints them: the name the data gives each per language
        (find_names), else the value itself."""
        found = values(component_id, by, where)
        named = find_names(game, edition.source, component_id, [str(v) for v in found])
        return [named.get(str(v), v) for v in found]

    def table(component_id: str, by: str, where: str | None = None, label: str | None = None,
              unit: str = EDITION_WORD, total: str | None = EDITION_WORD) -> Markup:
        """A one-row Markdown table of piece counts by a field's value (values as columns, by the edition's names
        where the data gives them per language), with a total; unit and total in the edition's words unless given."""
        chosen = select_fields(game, component_id, where)
        counts = Counter(str(f.get(by)) for f in chosen)
        keys = list(dict.fromkeys(str(f.get(by)) for f in chosen))
        named = find_names(game, edition.source, component_id, keys)
        unit = word("default unit", language) if unit == EDITION_WORD else unit
        total = word("total", language) if total == EDITION_WORD else total
        header = [label or by] + [named.get(k, k) for k in keys] + ([total] if total else [])
        row = [components[component_id].name + (word("unit", language, unit=unit) if unit else "")]
        row += [counts[k] for k in keys] + ([len(chosen)] if total else [])
        return markdown_table(header, [row])

    def figure(name: str, **inputs):
        """A rule figure of the game (`figures:`): a number, or an expression figure evaluated for `inputs`."""
        found = game.figure(name)
        if found is None:
            known = ", ".join(f.name for f in game.figures) or "none"
            raise PnpError(f"no figure '{name}' in game '{game.id}'; expected one of: {known}")
        if not isinstance(found.value, str) or found.kind:  # a number, or a rule's word (切り捨て)
            if found.assumed:
                said = found.words if edition.original else dict(found.translated_words).get(language, ())
                what = word("figure of", language, name=name, words=word("list", language).join(said) or name)
                return mark(found.value, what, found.assumed, found.source.document if found.source else "")
            return found.value
        missing = [i for i in found.inputs if i not in inputs]
        if missing:
            raise PnpError(f"figure '{name}' is '{found.value}' and needs {', '.join(missing)}; "
                           f"expected figure('{name}', {', '.join(f'{i}=…' for i in found.inputs)})")
        try:
            return compile_expression(found.value)(**{i: inputs[i] for i in found.inputs})
        except Exception as err:  # the designer's expression failing is a located input error, not a crash
            raise PnpError(f"figure '{name}' ('{found.value}') failed for {inputs}: {err}") from None

    def known(component_id: str, players: int | None = None) -> str:
        """A note mark where the rulebook speaks of a setup the data records a contradiction of (`known:`); each
        is listed with its reason at the end. Nothing in a final rulebook, or where none is known."""
        found = [(e, why) for e in game.expectations if e.component == component_id and e.known
                 and (players is None or players in e.players) for _, why in e.known]
        if component_id not in components:
            raise PnpError(f"known('{component_id}'): no component '{component_id}' in game '{game.id}'; expected one "
                           f"of {', '.join(components)}")
        if marks is None or not found:
            return ""
        for expectation, why in found:
            counts = word("list", language).join(word("players", language, p=p) for p in expectation.players)
            name = components[component_id].name
            note(Assumption(word("setup of", language, component=name, players=counts) if counts else name, None,
                            why, expectation.source.document if expectation.source else ""))
        return KNOWN_MARK

    def setup(name: str, players: int, component_id: str | None = None):
        """A setup figure at a player count (deal, set_aside, turns), from the game's setup expectations."""
        for expectation in game.expectations:
            if (expectation.kind == "setup" and players in expectation.players and getattr(expectation.setup, name, 0)
                    and component_id in (None, expectation.component)):
                return getattr(expectation.setup, name)
        raise PnpError(f"no setup states '{name}' at {players} players in game '{game.id}'; expected deal, set_aside or "
                       "turns of a setup expectation for that player count")

    def quickdraw_table(bullet_component: str = "bullet-chips", by: str = "bullet") -> Markup:
        """Players (rows) × bullet number (columns): how many children a quick draw downs."""
        numbers = [v for v in values(bullet_component, by) if isinstance(v, int) and not isinstance(v, bool)]
        header = [word("players by bullet", language)] + [str(n) for n in numbers]
        downs = (lambda p, n: figure("quickdraw_downs", players=p, bullet=n)) if game.figure("quickdraw_downs") else quickdraw_downs
        rows = [[word("player row", language, p=p)]
                + [word("downed", language, n=downs(p, n)) if n <= p - 1 else "—" for n in numbers]
                for p in game.players]
        return markdown_table(header, rows)

    def bullet_table(bullet_component: str = "bullet-chips", by: str = "bullet") -> Markup:
        """Which bullet chips each player uses at each player count (1 to players − 1, plus down)."""
        all_values = values(bullet_component, by)
        rows = []
        for p in game.players:
            used = bullets_used(p, all_values)
            shown = word("list", language).join(str(v) for v in used)
            numbers = [v for v in used if isinstance(v, int) and not isinstance(v, bool)]
            rows.append([word("player row", language, p=p), shown, max(numbers, default="—"),
                         word("chips", language, n=len(used)), word("chips", language, n=len(used) * p)])
        header = [word(key, language) for key in ("player count", "bullets used", "beats down", "per player",
                                                   "all players")]
        return markdown_table(header, rows, ["left", "left", "center", "center", "center"])

    helpers: dict[str, Callable] = {"count": count, "each": each, "values": values, "names": names, "table": table,
                                    "quickdraw_table": quickdraw_table, "quickdraw_downs": quickdraw_downs,
                                    "bullet_table": bullet_table, "bullets_used": bullets_used, "figure": figure,
                                    "setup": setup, "known": known}
    return {
        "game": {"id": game.id, "title": game.title, "players": game.players},
        "players": game.players,
        "components": components,
        **helpers,
    }
