"""Turn a component's pieces into its distinct faces and one-face-per-page PDFs, the source of every export."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..faces.convert import Converter
from ..faces.form import FaceForm
from ..errors import PnpError
from ..project.expand import expand_pieces
from ..press.impose import Page, Placement, Rect
from ..project.model import Card, Component, Game, Size
from ..faces.describe import describe_card, distinguishing_fields
from ..faces.render import Renderer


@dataclass(frozen=True)
class PieceFaces:
    """One physical piece: its 1-based index over the component (copies included) and its face keys."""

    index: int
    card: Card
    front: str
    back: str | None


@dataclass
class ComponentFaces:
    """Every piece of a component with its faces rendered and each distinct face converted once."""

    game: Game
    component: Component
    pieces: list[PieceFaces] = field(default_factory=list)
    forms: dict[str, FaceForm] = field(default_factory=dict)

    def shown(self) -> list[tuple[PieceFaces, str, str]]:
        """(piece, side, face key) of every face a piece shows, in piece order, each piece's front then back."""
        return [(piece, side, key) for piece in self.pieces
                for side, key in (("front", piece.front), ("back", piece.back)) if key is not None]

    def distinct(self) -> list[tuple[str, str]]:
        """(face key, side) of every distinct face: all fronts first, then backs, in piece order."""
        seen: dict[str, str] = {}
        for _, side, key in sorted(self.shown(), key=lambda shown: shown[1] == "back"):
            seen.setdefault(key, side)
        return list(seen.items())

    @property
    def shared_back(self) -> str | None:
        """The one back every piece shows, or None when there is none or backs differ per piece."""
        backs = {piece.back for piece in self.pieces}
        return backs.pop() if len(backs) == 1 else None


def gather_faces(game: Game, component: Component, renderer: Renderer, converter: Converter) -> ComponentFaces:
    """Render both faces of every piece and convert each distinct face once."""
    gathered = ComponentFaces(game, component)
    for piece in expand_pieces(component):
        front = renderer.render(game, component, piece.card, "front")
        back = renderer.render(game, component, piece.card, "back")
        for face in (front, back):
            if face is not None and face.key not in gathered.forms:
                try:
                    gathered.forms[face.key] = converter.face_form(face.key, face.svg, face.template)
                except PnpError as err:
                    raise PnpError(f"{component.id} card {renderer.describe(component, piece.card)}: "
                                   f"{err.problems[0].message}",
                                   piece.card.location) from None
        gathered.pieces.append(PieceFaces(piece.index, piece.card, front.key, back.key if back else None))
    return gathered


def face_page(component: Component, key: str, side: str) -> Page:
    """A page the size of the face's bleed box holding that face alone: TrimBox the trim, BleedBox the page."""
    w, h, b = component.size.width, component.size.height, component.bleed
    page = Rect(0, 0, w + 2 * b, h + 2 * b)
    placement = Placement(key, x=b, y=b, width=w, height=h, clip=page)
    return Page(Size(page.width, page.height), side, (placement,), (), Rect(b, b, b + w, b + h), page)


def card_caption(card: Card, component: Component, limit: int = 3) -> str:
    """The fields that tell this card from the others of its component, for captions and descriptions:
    "number=2, ron=True" (every card shares the game's and component's defaults, so those say nothing)."""
    return describe_card(card, distinguishing_fields(component), limit).strip("()")