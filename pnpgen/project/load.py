"""Turn YAML files into plain values that remember the file:line:col each came from."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import yaml

from ..errors import Collector, Location, PnpError
from .events import FAST, MAX_DEPTH, build_with
from .scalars import shorten
from ..files.reading import special_kind
from .located import LList, LMap
from .source import Opened, open_utf8, whole_text

__all__ = ["LList", "LMap", "display_path", "find_file", "load_file", "parse_yaml", "resolve_inside", "shorten"]


def parse_yaml(text: str | bytes | Opened, shown: str, loader=FAST):
    """Parse one YAML document (text, UTF-8 without a BOM, or a file opened by open_utf8) safely into
    LMap/LList/scalars; None for an empty file. The loader names the parser (libyaml's when PyYAML has it); the
    pure-Python one reads the file again on an error."""
    try:
        try:
            return build_with(text, shown, loader)
        except yaml.YAMLError:
            if loader is yaml.SafeLoader:
                raise
        return build_with(whole_text(text), shown, yaml.SafeLoader)
    except yaml.reader.ReaderError as err:
        before = whole_text(text)[: err.position]
        where = Location(shown, before.count("\n") + 1, err.position - (before.rfind("\n") + 1) + 1)
        raise PnpError(f"the character U+{err.character:04X} is not allowed in YAML; expected text", where) from None
    except RecursionError:
        raise PnpError(f"values nested more than {MAX_DEPTH} levels deep; expected a project file", Location(shown, 1, 1)) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = Location(shown) if mark is None else Location(shown, mark.line + 1, mark.column + 1)
        raise PnpError(describe_yaml_error(err), where) from None
    except yaml.YAMLError as err:
        raise PnpError(f"YAML error: {err}", Location(shown)) from None


def describe_yaml_error(err: yaml.MarkedYAMLError) -> str:
    problem = err.problem or "invalid YAML"
    if "\\t" in problem or "\t" in problem:
        return "YAML syntax error: a tab character; indent with spaces"
    hints = {
        "found unexpected end of stream": "an unclosed quote or bracket; close it",
        "mapping values are not allowed here": "a ':' where a value was expected; quote text that contains ': ' or fix the indentation",
        "did not find expected key": "bad indentation or a missing ':'; align keys of one mapping in one column",
        "did not find expected '-' indicator": "bad indentation in a list; align the '-' of one list in one column",
        "found undefined alias": "an alias (*name) with no anchor (&name) before it",
        "expected <block end>": "bad indentation; this line is indented differently from the keys before it",
        "found character that cannot start any token": "a character YAML cannot start a value with; quote the value",
    }
    for known, hint in hints.items():
        if problem.startswith(known):
            return f"YAML syntax error: {hint}" if known.startswith("expected <") else f"YAML syntax error: {problem} ({hint})"
    context = f" {err.context}" if err.context else ""
    return f"YAML syntax error: {problem}{context}"


def load_file(path: Path, root: Path) -> tuple[object, str]:
    """Load one YAML file of the project; return the value and the path shown in messages."""
    shown = display_path(path, root)
    with open_utf8(path, shown) as opened:
        return parse_yaml(opened, shown), shown


def display_path(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def resolve_inside(root: Path, base: Path, reference: str, location: Location, what: str) -> Path:
    """Resolve a path a project file names; refuse one that leaves the project folder."""
    if not isinstance(reference, str) or not reference.strip():
        raise PnpError(f"expected a relative path to a {what}", location)
    if Path(reference).is_absolute() or reference.startswith(("/", "\\")):
        raise PnpError(f"'{reference}' is an absolute path; expected a {what} path relative to the project", location)
    target = (base / reference).resolve()
    try:
        target.relative_to(root.resolve())
    except ValueError:
        raise PnpError(f"'{reference}' points outside the project folder; expected a {what} inside it", location) from None
    try:
        target.stat()
    except FileNotFoundError:
        pass  # the caller says what it expected there
    except OSError as err:  # a name too long, a loop of links
        raise PnpError(f"'{shorten(reference)}' cannot be used as a path ({err.strerror}); expected a {what} path "
                       "relative to the project", location) from None
    kind = special_kind(target)
    if kind:
        raise PnpError(f"'{reference}' is {kind}, not a file; expected a {what}", location)
    return target


def find_file(root: Path, base: Path, reference, where: Location, what: str, problems: Collector,
              missing: Callable[[str], str]) -> Path | None:
    """The file a project file names (resolve_inside); None, reported, when it is not one: missing(found) says so,
    found being "is a folder" or "not found"."""
    try:
        target = resolve_inside(root, base, reference, where, what)
    except PnpError as err:
        problems.extend(err)
        return None
    if not target.is_file():
        problems.add(where, missing("is a folder" if target.is_dir() else "not found"))
        return None
    return target
