"""Turn a YAML scalar's text and tag into a plain value, as safe_load would, or a located problem."""
from __future__ import annotations

import math
import re

import yaml

from ..errors import Collector, Location

BASE = "tag:yaml.org,2002:"
STR = BASE + "str"
SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_MESSAGE = "the text holds a lone surrogate escape (such as \\ud800), which is no character; expected real characters"
MAX_DIGITS = 30  # an id or a count never needs more; Python refuses to read 4,300 and more
SCALARS = {"str": "text", "int": "whole number", "float": "number", "bool": "true or false", "null": "null",
           "timestamp": "date"}
EXAMPLES = {"str": "text", "int": "a whole number such as 12", "float": "a number such as 1.5",
            "bool": "true or false", "null": "null", "timestamp": "a date that exists, such as 2024-02-29"}


def read_scalar(event, parser, problems: Collector, shown: str, tag: str | None = None):
    """The value of a scalar event (the parser resolves its tag, unless given, and constructs it); None and a
    problem when the tag is not a plain one or the text is not what the tag says."""
    tag = tag or event.tag
    if tag is None or tag == "!":
        tag = parser.resolve(yaml.ScalarNode, event.value, event.implicit)
    text = event.value
    if tag == STR:  # most values: text as written, which the constructor would only copy
        if SURROGATE.search(text):
            problems.add(place(event, shown), SURROGATE_MESSAGE)
            return None
        return text
    kind = tag.rsplit(":", 1)[-1]
    construct = parser.yaml_constructors.get(tag)
    if not tag.startswith(BASE) or kind not in SCALARS or construct is None:  # construct: !!x:int
        problems.add(place(event, shown), f"the tag {show_tag(tag)} is not allowed; expected plain YAML values")
        return None
    if kind == "int" and len(text.lstrip("+-").replace("_", "")) > MAX_DIGITS:
        problems.add(place(event, shown), f"a number of {len(text):,} digits; expected at most {MAX_DIGITS} digits")
        return None
    node = yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style)
    try:
        value = construct(parser, node)
    except (ValueError, TypeError, AttributeError, OverflowError, KeyError):  # 2024-02-30, !!int abc, !!bool x
        problems.add(place(event, shown), f"'{shorten(text)}' is not a valid {SCALARS[kind]}; expected {EXAMPLES[kind]}")
        return None
    if isinstance(value, float) and not math.isfinite(value):
        problems.add(place(event, shown), f"'{text}' is not a finite number; expected an ordinary number")
        return None
    if isinstance(value, str) and SURROGATE.search(value):
        problems.add(place(event, shown), SURROGATE_MESSAGE)
        return None
    return value.isoformat() if hasattr(value, "isoformat") else value


def place(event, shown: str) -> Location:
    return Location(shown, event.start_mark.line + 1, event.start_mark.column + 1)


def shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def show_tag(tag: str) -> str:
    return tag.replace(BASE, "!!")
