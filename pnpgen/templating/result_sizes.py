"""Turn a string operation about to run in a template (replace, join, indent, format …) into the size of what it
would make, so that a template is refused before a gigabyte is built rather than after.

Each estimate is an upper bound computed from the arguments alone, in time proportional to them.
"""
from __future__ import annotations

import re

# a width or precision of seven digits and more in a format: '%099999999d', '{:>999999999}', '{:.999999999f}'
HUGE_FORMAT = re.compile(r"[%:][^%:{}]{0,12}?\d{7,}")


def replace_size(text, old="", new="", count=-1, *_args) -> int:
    text, old, new = str(text), str(old), str(new)
    times = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    return len(text) + times * len(new)


def join_size(separator, items=(), *_args) -> int:
    items = list(items) if not isinstance(items, str) else items
    return len(str(separator)) * max(len(items) - 1, 0) + sum(len(str(item)) for item in items)


def join_filter_size(items, separator="", *_args) -> int:
    return join_size(separator, items)


def indent_size(text, width=4, *_args) -> int:
    text = str(text)
    width = len(width) if isinstance(width, str) else width if isinstance(width, int) else 4
    return len(text) + (text.count("\n") + 1) * max(width, 0)


def expandtabs_size(text, tabsize=8, *_args) -> int:
    text = str(text)
    return len(text) + text.count("\t") * max(tabsize if isinstance(tabsize, int) else 8, 0)


def tojson_size(value, indent=None, *_args) -> int:
    width = indent if isinstance(indent, int) else len(indent) if isinstance(indent, str) else 0
    return len(repr(value)) * (1 + max(width, 0))


def format_size(text, *args, **kwargs) -> int:
    """A format string with a huge width or precision; else about as long as the text and its arguments."""
    text = str(text)
    if HUGE_FORMAT.search(text):
        return 1 << 62
    return len(text) + sum(len(str(value)) for value in (*args, *kwargs.values()))


# the size a filter, or a method of str, would make, by name; the first argument is the filtered value or self
FILTERS = {"replace": replace_size, "join": join_filter_size, "indent": indent_size, "tojson": tojson_size,
           "format": format_size}
METHODS = {"replace": replace_size, "join": join_size, "expandtabs": expandtabs_size, "format": format_size,
           "format_map": format_size}


def size_of_call(function, value, args: tuple, kwargs: dict) -> int:
    try:
        return function(value, *args, **kwargs)
    except (TypeError, ValueError):  # arguments the real call will refuse with its own message
        return 0
