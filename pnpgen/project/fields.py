"""Turn a card's field names and values into Fields: an immutable mapping that shares its names with like cards."""
from __future__ import annotations

from collections.abc import ItemsView, ValuesView
from typing import Iterator, Mapping, Union

Scalar = Union[str, int, float, bool, None]
Value = Union[Scalar, tuple, "Fields"]

SHAPES: dict[tuple, dict] = {}  # field names -> where each one's value stands, one dict for all cards naming them so
SHAPES_KEPT = 4096  # a project with more ways of naming fields shares the first ones; the rest keep their own


class Fields(Mapping[str, Value]):
    """An immutable, hashable mapping of a card's data, as templates and the checker see it.

    A card holds a tuple of its values; the names and where each value stands are one dict shared by every card
    that names the same fields, so that a deck of thousands holds no names, pairs or dicts of its own."""

    __slots__ = ("_at", "_values")

    def __init__(self, items: Mapping[str, Value] | tuple = ()):
        if type(items) is Fields:
            self._at, self._values = items._at, items._values
            return
        # a dict first: isinstance() against the Mapping ABC is slow, and a project makes thousands of these
        index = items if type(items) is dict else dict(items.items() if isinstance(items, Mapping) else items)
        names = tuple(index)
        at = SHAPES.get(names)
        if at is None:
            at = {name: position for position, name in enumerate(names)}
            if len(SHAPES) < SHAPES_KEPT:
                SHAPES[names] = at
        self._at: dict[str, int] = at
        self._values: tuple = tuple(index.values())

    def __getitem__(self, key: str) -> Value:
        return self._values[self._at[key]]

    def __contains__(self, key) -> bool:
        return key in self._at

    def __iter__(self) -> Iterator[str]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._values)

    def items(self) -> ItemsView:
        return Pairs(self)

    def values(self) -> ValuesView:
        return Values(self)

    def __hash__(self) -> int:
        return hash((tuple(self._at), self._values))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Fields):  # the common case, without copying either side when they name the same fields
            if self._at is other._at:
                return self._values == other._values
            return dict(zip(self._at, self._values)) == dict(zip(other._at, other._values))
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    def __getattr__(self, name: str) -> Value:
        # Templates write card.number; a missing field is an undefined-variable error upstream.
        if name in SLOTS:  # asked before they are set (a copy being made): not a field
            raise AttributeError(name)
        try:
            return self._values[self._at[name]]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return f"Fields({dict(zip(self._at, self._values))!r})"

    def merged(self, other: Mapping[str, Value]) -> "Fields":
        if not other and type(self) is Fields:
            return self
        if not self._values and type(other) is Fields:
            return other
        combined = dict(zip(self._at, self._values))
        combined.update(other)
        return Fields(combined)


SLOTS = Fields.__slots__


class Pairs(ItemsView):
    """A Fields' (name, value) pairs, read straight from its names and values."""

    def __iter__(self):
        return zip(self._mapping._at, self._mapping._values)


class Values(ValuesView):
    def __iter__(self):
        return iter(self._mapping._values)
