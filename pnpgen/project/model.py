"""Define the validated model: frozen dataclasses every stage after `validate` reads."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import Location
from .fields import Fields, Scalar, Value

__all__ = ["Box", "Card", "Component", "Expectation", "Fields", "Figure", "Game", "Layout", "Note", "Outline", "Piece",
           "Project", "Scalar", "Setup", "Size", "Source", "Standee", "Term", "Value", "plain"]


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


@dataclass(frozen=True, init=False)
class Card:
    """One distinct card (or chip, sheet) of a component, before copies are made.

    A deck keeps thousands, so a card holds five slots and no Location: one read from YAML finds its place and its
    fields' places in the file's packed positions when asked (Card.written), where a hand-made one holds them."""

    __slots__ = ("fields", "copies", "tbd", "_where", "_cells")
    fields: Fields
    copies: int
    location: Location  # where the card was written (a YAML mapping, a sheet's row)
    tbd: tuple[str, ...]  # names of fields still holding placeholder text
    # where each field the card itself gives was written (a sheet's cell, a YAML value), for messages and diffs:
    # (name, Location) pairs, made when iterated for a YAML card (project/located.py Spots)
    cells: Iterable[tuple[str, Location]] = field(compare=False, repr=False)

    def __init__(self, fields: Fields, copies: int, location: Location, tbd: tuple[str, ...] = (),
                 cells: Iterable[tuple[str, Location]] = ()):
        self.hold(fields, copies, tbd, location, cells)

    @classmethod
    def written(cls, fields: Fields, copies: int, tbd: tuple[str, ...], entries, at: int) -> "Card":
        """A card read from a YAML mapping: `entries` (project/located.py) finds its places at offset `at`."""
        card = object.__new__(cls)
        card.hold(fields, copies, tbd, entries, at)
        return card

    def hold(self, fields: Fields, copies: int, tbd: tuple, where, cells) -> None:
        put = object.__setattr__  # the dataclass is frozen: its own setattr refuses
        put(self, "fields", fields)
        put(self, "copies", copies)
        put(self, "tbd", tbd)
        put(self, "_where", where)  # a Location, or the Entries a written card is found by
        put(self, "_cells", cells)  # the cells, or where a written card's places start

    def with_fields(self, fields: Fields, tbd: tuple[str, ...]) -> "Card":
        """The same card, written at the same place, holding other fields (an edition's texts)."""
        return Card.written(fields, self.copies, tbd, self._where, self._cells)

    def find_location(self) -> Location:
        where = self._where
        return where if type(where) is Location else where.location(self._cells)

    def find_cells(self) -> Iterable[tuple[str, Location]]:
        where = self._where
        return self._cells if type(where) is Location else where.cells(self._cells, "tbd")

    def where(self, name: str) -> Location:
        """Where the field was written: its cell in a sheet, its value in YAML; the card's place if inherited."""
        return dict(self.cells).get(name, self.location)

    def __reduce__(self):  # a frozen card with slots: rebuilt through __init__, with its places made
        return Card, (self.fields, self.copies, self.location, self.tbd, tuple(self.cells))


# after the dataclass is made, or it would take them for the fields' defaults
Card.location = property(Card.find_location)
Card.cells = property(Card.find_cells)


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
    safe: float = 72 * 3 / 25.4  # points: how far inside the trim text stays (3 mm unless the component says)


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
    holds: str | None = None  # an expression over `card` every card must satisfy (invariant)
    holds_at: Location | None = None  # where that expression is written, for a rule that cannot be run
    assumed_at: tuple[Location, ...] = ()  # where each reason of `assumed` is written (a missing translation's place)
    known_at: tuple[Location, ...] = ()  # likewise for `known`


@dataclass(frozen=True)
class Setup:
    """Card arithmetic for one player count: what is removed, dealt, set aside and drawn."""

    remove: str | None  # expression: which pieces leave the game at this count
    use: str | None  # expression: which pieces are used (the complement of remove)
    deal: int = 0  # per player
    set_aside: int = 0  # e.g. the dead wall (王牌)
    turns: int = 0  # draws per player over the whole hand
    stated_needed: int | None = None  # what the document's own formula says is needed
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
    kind: str | None = None  # a rule in words (rounding, direction, …): `value` is the document's phrase (切り捨て)
    ranges: tuple[tuple[str, Value, Value], ...] = ()  # (input, from, to): the values an input other than players takes
    held: tuple[str, ...] = ()  # the data paths that hold it for templates to print (defaults.area_style.*.iwakura)
    translated_words: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (language, its words) from words@en
    assumed_at: Location | None = None  # where the reason `assumed` is written (a missing translation's place)


@dataclass(frozen=True)
class Note:
    """An assumption made where a document is silent, or a gap it leaves: reported as a warning."""

    kind: str  # assumption | gap
    text: str
    location: Location
    source: Source | None = None


@dataclass(frozen=True)
class Term:
    """A game term the documents use: the phrase that defines it, or how the data reads it where none does."""

    term: str
    location: Location
    source: Source | None = None  # the phrase of a document that defines it
    undefined: str | None = None  # instead of a source: the reading the data assumes, and why


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
    default_places: tuple[tuple[str, Location], ...] = ()  # where each value nested in `defaults:` stands, by path
    terms: tuple[Term, ...] = ()

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
    languages: tuple[str, ...] = ()  # project: languages, the original first; () for a project of one language
    language: str | None = None  # the language of this edition's texts (project/editions.py)
    texts: "Project | None" = field(default=None, repr=False)  # the project with every language's texts, if several

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
