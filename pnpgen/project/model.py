"""Define the validated model: frozen dataclasses every stage after `validate` reads."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import ItemsView, ValuesView
from typing import Iterable, Iterator, Mapping, Union

from ..errors import Location

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


@dataclass(frozen=True)
class Size:
    """A trim size in points."""

    width: float
    height: float


@dataclass(frozen=True)
class Layout:
    """How a component's faces are laid out on sheets (Squib's 'sheet spec' as data)."""

    gap: float = 0.0  # points between neighbouring trims
    crop_marks: bool = True
    cut_lines: bool = False  # draw the trim outline itself (chips)
    paper: str | None = None  # overrides the build's paper (a map on "a3")


@dataclass(frozen=True)
class Outline:
    """A cut outline other than a rectangle or an ellipse; the trim size is its bounding box."""

    kind: str  # hex | rounded | path
    orientation: str = "flat"  # hex: flat (an edge on top) | pointy (a corner on top)
    radius: float = 0.0  # rounded: corner radius in points
    segments: tuple = ()  # path: ("M"|"L"|"C"|"Z", numbers…) in points, y down, from the box's top-left
    d: str = ""  # path: the same outline as SVG path data in mm, for templates


@dataclass(frozen=True)
class Box:
    """A tuck box for one deck of the same game (a component of kind box)."""

    deck: str  # the component id of the deck it holds
    clearance: float  # points added to the card's width, height and the deck's depth
    thickness: float | None  # points per card; None: the project's card_thickness
    sleeves: bool
    panels: tuple[tuple[str, str], ...] = ()  # (panel, template) chosen by the designer


@dataclass(frozen=True)
class Standee:
    """A stand-up figure: front and mirrored back joined by a fold, on a fold-out base."""

    base: str  # fold | none
    base_depth: float  # points


@dataclass(frozen=True, slots=True)  # a deck keeps thousands: no __dict__ each
class Card:
    """One distinct card (or chip, sheet) of a component, before copies are made."""

    fields: Fields
    copies: int
    location: Location
    tbd: tuple[str, ...] = ()  # names of fields still holding placeholder text
    # where each field the card itself gives was written (a sheet's cell, a YAML value), for messages and diffs:
    # (name, Location) pairs, made when iterated for a YAML card (project/located.py Spots)
    cells: Iterable[tuple[str, Location]] = field(default=(), compare=False, repr=False)

    def where(self, name: str) -> Location:
        """Where the field was written: its cell in a sheet, its value in YAML; the card's place if inherited."""
        return dict(self.cells).get(name, self.location)


@dataclass(frozen=True)
class Component:
    """A set of same-sized, same-templated pieces: a deck, a chip sheet, a map."""

    id: str
    name: str
    kind: str  # card | chip | map | sheet | box | standee
    size: Size
    shape: str  # rect | round | hex | rounded | path
    bleed: float  # points
    front: str  # template path relative to the templates folder
    back: str | None
    double_sided: bool  # the back differs per piece and must line up (chips with a hidden side)
    layout: Layout
    cards: tuple[Card, ...]
    location: Location
    game_id: str = ""
    outline: Outline | None = None  # shape hex, rounded or path
    box: Box | None = None  # kind box
    standee: Standee | None = None  # kind standee
    field_locations: tuple[tuple[str, Location], ...] = ()  # where each field name is first written (unread-field check)


@dataclass(frozen=True)
class Source:
    """Where a figure comes from: a design document and the phrase quoted from it."""

    document: str
    quote: str


@dataclass(frozen=True)
class Expectation:
    """One figure the data must match, citing the document that states it."""

    kind: str  # total | distribution | per_owner | setup
    component: str
    source: Source | None
    location: Location
    by: str | None = None
    where: str | None = None  # a sandboxed Jinja expression over a card's fields
    equals: Value = None  # an int, or a Fields of value -> count
    each: int | None = None
    owners: int | None = None
    players: tuple[int, ...] = ()
    setup: "Setup | None" = None
    known: tuple[tuple[str, str], ...] = ()  # (figure, why): a documented contradiction, reported as a warning
    cited: tuple[tuple[str, str], ...] = ()  # (figure, quote): a figure citing its own phrase of the document
    assumed: tuple[tuple[str, str], ...] = ()  # (figure, why): a figure the document does not state
    of: tuple[str, ...] = ()  # fields whose every combination occurs exactly once (combinations)
    components: tuple[str, ...] = ()  # components whose `by` field must hold the same names (names)
    names: tuple[str, ...] = ()  # the names the document lists (names)


@dataclass(frozen=True)
class Setup:
    """Card arithmetic for one player count: what is removed, dealt, set aside and drawn."""

    remove: str | None  # expression: which pieces leave the game at this count
    use: str | None  # expression: which pieces are used (the complement of remove)
    deal: int = 0  # per player
    set_aside: int = 0  # e.g. the dead wall (王牌)
    turns: int = 0  # draws per player over the whole hand
    stated_needed: int | None = None  # what the document's own formula says is needed
    stated_used: int | None = None  # how many pieces the document says are used
    rest: str | None = None  # where the pieces not dealt, drawn or set aside go


@dataclass(frozen=True)
class Figure:
    """A figure the rules state (rounds, a VP value, a threshold, or a rule such as players − bullet)."""

    name: str
    value: Value  # a number, or an expression of the names in `inputs`
    location: Location
    source: Source | None = None
    words: tuple[str, ...] = ()  # nouns that tie a number in prose to this figure (トリック, マジョリティボーナス)
    inputs: tuple[str, ...] = ()  # the names an expression figure takes (players, bullet)
    examples: tuple[tuple[Fields, int], ...] = ()  # inputs → value pairs the document states
    assumed: str | None = None  # why the figure stands although the document does not state it


@dataclass(frozen=True)
class Note:
    """An assumption made where a document is silent, or a gap it leaves: reported as a warning."""

    kind: str  # assumption | gap
    text: str
    location: Location
    source: Source | None = None


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    document: str | None
    players: tuple[int, ...]
    components: tuple[Component, ...]
    expectations: tuple[Expectation, ...]
    notes: tuple[Note, ...]
    defaults: Fields
    location: Location
    rulebook: str | None = None
    rules_sheet: str | None = None
    figures: tuple[Figure, ...] = ()

    def figure(self, name: str) -> Figure | None:
        return next((f for f in self.figures if f.name == name), None)

    def component(self, component_id: str) -> Component | None:
        return next((c for c in self.components if c.id == component_id), None)


@dataclass(frozen=True)
class Project:
    root: Path
    source: Path  # the cards.yaml that was loaded
    name: str
    games: tuple[Game, ...]
    default_font: str = "Noto Sans JP"
    card_thickness: float = 0.3 * 72 / 25.4  # points per card, for tuck boxes
    files: tuple[Path, ...] = field(default=())  # every YAML file read, for watch and the cache

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    def game(self, game_id: str) -> Game | None:
        return next((g for g in self.games if g.id == game_id), None)


@dataclass(frozen=True)
class Piece:
    """One physical piece after expansion: a card instance with its index within the component."""

    component: Component
    card: Card
    index: int  # 1-based position within the component, copies included
    copy: int  # 1-based copy number of this card


def plain(value):
    """Card values as JSON: mappings and tuples as objects and lists, non-finite numbers as text."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
