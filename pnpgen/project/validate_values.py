"""Turn single YAML values (lengths, counts, fields, expectations, notes) into typed model values."""
from __future__ import annotations

import jinja2

from .. import units
from ..errors import Collector
from .load import LList, LMap
from .model import Expectation, Fields, Note, Setup, Source
from .sandbox import compile_expression
from .schema import check_keys

EXPECTATION_KINDS = ("total", "distribution", "per", "setup")


def read_value(mapping: LMap, key, kind: str, problems: Collector, default=None):
    """Read mapping[key] as `kind`; report a located problem and return default when it is not one."""
    if key not in mapping or mapping[key] is None:
        return default
    value = mapping[key]
    where = mapping.where(key)
    if kind == "text":
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        problems.add(where, f"'{key}' must be text; found {describe(value)}")
    elif kind == "id":
        if isinstance(value, str) and value and all(c.islower() or c.isdigit() or c == "-" for c in value) and value.isascii():
            return value
        problems.add(where, f"'{key}' must be an id of lower-case letters, digits and '-'; found {describe(value)}")
    elif kind == "bool":
        if isinstance(value, bool):
            return value
        problems.add(where, f"'{key}' must be true or false; found {describe(value)}")
    elif kind == "count":
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        problems.add(where, f"'{key}' must be a whole number of 0 or more; found {describe(value)}")
    elif kind == "length":
        try:
            length = units.parse_length(value)
        except ValueError as err:
            problems.add(where, f"'{key}': {err}")
        else:
            if length < 0:
                problems.add(where, f"'{key}' must not be negative")
            return max(length, 0.0)
    elif kind.startswith("choice:"):
        choices = kind.split(":", 1)[1].split(",")
        if value in choices:
            return value
        problems.add(where, f"'{key}' must be one of {', '.join(choices)}; found {describe(value)}")
    elif kind == "expression":
        if isinstance(value, str):
            try:
                compile_expression(value)
                return value
            except jinja2.TemplateSyntaxError as err:
                problems.add(where, f"'{key}' is not a valid expression ({err.message}); expected e.g. card.number == 1")
        else:
            problems.add(where, f"'{key}' must be an expression in quotes, such as \"card.number == 1\"")
    else:
        raise AssertionError(f"unknown kind {kind}")
    return default


def describe(value) -> str:
    if isinstance(value, LMap):
        return "a mapping"
    if isinstance(value, LList):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f"text '{value}'"
    return str(value)


def freeze(value):
    if isinstance(value, LMap):
        return Fields({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, LList):
        return tuple(freeze(v) for v in value)
    return value


def read_fields(container, key, problems: Collector, skip: tuple = ()) -> Fields:
    """Read a mapping of free-form fields (container itself when key is None)."""
    if key is None:
        value, where = container, container.loc
    elif isinstance(container, LMap) and key not in container:
        return Fields()
    else:
        value, where = container[key], container.where(key)
    if not isinstance(value, LMap):
        problems.add(where, f"expected a mapping of fields such as {{number: 1}}; found {describe(value)}")
        return Fields()
    return Fields({str(k): freeze(v) for k, v in value.items() if k not in skip})


def read_players(raw: LMap, key: str, problems: Collector, default: tuple = ()) -> tuple[int, ...]:
    value = raw.get(key)
    if value is None:
        return default
    if isinstance(value, LMap) and set(value) == {"min", "max"}:
        low, high = value["min"], value["max"]
        if isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= 100:
            return tuple(range(low, high + 1))
    elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 100:
        return (value,)
    elif isinstance(value, LList) and value and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value):
        return tuple(sorted(set(value)))
    problems.add(raw.where(key), f"'{key}' must be player counts: {{min: 3, max: 4}}, a list [3, 4] or one number")
    return default


def read_source(raw: LMap, problems: Collector) -> Source | None:
    value = raw.get("source")
    if value is None:
        return None
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


def validate_expectations(raw: LMap, game_players: tuple, component_ids: set, problems: Collector) -> tuple[Expectation, ...]:
    items = raw.get("expectations") or LList()
    if not isinstance(items, LList):
        problems.add(raw.where("expectations"), "'expectations' must be a list")
        return ()
    out = []
    for index, item in enumerate(items):
        if not isinstance(item, LMap):
            problems.add(items.where(index), "an expectation is a mapping such as {total: cards, equals: 46}")
            continue
        expectation = validate_expectation(item, game_players, component_ids, problems)
        if expectation:
            out.append(expectation)
    return tuple(out)


def validate_expectation(item: LMap, game_players: tuple, component_ids: set, problems: Collector) -> Expectation | None:
    check_keys(item, "expectation", problems)
    kinds = [k for k in EXPECTATION_KINDS if k in item]
    if len(kinds) != 1:
        problems.add(item.loc, f"an expectation needs exactly one of {', '.join(EXPECTATION_KINDS)}; found {len(kinds)}")
        return None
    kind = kinds[0]
    component = read_value(item, kind, "id", problems)
    if component is not None and component not in component_ids:
        problems.add(item.where(kind), f"'{component}' is not a component of this game; expected one of: {', '.join(sorted(component_ids))}")
        return None
    by = read_value(item, "by", "text", problems)
    if kind in ("distribution", "per") and not by:
        problems.add(item.loc, f"a '{kind}' expectation needs 'by:' naming the field to group by")
    equals = read_equals(item, kind, problems)
    each = read_value(item, "each", "count", problems)
    if kind == "per" and each is None:
        problems.add(item.loc, "a 'per' expectation needs 'each:', the number of pieces every owner has")
    setup = None
    if kind == "setup":
        remove = read_value(item, "remove", "expression", problems)
        use = read_value(item, "use", "expression", problems)
        if remove and use:
            problems.add(item.loc, "give either 'remove:' or 'use:', not both")
        setup = Setup(
            remove=remove,
            use=use,
            deal=read_value(item, "deal", "count", problems, default=0),
            set_aside=read_value(item, "set_aside", "count", problems, default=0),
            turns=read_value(item, "turns", "count", problems, default=0),
            stated_needed=read_value(item, "stated_needed", "count", problems),
        )
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
        known=read_value(item, "known", "text", problems),
    )


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


def as_list(mapping: LMap, key: str, problems: Collector) -> LList:
    value = mapping.get(key)
    if value is None:
        return LList()
    if not isinstance(value, LList):
        problems.add(mapping.where(key), f"'{key}' must be a list (items starting with '-')")
        return LList()
    return value
