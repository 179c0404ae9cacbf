"""Turn a game's expectations, rule figures and notes (YAML) into model values, each figure with its quote."""
from __future__ import annotations

from ..errors import Collector, Location
from .languages import language_problem, read_text
from .load import LList, LMap
from .model import Expectation, Fields, Figure, Note, Setup, Source
from .schema import RULE_KINDS, check_keys
from .validate_ranges import read_examples, read_ranges
from .validate_values import describe, read_players, read_value

EXPECTATION_KINDS = ("total", "distribution", "per", "setup", "combinations", "names", "invariant")
CITABLE = ("equals", "each", "owners", "deal", "set_aside", "turns", "stated_needed", "remove", "holds")  # may be {value: N, quote: "…"}


def read_source(raw: LMap, problems: Collector, document: str | None = None) -> Source | None:
    """`source: {document, quote}`, or `quote:` alone citing the game's own document."""
    value = raw.get("source")
    if value is None:
        quote = read_value(raw, "quote", "text", problems) if "quote" in raw else None
        return Source(document, quote) if quote and document else None
    if not isinstance(value, LMap):
        problems.add(raw.where("source"), "a source is {document: FILE, quote: \"the phrase\"}")
        return None
    check_keys(value, "source", problems)
    document = read_value(value, "document", "text", problems)
    quote = read_value(value, "quote", "text", problems)
    return Source(document, quote) if document and quote else None


def validate_notes(raw: LMap, problems: Collector) -> tuple[Note, ...]:
    notes = []
    items = raw.get("notes") or LList()
    if not isinstance(items, LList):
        problems.add(raw.where("notes"), "'notes' must be a list of {assumption: …} or {gap: …}")
        return ()
    for index, item in enumerate(items):
        if not isinstance(item, LMap) or len({"assumption", "gap"} & set(item)) != 1:
            problems.add(items.where(index), "a note needs exactly one of 'assumption:' or 'gap:' (plus an optional source)")
            continue
        check_keys(item, "note", problems)
        kind = "assumption" if "assumption" in item else "gap"
        text = read_value(item, kind, "text", problems, default="")
        notes.append(Note(kind, text, item.loc, read_source(item, problems)))
    return tuple(notes)


def validate_expectations(raw: LMap, game_players: tuple, component_ids: set, problems: Collector,
                          languages: tuple[str, ...] = ()) -> tuple[Expectation, ...]:
    items = raw.get("expectations") or LList()
    if not isinstance(items, LList):
        problems.add(raw.where("expectations"), "'expectations' must be a list")
        return ()
    out = []
    for index, item in enumerate(items):
        if not isinstance(item, LMap):
            problems.add(items.where(index), "an expectation is a mapping such as {total: cards, equals: 46}")
            continue
        expectation = validate_expectation(item, game_players, component_ids, problems, languages)
        if expectation:
            out.append(expectation)
    return tuple(out)


def unwrap_cited(item: LMap, problems: Collector, languages: tuple[str, ...] = ()) -> tuple[LMap, tuple, tuple, tuple]:
    """Replace `figure: {value: N, quote: "…"}` (or `assumed: "why"`, the reason one per language where the project
    has several) by `figure: N`, remembering the quote or reason (and where each reason is written)."""
    cited, assumed, places = [], [], []
    plain = LMap(item)
    plain.loc, plain.key_locs, plain.value_locs = item.loc, dict(item.key_locs), dict(item.value_locs)
    for key, value in item.items():
        if key in CITABLE and isinstance(value, LMap) and "value" in value:
            check_keys(value, "cited", problems)
            plain[key] = value["value"]
            plain.value_locs[key] = value.where("value")
            quote = read_value(value, "quote", "text", problems)
            why = read_text(value, "assumed", languages, problems)
            if quote:
                cited.append((key, quote))
            elif why:
                assumed.append((key, why))
                places.append(value.where("assumed"))
            else:
                problems.add(value.loc, f"'{key}' needs 'quote:', the phrase that states it, or 'assumed:', why it stands without one")
    return plain, tuple(cited), tuple(assumed), tuple(places)


def validate_expectation(item: LMap, game_players: tuple, component_ids: set, problems: Collector,
                         languages: tuple[str, ...] = ()) -> Expectation | None:
    check_keys(item, "expectation", problems)
    item, cited, assumed, assumed_at = unwrap_cited(item, problems, languages)
    kinds = [k for k in EXPECTATION_KINDS if k in item]
    if len(kinds) != 1:
        problems.add(item.loc, f"an expectation needs exactly one of {', '.join(EXPECTATION_KINDS)}; found {len(kinds)}")
        return None
    kind = kinds[0]
    if kind == "names":
        return validate_names(item, component_ids, problems, languages)
    component = read_value(item, kind, "id", problems)
    if component is not None and component not in component_ids:
        problems.add(item.where(kind), f"'{component}' is not a component of this game; expected one of: {', '.join(sorted(component_ids))}")
        return None
    by = read_value(item, "by", "text", problems)
    if kind in ("distribution", "per") and not by:
        problems.add(item.loc, f"a '{kind}' expectation needs 'by:' naming the field to group by")
    of = read_texts(item, "of", problems)
    if kind == "combinations" and not of:
        problems.add(item.loc, "a 'combinations' expectation needs 'of:', the fields whose combinations occur once, such as [area, number]")
    equals = read_equals(item, kind, problems)
    each = read_value(item, "each", "count", problems)
    if kind == "per" and each is None:
        problems.add(item.loc, "a 'per' expectation needs 'each:', the number of pieces every owner has")
    setup = read_setup(item, problems) if kind == "setup" else None
    holds = read_holds(item, kind, assumed, problems)
    known, known_at = read_known(item, problems, languages)
    return Expectation(
        kind=kind,
        component=component or "",
        source=read_source(item, problems),
        location=item.loc,
        by=by,
        where=read_value(item, "where", "expression", problems),
        equals=equals,
        each=each,
        owners=read_value(item, "owners", "count", problems),
        players=read_players(item, "players", problems, default=game_players),
        setup=setup,
        known=known,
        cited=cited,
        assumed=assumed,
        of=of,
        holds=holds,
        holds_at=item.where("holds") if holds else None,
        assumed_at=assumed_at,
        known_at=known_at,
    )


def read_holds(item: LMap, kind: str, assumed: tuple, problems: Collector) -> str | None:
    """An invariant's rule: an expression over the card, citing the phrase it comes from (or saying why not)."""
    if kind != "invariant":
        if "holds" in item:
            problems.add(item.where_key("holds"), "'holds' belongs to an 'invariant' expectation; expected it "
                                                  "with invariant: COMPONENT")
        return None
    if "holds" not in item:
        problems.add(item.loc, "an 'invariant' expectation needs 'holds:', the expression every card satisfies, "
                               "such as card.number == 12")
        return None
    if "source" not in item and "holds" not in dict(assumed):
        problems.add(item.loc, "an 'invariant' needs 'source:', the document and the phrase its rule comes from "
                               "(or holds: {value: …, assumed: why})")
    return read_value(item, "holds", "expression", problems)


def read_setup(item: LMap, problems: Collector) -> Setup:
    remove = read_value(item, "remove", "expression", problems)
    use = read_value(item, "use", "expression", problems)
    if remove and use:
        problems.add(item.loc, "give either 'remove:' or 'use:', not both")
    return Setup(
        remove=remove,
        use=use,
        deal=read_value(item, "deal", "count", problems, default=0),
        set_aside=read_value(item, "set_aside", "count", problems, default=0),
        turns=read_value(item, "turns", "count", problems, default=0),
        stated_needed=read_value(item, "stated_needed", "count", problems),
        rest=read_value(item, "rest", "text", problems),
    )


def validate_names(item: LMap, component_ids: set, problems: Collector,
                   languages: tuple[str, ...] = ()) -> Expectation | None:
    field = read_value(item, "names", "text", problems)
    components = read_texts(item, "in", problems)
    for name in components:
        if name not in component_ids and not name.startswith("defaults."):
            problems.add(item.where("in"), f"'{name}' is not a component of this game; expected one of: {', '.join(sorted(component_ids))}")
            return None
    if not field or not components:
        problems.add(item.loc, "a 'names' expectation needs the field (names: race) and 'in:', the components that share it")
        return None
    equals = item.get("equals")
    names = read_texts(item, "equals", problems) if equals is not None else ()
    first = next((c for c in components if not c.startswith("defaults.")), components[0])
    source = read_source(item, problems)
    known, known_at = read_known(item, problems, languages)
    return Expectation(kind="names", component=first, source=source, location=item.loc, by=field,
                       components=components, names=names, known=known, known_at=known_at)


def read_texts(item: LMap, key: str, problems: Collector) -> tuple[str, ...]:
    value = item.get(key)
    if value is None:
        return ()
    if isinstance(value, LList) and value and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return tuple(str(v) for v in value)
    problems.add(item.where(key), f"'{key}' must be a list of names, such as [烏天狗, 河童]; found {describe(value)}")
    return ()


def read_translated_words(item: LMap, problems: Collector) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """words@en: [majority bonus] — the words an edition in that language ties numbers to the figure by."""
    found = []
    for key in item:
        name, _, code = str(key).partition("@")
        if name == "words" and code:
            problem = language_problem(code, ())
            if problem:
                problems.add(item.where_key(key), f"'{key}': {problem}")
            else:
                found.append((code, read_texts(item, key, problems)))
    return tuple(found)


def read_known(item: LMap, problems: Collector, languages: tuple[str, ...] = ()) -> tuple[tuple, tuple[Location, ...]]:
    """What a figure the document contradicts is excused by: the reason for each figure (one per language where the
    project has several), and where each reason is written."""
    value = item.get("known")
    if value is None:
        return (), ()
    per_language = len(languages) > 1
    if isinstance(value, LMap) and value and all(isinstance(v, str) and v or per_language and isinstance(v, LMap)
                                                 for v in value.values()):
        return (tuple((str(k), read_text(value, k, languages, problems) if isinstance(v, LMap) else v)
                      for k, v in value.items()), tuple(value.where(key) for key in value))
    problems.add(item.where("known"), "'known' must name the figure it excuses and say why, such as "
                                      "{needed: \"the document's setup needs 39 cards but 36 remain\"}")
    return (), ()


def read_equals(item: LMap, kind: str, problems: Collector):
    if "equals" not in item:
        if kind in ("total", "distribution"):
            problems.add(item.loc, f"a '{kind}' expectation needs 'equals:', the figure the document states")
        return None
    value = item["equals"]
    where = item.where("equals")
    if kind == "distribution":
        if isinstance(value, LMap) and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value.values()):
            return Fields({k: v for k, v in value.items()})
        problems.add(where, "'equals' must map each value to its count, such as {1: 10, 2: 7}")
        return None
    if kind == "setup" and isinstance(value, str):
        return read_value(item, "equals", "expression", problems)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    problems.add(where, f"'equals' must be a whole number; found {describe(value)}")
    return None


def validate_figures(raw: LMap, problems: Collector, languages: tuple[str, ...] = ()) -> tuple[Figure, ...]:
    """`figures:` — name → {value, quote or source, words, inputs, examples, assumed}."""
    items = raw.get("figures")
    if items is None:
        return ()
    if not isinstance(items, LMap):
        problems.add(raw.where("figures"), "'figures' must map each figure's name to {value: 6, quote: \"…\"}")
        return ()
    document = raw.get("document") if isinstance(raw.get("document"), str) else None
    figures = []
    for name, item in items.items():
        if not isinstance(item, LMap) or "value" not in item:
            problems.add(items.where(name), f"figure '{name}' must be a mapping with 'value:' and 'quote:'")
            continue
        check_keys(item, "figure", problems)
        inputs = read_texts(item, "inputs", problems)
        value = item["value"]
        kind = read_value(item, "kind", "choice:" + ",".join(RULE_KINDS), problems)
        if kind is not None:
            if not isinstance(value, str) or not value.strip():
                problems.add(item.where("value"), f"a '{kind}' figure's value is the document's word for the rule, such as "
                             f"切り捨て or 時計回り; found {describe(value)}")
                continue
            if "in" in item:
                problems.add(item.where_key("in"), "'in' names the data that holds a number; a rule in words has none")
            figures.append(Figure(str(name), value.strip(), item.loc, read_source(item, problems, document),
                                  read_texts(item, "words", problems), assumed=read_text(item, "assumed", languages, problems),
                                  kind=kind, assumed_at=item.where("assumed")))
            continue
        if isinstance(value, str):
            value = read_value(item, "value", "expression", problems)
        elif not isinstance(value, (int, float)) or isinstance(value, bool):
            problems.add(item.where("value"), f"a figure's value must be a number or an expression; found {describe(value)}")
            continue
        if isinstance(value, str) and not inputs:
            problems.add(item.where("value"), "an expression figure needs 'inputs:', the names it takes, such as [players, bullet]")
        held = read_texts(item, "in", problems)
        if held and isinstance(value, str):
            problems.add(item.where("in"), "'in' names the data that holds a number; an expression figure has no one value")
        figures.append(Figure(str(name), value, item.loc, read_source(item, problems, document), read_texts(item, "words", problems),
                              inputs, read_examples(item, inputs, problems), read_text(item, "assumed", languages, problems),
                              ranges=read_ranges(item, inputs, problems), held=held,
                              translated_words=read_translated_words(item, problems), assumed_at=item.where("assumed")))
    return tuple(figures)

