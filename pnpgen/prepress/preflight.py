"""Turn a project folder into what a print shop's preflight would find (`pnpgen preflight`), every face at once.

Every face a build would print is rendered afresh (its SVG is needed for the template lines), painted by
the one painter into marks (faces/marking.py) and held to faces/print_checks.py; the cards' colours are held
to colour-blind eyes (vision.py). A face many cards share is inspected once. Tuck boxes are not inspected:
their panels are laid out from the deck's size, with faces of their own (press/cutouts.py).
"""
from __future__ import annotations

from pathlib import Path

from ..errors import PnpError, Problem
from ..faces.convert import parse_svg
from ..faces.describe import distinguishing_fields, shorten
from ..faces.images import ImageChecker
from ..faces.marking import mark_face
from ..faces.print_checks import Flaw, Trim, image_sizes, inspect_marks, trim_of
from ..faces.render import Renderer
from ..faces.stored import StoredForms
from ..faces.svgpath import NotDrawable
from ..pipeline.prepare import open_fontbook, select_games
from ..project.model import Card, Component, Game, Project
from ..project.validate import load_project
from ..templating.run_budget import RunOutOfBudget, whole_run
from .findings import Gathered, PrintFinding
from .lines import TemplateLines
from .vision import check_colour_vision, colour_areas


@whole_run("preflight")
def preflight(path: str | Path = ".", game: str | None = None) -> list[PrintFinding]:
    """Every finding of every face of the project (or of one game), errors first."""
    project = load_project(Path(path))
    return Inspector(project).inspect(select_games(project, game))


class Inspector:
    """Renders, paints and inspects each distinct face once, gathering the findings."""

    def __init__(self, project: Project):
        self.project = project
        fontbook = open_fontbook(project)
        self.renderer = Renderer(project, fontbook)  # no cache: every face comes with its SVG
        self.lines = TemplateLines(project.templates_dir)
        self.renderer.on_text = self.lines.note
        self.fonts = StoredForms(None, fontbook, ImageChecker(project.root))
        self.pixels = image_sizes(project.root)
        self.faces: dict[str, tuple[list[Flaw], dict, object]] = {}  # face key -> (flaws, colour areas, lines)
        self.gathered = Gathered()

    def inspect(self, games) -> list[PrintFinding]:
        problems: list[Problem] = []
        vision = []
        for game in games:
            for component in game.components:
                if component.kind == "box":
                    continue
                try:
                    vision += self.inspect_component(game, component)
                except RunOutOfBudget:
                    raise
                except PnpError as err:
                    problems.extend(err.problems)
        if problems:
            raise PnpError(problems)
        for finding in vision:
            self.gathered.add(finding)
        return self.gathered.findings()

    def inspect_component(self, game: Game, component: Component) -> list[PrintFinding]:
        trim, names = trim_of(component), distinguishing_fields(component)
        coloured: list[tuple[Card, dict]] = []
        for card in component.cards:
            if card.copies < 1:
                continue
            areas: dict = {}
            for side in ("front", "back"):
                self.lines.calls = []
                face = self.renderer.render(game, component, card, side)
                if face is None:
                    continue
                if face.key not in self.faces:
                    self.faces[face.key] = self.inspect_face(face, trim)
                flaws, face_areas, lines = self.faces[face.key]
                piece = name_piece(component, card, names, side)
                for flaw in flaws:
                    file, line = lines.locate(flaw.source)
                    self.gathered.add(PrintFinding(flaw.severity, flaw.check, file, line, piece, flaw.message))
                for colour, area in face_areas.items():
                    areas[colour] = areas.get(colour, 0.0) + area
            coloured.append((card, areas))
        return check_colour_vision(game, component, coloured)

    def inspect_face(self, face, trim: Trim):
        lines = self.lines.take(face.svg, face.template)
        tree = parse_svg(face.svg, face.template, self.project.root)
        try:
            marks = mark_face(tree, self.fonts.font_of)
        except NotDrawable as err:
            raise PnpError(f"{face.origin}: templates/{face.template} uses SVG the PDF cannot show: {err}",
                           face.location) from None
        return inspect_marks(marks, trim, self.pixels), colour_areas(marks), lines

def name_piece(component: Component, card: Card, names: list[str], side: str) -> str:
    """"area-cards 水郷 7": the component and the values that tell the card from the others."""
    shown = [card.fields.get(name) for name in names]
    values = [shorten(value) for value in shown if isinstance(value, (str, int)) and not isinstance(value, bool)
              and value != "" and not str(value).startswith("#")][:3]  # no flags or colours: they say little
    return " ".join([component.id, *values] + (["(back)"] if side == "back" else []))
