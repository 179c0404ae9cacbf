"""Turn the card fields a template read into a key, so that cards agreeing on them share one rendered face.

A template is a deterministic function of what it reads: a back that reads only the title and the deck's
colours is every card's, rendered once a deck. The fields read are recorded while the template renders;
anything that reads the card as a whole (iterating it, printing it) reads them all.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Callable, Iterable

from ..digests import feed_digest
from ..project.model import Fields

ALL = None  # the key set of a render that read the whole card
MISSING = "\0missing"  # the value of a field a render asked for and the card does not have


def reading_all(name: str):
    """Fields' method of that name, noting that the template reads the card as a whole (iterating, printing it)."""
    method = getattr(Fields, name)

    def read_all(self, *args):
        self._seen = ALL
        return method(self, *args)

    return read_all


class TrackedFields(Fields):
    """The card's fields as a template sees them, noting which ones it reads."""

    __slots__ = ("_seen",)  # underscored, as _note: a template asking for card.seen or card.note gets the field
    # the Mapping ways, through __getitem__ and __iter__ (Fields reads its values directly), so that they note
    __contains__, items, values = Mapping.__contains__, Mapping.items, Mapping.values
    __iter__, __len__, __hash__, __eq__, __repr__, merged = map(
        reading_all, ("__iter__", "__len__", "__hash__", "__eq__", "__repr__", "merged"))

    def __init__(self, fields: Fields):
        self._at, self._values = fields._at, fields._values
        self._seen: set[str] | None = set()

    def _note(self, key) -> None:
        if self._seen is not ALL:
            self._seen.add(key if isinstance(key, str) else repr(key))

    def __getitem__(self, key: str):
        self._note(key)
        return self._values[self._at[key]]

    def __getattr__(self, name: str):
        self._note(name)
        return Fields.__getattr__(self, name)


TrackedFields.__name__ = TrackedFields.__qualname__ = "Fields"  # messages name the type as the designer knows it


def read_fields(tracked: TrackedFields) -> set[str] | None:
    """The names of the fields a render has read so far (ALL: the card as a whole)."""
    return tracked._seen


class Bounded(dict):
    """A memo that forgets everything once it holds `limit` entries, so that a deck of any size keeps no more:
    what recurs is made again once after each clearing (making it is deterministic)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep(self, key, value):
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class FaceMemo:
    """(game, component, side) -> for each set of fields its renders read, the face of each set of values;
    forgotten every `limit` faces (a face many cards share is rendered again once then)."""

    def __init__(self, limit: int = 2048):
        self.tables: dict[tuple, dict[tuple | None, dict[str, tuple[str, str]]]] = {}
        self.limit, self.size = limit, 0

    def find(self, common: tuple, fields: Fields) -> tuple[str, str] | None:
        """(face key, SVG or "") of an earlier render that read the same values, or None."""
        for keys, faces in self.tables.get(common, {}).items():
            found = faces.get(describe_values(fields, keys))
            if found is not None:
                return found
        return None

    def remember(self, common: tuple, tracked: TrackedFields, face_key: str, svg: str) -> None:
        if self.size >= self.limit:
            self.tables.clear()
            self.size = 0
        self.size += 1
        keys = ALL if tracked._seen is ALL else tuple(sorted(tracked._seen))
        table = self.tables.setdefault(common, {}).setdefault(keys, {})
        table[describe_values(tracked, keys)] = (face_key, svg)


class Fieldless:
    """The face of each component side whose template read no card field: that render never looked at the card,
    so every card of the side has its face. The pack records it under the side's render key prefix fed FIELDLESS
    where a card's fields would be, looked up once a build; a side that has it needs no lookup a card."""

    def __init__(self):
        self.faces: dict[tuple, str | None] = {}  # (game, component side) -> its face key, None: none known

    def find(self, common: tuple, prefix, pack, usable: Callable[[str], bool]) -> str | None:
        """The side's face key if the pack records one and usable(face key) holds (prefix: the hasher fed the side)."""
        if common not in self.faces:
            self.faces[common] = pack.face_key(fieldless_key(prefix))
        face_key = self.faces[common]
        return face_key if face_key is not None and usable(face_key) else None

    def split(self, sides: list[tuple], pack, usable: Callable[[str], bool]) -> tuple[list, list]:
        """Of (side, common, prefix) entries, (side, its face key's bytes) for each side whose face is every card's,
        and the entries of the others (looked up a card)."""
        fixed = [(side, bytes.fromhex(face_key)) for side, common, prefix in sides
                 for face_key in [self.find(common, prefix, pack, usable)] if face_key]
        return fixed, [entry for entry in sides if entry[0] not in dict(fixed)]

    def remember(self, common: tuple, prefix, pack, tracked: TrackedFields, face_key: str, texts: bytes) -> bool:
        """Record the face of a render that read no field, with its text() records (whether it read none)."""
        if tracked._seen is ALL or tracked._seen:
            return False
        if self.faces.get(common) != face_key:
            self.faces[common] = face_key
            pack.record_face(fieldless_key(prefix), face_key, texts)
        return True


FIELDLESS = b"\0read no card field"  # never a card's fields, whose repr starts "Fields("


def fieldless_key(prefix) -> str:
    return feed_digest(prefix.copy(), FIELDLESS).hexdigest()


def describe_values(fields: Fields, keys: tuple | None) -> str:
    index, values = fields._at, fields._values
    if keys is ALL:
        return repr(tuple(zip(index, values)))
    return repr(tuple(values[index[key]] if key in index else MISSING for key in keys))


SIDES = ("front", "back")
KEY = 32  # bytes of a face key


class CardFaceKeys:
    """The face key each card of a component has in this build, noted where it is first looked up or rendered
    (rendering ahead) and read where it is needed again (laying out): 32 bytes a face, in one bytearray a
    component indexed by the card's place in it (all zero: not known), so that a deck of any size holds no
    more and each card's render key, pack lookup and check happen once a build. Only faces usable in the pack."""

    def __init__(self):
        self.components: dict[int, tuple[object, bytearray]] = {}  # id(component) -> (it, the keys of its cards)

    def note(self, component, index: int, side: str, face_key: str) -> None:
        self.note_card(component, index, [(side, face_key)])

    def note_card(self, component, index: int, found: list[tuple[str, str | bytes]]) -> None:
        """Note (side, face key) pairs of one card (a key in hex, or its 32 bytes)."""
        keys = self.keys_of(component, create=True)
        for side, face_key in found:
            at = (2 * index + SIDES.index(side)) * KEY
            keys[at:at + KEY] = face_key if isinstance(face_key, bytes) else bytes.fromhex(face_key)

    def find_card(self, component, index: int, sides: tuple[bool, bool]) -> tuple | None:
        """The keys noted for the card's sides (None for a side it does not have), or None unless all are noted."""
        found = tuple(self.find(component, index, side) if wanted else None for side, wanted in zip(SIDES, sides))
        return None if any(wanted and key is None for key, wanted in zip(found, sides)) else found

    def find(self, component, index: int, side: str) -> str | None:
        keys = self.keys_of(component)
        at = (2 * index + SIDES.index(side)) * KEY
        if keys is None or at + KEY > len(keys) or not any(keys[at:at + KEY]):
            return None
        return keys[at:at + KEY].hex()

    def keys_of(self, component, create: bool = False) -> bytearray | None:
        found = self.components.get(id(component))
        if found is not None and found[0] is component:  # the component is kept: its id stays its own
            return found[1]
        if not create:
            return None
        self.components[id(component)] = (component, bytearray(2 * KEY * len(component.cards)))
        return self.components[id(component)][1]

    def export(self, cards: Iterable[tuple[object, int]]) -> bytes:
        """The keys of these (component, card index) pairs, both sides each, for another process to take."""
        zero = bytes(2 * KEY)
        return b"".join(keys[2 * KEY * index:2 * KEY * (index + 1)] if (keys := self.keys_of(component)) is not None
                        else zero for component, index in cards)

    def take(self, cards: Iterable[tuple[object, int]], data: bytes, holds: Callable[[str], bool]) -> None:
        """Note what export() gave for the same pairs: the faces this process's pack holds (holds(face key))."""
        for number, (component, index) in enumerate(cards):
            for offset, side in enumerate(SIDES):
                at = (2 * number + offset) * KEY
                face_key = data[at:at + KEY].hex()
                if len(face_key) == 2 * KEY and any(data[at:at + KEY]) and holds(face_key):
                    self.note(component, index, side, face_key)
