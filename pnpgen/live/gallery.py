"""Turn a project into the live preview's model: games, findings and PNG thumbnails of every face."""
from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Callable

from .. import units
from ..pipeline.build import Options
from ..pipeline.prepare import open_fontbook, select_games
from ..store.cache import Cache, default_cache_dir
from ..store.recall import keep_reads
from ..faces.inputs import inputs_digest
from ..checks.checker import check_project
from ..faces.convert import Converter
from ..faces.form_marks import form_marks
from ..faces.print_checks import image_sizes, inspect_marks, trim_of
from ..errors import PnpError, Problem
from ..export.pieces import face_page
from ..project.model import Card, Component, Project, plain
from ..faces.render import Renderer
from ..templating.run_budget import RunOutOfBudget, whole_run
from ..project.validate import load_project
from .since import compare_since
from .state import Live
from .watch import describe_changes
from ..press.write_pdf import pdf_bytes
from ..press.write_png import plan_raster, rasterise

THUMB_PX = 320  # the longer side of a thumbnail's trim, in pixels
PIPELINE = threading.Lock()  # reportlab's settings and pdfium are process-wide: one rebuild at a time


class Gallery:
    """Render every component's faces and rasterise the ones not seen before into thumbnails."""

    def __init__(self, options: Options, since: str | None = None) -> None:
        self.options = options
        self.since = since  # a git revision or last-build: mark the cards changed since then
        self.previous: Project | None = None
        self.flaws: dict[str, list[dict]] = {}  # a thumbnail's key -> its face's print flaws (faces/print_checks)
        self.memos: dict = {}  # what checking the card text read, for the next rebuild (checks/checker.check_project)
        keep_reads()  # and the face records each build read

    @whole_run("preview")
    def rebuild(self, path: Path, live: Live, files: list[str],
                loaded: Callable[[Project], None] = lambda project: None) -> Project | None:
        """The gallery built again; loaded(project) is told the model as soon as it is read."""
        changes = [f"{', '.join(files)} changed"] if files else []
        try:
            with PIPELINE:
                project = load_project(path)
                loaded(project)
                changes += describe_changes(self.previous, project)
                games, findings, thumbs = self.model(project, live.thumbs)
                since, live.changes_page = compare_since(project, self.since, self.options.game, self.options.cache,
                                                         self.options.cache_dir) if self.since else (None, b"")
        except PnpError as err:
            live.publish(error=[str(p) for p in err.problems], changes=changes)
            return None
        except Exception as err:  # noqa: BLE001 - a long-running preview reports even a bug and keeps going
            live.publish(error=[f"unexpected {type(err).__name__}: {err} (a bug in pnpgen; please report it)"], changes=changes)
            return None
        live.thumbs = {**live.thumbs, **thumbs}
        live.publish(project=project.name, games=games, findings=findings, error=None, changes=changes, since=since)
        keep = {key for game in games for c in game["components"] for card in c["cards"] for key in (card["front"], card["back"])}
        live.thumbs = {key: png for key, png in live.thumbs.items() if key in keep}
        self.flaws = {key: found for key, found in self.flaws.items() if key in keep}
        self.previous = project
        return project

    def model(self, project: Project, known: dict[str, bytes]) -> tuple[list, list, dict[str, bytes]]:
        """The games as the page shows them, the checker's findings, and the thumbnails still to add."""
        games = select_games(project, self.options.game)
        findings = [dict(f.as_dict(), message=f.line().split(": ", 1)[1])
                    for f in check_project(project, games, memos=self.memos)]
        cache = Cache(self.options.cache_dir or default_cache_dir()) if self.options.cache else None
        fontbook = open_fontbook(project, self.options)
        renderer = Renderer(project, fontbook, cache, inputs_digest(project))
        converter = Converter(fontbook, project.root, cache)
        problems: list[Problem] = []
        shown, missing, inspected = [], {}, []
        for game in games:
            components = []
            for component in game.components:
                cards = []
                for index, card in enumerate(component.cards, 1):
                    try:
                        faces = [renderer.render(game, component, card, side) for side in ("front", "back")]
                    except RunOutOfBudget:
                        raise  # the rebuild stops: every card's own problems are gathered, not the run's
                    except PnpError as err:
                        problems.extend(err.problems)
                        continue
                    keys = [thumb_key(face.key, renderer.inputs) if face else None for face in faces]
                    for key, face in zip(keys, faces):
                        if face and key not in known:
                            missing.setdefault((game.id, component.id), (component, {}))[1][key] = face
                    cards.append(card_state(index, card, component, *keys))
                    inspected.append((cards[-1], component, list(zip(("front", "back"), keys, faces))))
                components.append(component_state(component, cards))
            shown.append({"id": game.id, "title": game.title, "components": components})
        if problems:
            raise PnpError(problems)
        initial_font = fontbook.resolve(None)
        thumbs = {}
        for component, faces in missing.values():
            thumbs.update(thumbnails(component, faces, converter, initial_font))
        pixels = image_sizes(project.root)
        for state, component, sides in inspected:  # after the thumbnails: a face that cannot be painted is said
            state["print"] = [dict(flaw, side=side) for side, key, face in sides if face is not None
                              for flaw in self.face_flaws(key, face, component, converter, pixels)]
        if cache is not None:  # a page is made again and again: each one's own file goes at once
            cache.close()
        return shown, findings, thumbs


    def face_flaws(self, key: str, face, component: Component, converter: Converter, pixels) -> list[dict]:
        """What a print shop would refuse on the face (as `pnpgen preflight` finds it, without the template line),
        kept for the face's thumbnail key."""
        if key not in self.flaws:
            form = converter.face_form(face.key, face.svg, face.template) if face.svg else converter.form(face.key)
            found = inspect_marks(form_marks(form, units.to_mm(component.bleed)), trim_of(component), pixels)
            self.flaws[key] = [{"severity": f.severity, "check": f.check, "message": f.message} for f in found]
        return self.flaws[key]


def thumb_key(face_key: str, inputs: str) -> str:
    """A face's SVG names images and fonts but does not hold them: the inputs digest covers their bytes."""
    return hashlib.sha256(f"{face_key}\0{inputs}".encode()).hexdigest()


def thumbnails(component: Component, faces: dict, converter: Converter, initial_font: str) -> dict[str, bytes]:
    """PNG thumbnails of the trim of each face: one single-face page per face, rasterised in this process (the
    server's threads rule out forking, and a rebuild has few new faces)."""
    drawings, pages = {}, []
    for face in faces.values():
        try:
            drawings[face.key] = converter.face_form(face.key, face.svg, face.template)
        except PnpError as err:
            raise PnpError(f"{face.origin}: {err.problems[0].message}", face.location) from None
        pages.append(face_page(component, face.key, "front"))
    data = pdf_bytes(pages, drawings, title=component.name, initial_font=initial_font, bleed=component.bleed)
    w, h, b = component.size.width, component.size.height, component.bleed
    dpi = THUMB_PX * 72 / max(w, h)  # points are 1/72 in
    rasters = [plan_raster(0, number, w, h, b, dpi, with_bleed=False) for number in range(len(faces))]
    return dict(zip(faces, rasterise([data], rasters, workers=1, level=3)))


def component_state(component: Component, cards: list[dict]) -> dict:
    return {"id": component.id, "name": component.name, "kind": component.kind, "shape": component.shape,
            "size_mm": [round(units.to_mm(component.size.width), 1), round(units.to_mm(component.size.height), 1)],
            "pieces": sum(c.copies for c in component.cards), "cards": cards}


def card_state(index: int, card: Card, component: Component, front: str, back: str | None) -> dict:
    return {"index": index, "caption": caption(card, component), "fields": plain(card.fields), "copies": card.copies,
            "tbd": list(card.tbd), "location": f"{card.location.file}:{card.location.line}", "front": front, "back": back}


def caption(card: Card, component: Component) -> str:
    """The card's name or title, else the short fields that tell it from the other cards of its component."""
    for name in ("name", "title"):
        if isinstance(card.fields.get(name), (str, int)) and str(card.fields[name]).strip():
            return str(card.fields[name])
    spread = {k: len({repr(c.fields.get(k)) for c in component.cards}) for k in card.fields}
    shown = []
    for k in sorted((k for k, n in spread.items() if n > 1), key=lambda k: -spread[k]):
        value = card.fields[k]
        if value is True:
            shown.append(k)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool) and 0 < len(str(value)) <= 20:
            shown.append(str(value))
    return " · ".join(shown[:3]) or component.name

