"""Turn an expression figure's `ranges:` and `examples:` (YAML) into the values its inputs other than players run
over and the values the document states for some of them."""
from __future__ import annotations

from ..errors import Collector
from .load import LList, LMap
from .model import Fields
from .validate_values import describe, freeze, read_value


def read_ranges(item: LMap, inputs: tuple, problems: Collector) -> tuple:
    """`ranges: {survivors: {from: 1, to: players - 1}}` as (input, from, to); bounds are numbers or expressions."""
    value = item.get("ranges")
    if value is None:
        return ()
    if not isinstance(value, LMap):
        problems.add(item.where("ranges"), "'ranges' maps each input to {from: 1, to: players - 1}")
        return ()
    ranges = []
    for name, bounds in value.items():
        if name == "players" or name not in inputs:
            others = ", ".join(i for i in inputs if i != "players") or "none"
            problems.add(value.where_key(name), f"'{name}' in ranges: expected one of the figure's inputs other than "
                                                f"players (which runs over the game's players): {others}")
        elif not (isinstance(bounds, LMap) and set(bounds) == {"from", "to"}):
            problems.add(value.where(name), f"the range of '{name}' is {{from: 1, to: players - 1}}; found {describe(bounds)}")
        else:
            ends = [read_bound(bounds, end, problems) for end in ("from", "to")]
            if None not in ends:
                ranges.append((str(name), *ends))
    return tuple(ranges)


def read_bound(bounds: LMap, end: str, problems: Collector):
    value = bounds[end]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        return read_value(bounds, end, "expression", problems)
    problems.add(bounds.where(end), f"'{end}' must be a whole number or an expression of players; found {describe(value)}")
    return None


def read_examples(item: LMap, inputs: tuple, problems: Collector) -> tuple:
    value = item.get("examples")
    if value is None:
        return ()
    examples = []
    for index, example in enumerate(value if isinstance(value, LList) else [None]):
        if not (isinstance(example, LMap) and "value" in example and set(example) - {"value"} == set(inputs)):
            problems.add(value.where(index) if isinstance(value, LList) else item.where("examples"),
                         f"an example gives every input ({', '.join(inputs)}) and the 'value' the document states")
            continue
        examples.append((Fields({k: freeze(v) for k, v in example.items() if k != "value"}), example["value"]))
    return tuple(examples)
