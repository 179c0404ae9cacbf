"""Turn single YAML values (lengths, counts, expressions, fields, player counts) into typed model values."""
from __future__ import annotations

import jinja2

from .. import units
from ..errors import Collector
from .load import LList, LMap
from .model import Fields
from ..templating.sandbox import compile_expression


def read_value(mapping: LMap, key, kind: str, problems: Collector, default=None):
    """Read mapping[key] as `kind`; report a located problem and return default when it is not one. The place is
    found only for a problem: a card's `copies: 2` makes no Location (nor a wide card's dict of them)."""
    if key not in mapping or mapping[key] is None:
        return default
    value = mapping[key]
    if kind == "text":
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        problem = f"'{key}' must be text; found {describe(value)}"
    elif kind == "id":
        if isinstance(value, str) and value and all(c.islower() or c.isdigit() or c == "-" for c in value) and value.isascii():
            return value
        problem = f"'{key}' must be an id of lower-case letters, digits and '-'; found {describe(value)}"
    elif kind == "bool":
        if isinstance(value, bool):
            return value
        problem = f"'{key}' must be true or false; found {describe(value)}"
    elif kind == "count":
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        problem = f"'{key}' must be a whole number of 0 or more; found {describe(value)}"
    elif kind == "length":
        try:
            length = units.parse_length(value)
        except ValueError as err:
            problem = f"'{key}': {err}"
        else:
            if length < 0:
                problems.add(mapping.where(key), f"'{key}' must not be negative")
            return max(length, 0.0)
    elif kind.startswith("choice:"):
        choices = kind.split(":", 1)[1].split(",")
        if value in choices:
            return value
        problem = f"'{key}' must be one of {', '.join(choices)}; found {describe(value)}"
    elif kind == "expression":
        if isinstance(value, str):
            try:
                compile_expression(value)
                return value
            except jinja2.TemplateSyntaxError as err:
                problem = f"'{key}' is not a valid expression ({err.message}); expected e.g. card.number == 1"
        else:
            problem = f"'{key}' must be an expression in quotes, such as \"card.number == 1\""
    else:
        raise AssertionError(f"unknown kind {kind}")
    problems.add(mapping.where(key), problem)
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


NESTED = (LMap, LList)  # the values freeze() changes (a card's are mostly scalars, which it would only return)


def freeze(value):
    if isinstance(value, LMap):
        return Fields({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, LList):
        return tuple(freeze(v) for v in value)
    return value


def read_fields(container, key, problems: Collector, skip: tuple = ()) -> Fields:
    """Read a mapping of free-form fields (container itself when key is None)."""
    if isinstance(container, LMap) and key is not None and key not in container:
        return Fields()
    value = container if key is None else container[key]
    if not isinstance(value, LMap):
        where = container.loc if key is None else container.where(key)
        problems.add(where, f"expected a mapping of fields such as {{number: 1}}; found {describe(value)}")
        return Fields()
    return Fields({k if type(k) is str else str(k): v if type(v) not in NESTED else freeze(v)
                   for k, v in value.items() if k not in skip})


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


def as_list(mapping: LMap, key: str, problems: Collector) -> LList:
    value = mapping.get(key)
    if value is None:
        return LList()
    if not isinstance(value, LList):
        problems.add(mapping.where(key), f"'{key}' must be a list (items starting with '-')")
        return LList()
    return value
