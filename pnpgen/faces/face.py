"""Define a rendered face: its SVG and the content hash that names it downstream, and the card it was made for."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import Location
from ..project.model import Card, Component


@dataclass(frozen=True)
class Face:
    """A rendered face: its SVG ("" when the face came from the cache) and the content hash of the SVG
    that names it everywhere downstream."""

    key: str
    svg: str
    template: str
    origin: "str | Origin" = ""  # "deck card (name=剣)", for messages about this face
    location: Location | None = None


def keep_unconverted(faces: dict[str, Face], sides) -> None:
    """Note the faces that still carry their SVG (not yet converted into the pack): only those are looked at
    again before writing, so only those are kept (a face in the pack is drawn by its key)."""
    for face in sides:
        if face is not None and face.svg:
            faces.setdefault(face.key, face)


class Origin:
    """The card a face was rendered for, said ("deck card (name=剣)") only when a message needs it: telling a
    card from the others of its component reads them all."""

    def __init__(self, describe: Callable[[Component, Card], str], component: Component, card: Card):
        self.describe, self.component, self.card = describe, component, card

    def __str__(self) -> str:
        return f"{self.component.id} card {self.describe(self.component, self.card)}"
