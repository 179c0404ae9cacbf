"""Turn a component's validated cards into a Shelf: held as they are for a small deck, spilled to a file for a big one."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Iterable, Iterator

from ..errors import Location
from .fields import Fields
from .located import Entries
from .model import Card
from .spill import HELD, Spill


class Shelf(Sequence):
    """A component's cards in order, an immutable sequence that compares and hashes as the tuple of them.

    Up to HELD cards it holds the Card objects. Past that every card is a record of a Spill, made again each time it
    is read, so a 10,000-card deck holds 8 bytes a card instead of ~500: the names of its fields, where they were
    written (the file's packed positions) and any place made by hand (a matrix's, a sheet row's) are kept once, in
    tables the records name by number. Reading a card twice gives two equal cards, not one object: ask by index."""

    __slots__ = ("held", "spill", "tables", "pieces")

    def __init__(self, cards: Iterable[Card] = ()):
        self.held: list[Card] | tuple[Card, ...] = []
        self.spill: Spill | None = None
        self.tables: tuple[list, dict] = ([], {})  # objects records name by number; id(object) -> its number
        self.pieces = 0  # the cards' copies, summed
        for card in cards:
            self.add(card)
        self.close()

    def add(self, card: Card) -> None:
        """One more card, at the end (while the shelf is being filled: see close())."""
        self.pieces += card.copies
        if self.spill is None:
            self.held.append(card)
            if len(self.held) > HELD:
                self.spill = Spill()
                for held in self.held:
                    self.put(held)
                self.held = []
        else:
            self.put(card)

    def put(self, card: Card) -> None:
        record = self.encode(card)
        try:
            self.spill.append(record)
        except ValueError:  # a mapping of fields among its values: spelled out in builtins
            self.spill.append((record[0], [encode_value(value, self.number) for value in record[1]], *record[2:]))

    def close(self) -> None:
        """Filled: written out (before a process forks: it then reads what this one wrote) and held as a tuple."""
        self.held = tuple(self.held)
        if self.spill is not None:
            self.spill.flush()

    def number(self, thing) -> int:
        objects, numbers = self.tables
        found = numbers.get(id(thing))
        if found is None:
            found = numbers[id(thing)] = len(objects)
            objects.append(thing)  # kept, so that its id stays its own
        return found

    def encode(self, card: Card) -> tuple:
        """(its names, its values, copies, tbd, where it was written, its fields' places): a place read from the
        file's packed positions is the shared Entries and an offset; one made by hand is kept in the tables."""
        fields, where = card.fields, card._where
        if type(where) is Entries:
            place, cells = self.number(where), card._cells
        else:
            place, cells = -1 - self.number(where), self.number(card._cells)
        return self.number(fields._at), fields._values, card.copies, card.tbd, place, cells

    def decode(self, record: tuple) -> Card:
        objects = self.tables[0]
        shape, values, copies, tbd, place, cells = record
        if type(values) is list:
            values = tuple(decode_value(value, objects) for value in values)
        fields = Fields.made(objects[shape], values)
        if place >= 0:
            return Card.written(fields, copies, tbd, objects[place], cells)
        return Card(fields, copies, objects[-1 - place], tbd, objects[cells])

    def __len__(self) -> int:
        return len(self.held) if self.spill is None else len(self.spill)

    def __getitem__(self, index):
        if self.spill is None:
            return self.held[index]
        if isinstance(index, slice):
            return tuple(self[number] for number in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("card index out of range")
        return self.decode(self.spill[index])

    def __iter__(self) -> Iterator[Card]:
        if self.spill is None:
            return iter(self.held)
        return map(self.decode, self.spill)

    def pick(self, indexes: Iterable[int]) -> Iterator[Card]:
        """The cards at these indexes (ascending), read a window at a time."""
        if self.spill is None:
            return (self.held[index] for index in indexes)
        return map(self.decode, self.spill.pick(indexes))

    def hand_placed(self) -> Iterator[Location]:
        """Where the cards with places made by hand (a sheet's rows, a matrix) were written, each place once."""
        if self.spill is None:
            places = (card._where for card in self.held)
            return iter(dict.fromkeys(place for place in places if type(place) is Location))
        return (thing for thing in self.tables[0] if type(thing) is Location)

    def __eq__(self, other) -> bool:
        if not isinstance(other, (Shelf, tuple)):  # as a tuple: never equal to a list
            return NotImplemented
        return len(self) == len(other) and all(mine == theirs for mine, theirs in zip(self, other))

    def __add__(self, other) -> tuple:  # as a tuple's: a new tuple
        return tuple(self) + tuple(other)

    def __radd__(self, other) -> tuple:
        return tuple(other) + tuple(self)

    def __mul__(self, times: int) -> tuple:
        return tuple(self) * times

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def encode_value(value, number) -> object:
    """A field's value as builtins marshal writes: a mapping of fields becomes a list [its names' number, values]."""
    if type(value) is Fields:
        return [number(value._at), [encode_value(item, number) for item in value._values]]
    if type(value) is tuple:
        return tuple(encode_value(item, number) for item in value)
    return value


def decode_value(value, objects: list) -> object:
    if type(value) is list:
        return Fields.made(objects[value[0]], tuple(decode_value(item, objects) for item in value[1]))
    if type(value) is tuple:
        return tuple(decode_value(item, objects) for item in value)
    return value


def pick(cards: Sequence[Card], indexes: Sequence[int]) -> Iterator[Card]:
    """The cards at these ascending indexes of a Shelf or any sequence of cards."""
    return cards.pick(indexes) if isinstance(cards, Shelf) else (cards[index] for index in indexes)


def hand_placed(cards: Sequence[Card]) -> Iterator[Location]:
    """The places of the cards that hold one made by hand (see Shelf.hand_placed), of a Shelf or any sequence."""
    return cards.hand_placed() if isinstance(cards, Shelf) else (card.location for card in cards)
