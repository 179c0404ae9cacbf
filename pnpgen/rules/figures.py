"""Turn `component:` image references into pictures of pieces: the printed cards' own forms, placed in the rulebook.

The src of a Markdown image names the piece (`component:ID`, `component:ID#N`, `component:ID?field=value`, each
perhaps ending in `/back`: the README's Rulebooks section), its title the printed width, its alt text the caption.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.platypus import Flowable

from .. import units
from ..faces.convert import Converter
from ..faces.form import FaceForm
from ..errors import PnpError
from ..project.model import Component, Game
from ..faces.render import Renderer
from ..press.reportlab_forms import place_form
from .references import resolve_reference

MAX_WIDTH_MM = 400  # an A3 page is 297 mm wide; a picture wider than any page is a mistake
DEFAULT_WIDTH_MM = {"card": 36.0, "chip": 20.0, "map": 160.0, "sheet": 120.0}


@dataclass(frozen=True)
class PieceImage:
    """One piece's face, ready to draw: its form (and key) and the trim it carries."""

    key: str
    form: FaceForm
    component: Component
    width: float  # printed trim width in points
    caption: str


def resolve_image(src: str, title: str, caption: str, game: Game, renderer: Renderer,
                  converter: Converter) -> PieceImage:
    """The piece a `component:` reference names, at the width the title gives (or the kind's default)."""
    component, card, side = resolve_reference(src, game)
    face = renderer.render(game, component, card, side)
    form = converter.face_form(face.key, face.svg, face.template)
    try:
        width = units.parse_length(title) if title.strip() else units.mm(DEFAULT_WIDTH_MM.get(component.kind, 36.0))
    except ValueError as err:
        raise PnpError(f"image '{src}': width {err}") from None
    if not 0 < width <= units.mm(MAX_WIDTH_MM):
        raise PnpError(f"image '{src}': width {title.strip()} is not a printable width; "
                       f"expected more than 0 mm and at most {MAX_WIDTH_MM} mm")
    return PieceImage(face.key, form, component, width, caption)


class PieceFlowable(Flowable):
    """A piece drawn at a given width: vector, clipped to its trim (a circle for a round chip), with a hairline
    outline."""

    def __init__(self, image: PieceImage, width: float, font: str):
        super().__init__()
        self.image = image
        self.font = font
        size = image.component.size
        self.scale = width / size.width
        self.width, self.height = width, size.height * self.scale

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def draw(self):
        canvas, image = self.canv, self.image
        component = image.component
        round_shape = component.shape == "round"
        canvas.saveState()
        path = canvas.beginPath()
        if round_shape:
            path.ellipse(0, 0, self.width, self.height)
        else:
            path.rect(0, 0, self.width, self.height)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.scale(self.scale, self.scale)
        canvas.translate(-component.bleed, -component.bleed)
        place_form(canvas, image.key, image.form)
        canvas.restoreState()
        canvas.saveState()  # a hairline outline at the trim
        canvas.setStrokeColor(colors.Color(0.45, 0.45, 0.45))
        canvas.setLineWidth(0.4)
        if round_shape:
            canvas.ellipse(0, 0, self.width, self.height, stroke=1, fill=0)
        else:
            canvas.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        canvas.restoreState()
