"""Turn YAML files into plain values that remember the file:line:col each came from."""
from __future__ import annotations

import math
import re
from pathlib import Path

import yaml

from ..errors import Collector, Location, PnpError
from .files import MAX_FILE_BYTES, refuse_large, special_kind

SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_MESSAGE = "the text holds a lone surrogate escape (such as \\ud800), which is no character; expected real characters"
STR = "tag:yaml.org,2002:str"
BINARY_SIGNATURES = (b"\x89PNG", b"\xff\xd8\xff", b"%PDF", b"GIF8", b"PK\x03\x04")
MAX_DEPTH = 100  # far deeper than any project; recursion (ours and PyYAML's) stays bounded
MAX_NODES = 200_000
MAX_DIGITS = 30  # an id or a count never needs more; Python refuses to read 4,300 and more
SCALARS = {"str": "text", "int": "whole number", "float": "number", "bool": "true or false", "null": "null",
           "timestamp": "date"}
EXAMPLES = {"str": "text", "int": "a whole number such as 12", "float": "a number such as 1.5",
            "bool": "true or false", "null": "null", "timestamp": "a date that exists, such as 2024-02-29"}
COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: same nodes, faster  # bounds alias expansion (a "billion laughs" file stops here)


class LMap(dict):
    """A YAML mapping: a dict that also knows where it, each key and each value stand."""

    loc: Location
    key_locs: dict
    value_locs: dict

    def where(self, key: str) -> Location:
        return self.value_locs.get(key, self.loc)

    def where_key(self, key: str) -> Location:
        return self.key_locs.get(key, self.loc)


class LList(list):
    """A YAML sequence that knows where it and each item stand."""

    loc: Location
    item_locs: list

    def where(self, index: int) -> Location:
        return self.item_locs[index] if index < len(self.item_locs) else self.loc


def locate(node: yaml.Node, file: str) -> Location:
    mark = node.start_mark
    return Location(file, mark.line + 1, mark.column + 1)


def read_text(path: Path, shown: str) -> str:
    """Read a UTF-8 file (a BOM is fine); say clearly what is wrong when it is not one."""
    if path.is_dir():
        raise PnpError("is a folder; expected a YAML file", Location(shown))
    refuse_large(path, MAX_FILE_BYTES, Location(shown), "YAML file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PnpError("file not found; expected a YAML file at this path", Location(shown)) from None
    except OSError as err:
        raise PnpError(f"cannot read the file ({err.strerror})", Location(shown)) from None
    if data.startswith(BINARY_SIGNATURES) or data.count(b"\x00") > len(data) // 100 + 1:
        raise PnpError("is a binary file, not text; expected a YAML file", Location(shown))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise PnpError(
            f"byte 0x{data[err.start]:02x} is not UTF-8; save the file as UTF-8",
            Location(shown, line, col),
        ) from None


def parse_yaml(text: str, shown: str):
    """Parse one YAML document safely into LMap/LList/scalars; None for an empty file."""
    try:
        node = compose(text)
    except yaml.reader.ReaderError as err:
        before = text[: err.position]
        where = Location(shown, before.count("\n") + 1, err.position - (before.rfind("\n") + 1) + 1)
        raise PnpError(f"the character U+{err.character:04X} is not allowed in YAML; expected text", where) from None
    except RecursionError:
        raise PnpError(f"values nested more than {MAX_DEPTH} levels deep; expected a project file", Location(shown, 1, 1)) from None
    except yaml.MarkedYAMLError as err:
        raise PnpError(describe_yaml_error(err), yaml_error_location(err, shown)) from None
    except yaml.YAMLError as err:
        raise PnpError(f"YAML error: {err}", Location(shown)) from None
    if node is None:
        return None
    builder = _Builder(shown)
    value = builder.build(node)
    builder.problems.raise_if_any()
    return value


def compose(text: str):
    """Compose with libyaml; on an error compose again in Python, whose messages say more."""
    try:
        return yaml.compose(text, Loader=COMPOSER)
    except yaml.YAMLError:
        if COMPOSER is yaml.SafeLoader:
            raise
    return yaml.compose(text, Loader=yaml.SafeLoader)


def yaml_error_location(err: yaml.MarkedYAMLError, shown: str) -> Location:
    mark = err.problem_mark or err.context_mark
    if mark is None:
        return Location(shown)
    return Location(shown, mark.line + 1, mark.column + 1)


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


class _Builder:
    """Constructs values from composed nodes, keeping locations and refusing what YAML hides."""

    def __init__(self, shown: str):
        self.shown = shown
        self.count = 0
        self.problems = Collector()
        self.constructor = yaml.SafeLoader("")  # resolves scalars exactly as safe_load would

    def build(self, node: yaml.Node, depth: int = 0):
        if depth > MAX_DEPTH:
            raise PnpError(f"values nested more than {MAX_DEPTH} levels deep; expected a project file",
                           locate(node, self.shown))
        self.count += 1
        if self.count > MAX_NODES:
            raise PnpError(
                f"more than {MAX_NODES} values once aliases are expanded; expected a project file, "
                "not an alias bomb",
                locate(node, self.shown),
            )
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in (
            "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap",
        ):
            self.problems.add(locate(node, self.shown), f"the tag {show_tag(node.tag)} is not allowed; expected plain YAML values")
            return None
        if isinstance(node, yaml.MappingNode):
            return self.build_mapping(node, depth)
        if isinstance(node, yaml.SequenceNode):
            out = LList()
            out.loc = locate(node, self.shown)
            out.item_locs = []
            for item in node.value:
                out.append(self.build(item, depth + 1))
                out.item_locs.append(locate(item, self.shown))
            return out
        return self.build_scalar(node)

    def build_scalar(self, node: yaml.ScalarNode):
        if node.tag == STR:  # most values: text as written, which the constructor would only copy
            if SURROGATE.search(node.value):
                self.problems.add(locate(node, self.shown), SURROGATE_MESSAGE)
                return None
            return node.value
        if node.tag.startswith("tag:yaml.org,2002:") and node.tag.rsplit(":", 1)[-1] in (
            "str", "int", "float", "bool", "null", "timestamp",
        ):
            kind = node.tag.rsplit(":", 1)[-1]
            if kind == "int" and len(node.value.lstrip("+-").replace("_", "")) > MAX_DIGITS:
                self.problems.add(locate(node, self.shown), f"a number of {len(node.value):,} digits; "
                                                            f"expected at most {MAX_DIGITS} digits")
                return None
            try:
                value = self.constructor.construct_object(node, deep=True)
            except (ValueError, TypeError, AttributeError, OverflowError, KeyError):  # 2024-02-30, !!int abc, !!bool x
                self.problems.add(locate(node, self.shown), f"'{shorten(node.value)}' is not a valid {SCALARS[kind]}; "
                                                            f"expected {EXAMPLES[kind]}")
                return None
            if isinstance(value, float) and not math.isfinite(value):
                self.problems.add(locate(node, self.shown), f"'{node.value}' is not a finite number; expected an ordinary number")
                return None
            if isinstance(value, str) and SURROGATE.search(value):
                self.problems.add(locate(node, self.shown), SURROGATE_MESSAGE)
                return None
            return value.isoformat() if hasattr(value, "isoformat") else value
        self.problems.add(locate(node, self.shown), f"the tag {show_tag(node.tag)} is not allowed; expected plain YAML values")
        return None

    def build_mapping(self, node: yaml.MappingNode, depth: int) -> LMap:
        out = LMap()
        out.loc = locate(node, self.shown)
        out.key_locs, out.value_locs = {}, {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.merge_into(out, value_node, depth)
                continue
            key = self.build(key_node, depth + 1)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                self.problems.add(locate(key_node, self.shown), "a key must be a plain word or number")
                continue
            if key in out.key_locs:
                first = out.key_locs[key]
                self.problems.add(
                    locate(key_node, self.shown),
                    f"duplicate key '{key}' (first at line {first.line}); expected each key once",
                )
                continue
            out[key] = self.build(value_node, depth + 1)
            out.key_locs[key] = locate(key_node, self.shown)
            out.value_locs[key] = locate(value_node, self.shown)
        return out

    def merge_into(self, out: LMap, value_node: yaml.Node, depth: int) -> None:
        sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        for source in sources:
            merged = self.build(source, depth + 1)
            if not isinstance(merged, LMap):
                self.problems.add(locate(source, self.shown), "'<<' merges a mapping; expected an alias of a mapping")
                continue
            for key, value in merged.items():
                if key not in out:
                    out[key] = value
                    out.key_locs[key] = merged.key_locs[key]
                    out.value_locs[key] = merged.value_locs[key]


def load_file(path: Path, root: Path) -> tuple[object, str]:
    """Load one YAML file of the project; return the value and the path shown in messages."""
    shown = display_path(path, root)
    return parse_yaml(read_text(path, shown), shown), shown


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


def shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def show_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")
