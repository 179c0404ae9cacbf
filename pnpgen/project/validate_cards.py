"""Turn a component's cards: list and matrix: axes into Card values, each remembering where it was written."""
from __future__ import annotations

import functools
import itertools
import math
from typing import Iterator

from ..errors import Collector, Location
from .expand import expand_matrix
from .load import LList, LMap
from .model import Card, Fields
from .validate_values import as_list, read_fields, read_value

MAX_COPIES = 10_000
MAX_PIECES = 100_000  # pieces one component may make: a 10,000-card deck is far below


def read_cards(raw: LMap, defaults: Fields, default_copies: int, problems: Collector) -> Iterator[Card]:
    """The component's cards one at a time, as they are read."""
    if "cards" not in raw and "matrix" not in raw:
        return
    base_rows = [(Fields(), raw.loc)]
    if "matrix" in raw:
        where = raw.where("matrix")  # one Location for all the matrix's cards
        base_rows = [(fields, where) for fields in read_matrix(raw, problems)]
    entries = as_list(raw, "cards", problems) if "cards" in raw else None
    for fields, where in base_rows:
        row = defaults.merged(fields)
        if entries is None:
            yield Card(row, default_copies, where, ())
            continue
        for index, entry in enumerate(entries):
            card = read_card(entries, index, entry, row, default_copies, problems)
            if card:
                yield card


@functools.lru_cache(maxsize=256)
def share(names: tuple[str, ...]) -> tuple[str, ...]:
    """The first equal tuple of field names: a deck's placeholder cards name the same few, one tuple for them all."""
    return names


def read_card(entries: LList, index: int, entry, defaults: Fields, default_copies: int,
              problems: Collector) -> Card | None:
    if not isinstance(entry, LMap):
        problems.add(entries.where(index), "expected a card: a mapping of fields such as {number: 1, copies: 10}")
        return None
    copies = read_value(entry, "copies", "count", problems, default=default_copies)
    if copies > MAX_COPIES:
        problems.add(entry.where("copies"), f"copies: {copies} is absurd; expected at most {MAX_COPIES}")
    fields = defaults.merged(read_fields(entry, None, problems, skip=("copies", "tbd")))
    tbd, tbd_fields = entry.get("tbd", False), ()
    if tbd is True:
        tbd_fields = tuple(k for k, v in fields.items() if isinstance(v, str))
    elif isinstance(tbd, LList) and all(isinstance(t, str) for t in tbd):
        tbd_fields = tuple(tbd)
        for name in tbd_fields:
            if name not in fields:
                problems.add(entry.where("tbd"), f"tbd names '{name}', which is not a field of this card")
    elif tbd is not False and tbd is not None:
        problems.add(entry.where("tbd"), "tbd must be true or a list of field names")
    tbd_fields = share(tbd_fields)
    packed = entry.packed()
    if packed is not None:  # its places stay in the file's packed positions until asked for
        return Card.written(fields, copies, tbd_fields, *packed)
    return Card(fields, copies, entry.loc, tbd_fields, entry.fields_at(skip="tbd"))


def read_matrix(raw: LMap, problems: Collector) -> list[Fields]:
    matrix = raw["matrix"]
    if isinstance(matrix, LMap) and not matrix:
        problems.add(raw.where("matrix"), "matrix: {} has no axes, so it makes no cards; expected a mapping of axes, "
                                          "such as {suit: [a, b], number: {from: 1, to: 11}} (to drop a matrix this "
                                          "component extends, write matrix: null)")
        return []
    if not isinstance(matrix, LMap):
        problems.add(raw.where("matrix"), "expected a mapping of axes, such as {suit: [a, b], number: {from: 1, to: 11}}")
        return []
    axes = []
    for name, values in matrix.items():
        where = matrix.where(name)
        if isinstance(values, LMap) and set(values) == {"from", "to"}:
            start, stop = values["from"], values["to"]
            if not (isinstance(start, int) and isinstance(stop, int)) or stop < start or stop - start > 1000:
                problems.add(where, "a range needs whole numbers with from <= to, such as {from: 1, to: 11}")
                continue
            axes.append((name, [Fields({name: n}) for n in range(start, stop + 1)]))
        elif isinstance(values, LList) and values:
            row = []
            for index, value in enumerate(values):
                if isinstance(value, LMap):
                    row.append(read_fields(values, index, problems))
                elif isinstance(value, LList):
                    problems.add(values.where(index), "an axis value must be a scalar or a mapping of fields")
                else:
                    row.append(Fields({name: value}))
            axes.append((name, row))
        else:
            problems.add(where, f"axis '{name}' must be a non-empty list or a range {{from: 1, to: 11}}")
    product = math.prod(len(values) for _, values in axes)
    if product > MAX_PIECES:  # refused before the product is made: three axes of 1,000 are a billion cards
        problems.add(raw.where("matrix"), f"the matrix makes {product:,} cards; expected at most {MAX_PIECES:,}")
        return []
    return expand_matrix(axes)


def locate_fields(raw: LMap) -> tuple[tuple[str, Location], ...]:
    """Where each field name of a component is first written: its defaults, matrix axes and cards."""
    spots: dict[str, Location] = {}
    places = [raw.get("defaults")]
    matrix = raw.get("matrix")
    if isinstance(matrix, LMap):
        for name, values in matrix.items():
            # a range axis only multiplies the cards (copy: {from: 1, to: 8}); an axis of mappings is named by its items
            if isinstance(values, LList) and not any(isinstance(v, LMap) for v in values):
                spots.setdefault(str(name), matrix.where_key(name))
            elif isinstance(values, LList):
                places += values
    cards = raw.get("cards")
    if isinstance(cards, LList):
        places = itertools.chain(places, cards)
    for place in places:
        if isinstance(place, LMap):
            for name in place:
                if str(name) not in spots:  # a deck's cards mostly repeat the names before them: no Location made
                    spots[str(name)] = place.where_key(name)
    for name in ("copies", "tbd"):
        spots.pop(name, None)
    return tuple(spots.items())


def locate_nested(value, prefix: str) -> list[tuple[str, Location]]:
    """Where each value inside a mapping stands, by its dotted path (defaults.area_style.霊峰.iwakura): what a
    figure's `in:` names, so that a value at odds with the figure is reported on its own line."""
    places = []
    if isinstance(value, LMap):
        items = [(str(key), value.where(key), item) for key, item in value.items()]
    elif isinstance(value, LList):
        items = [(str(index), value.where(index), item) for index, item in enumerate(value)]
    else:
        return places
    for name, where, item in items:
        places.append((prefix + name, where))
        places += locate_nested(item, prefix + name + ".")
    return places
