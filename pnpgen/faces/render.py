"""Turn a piece and a template into the SVG text of one face, with text measured and fitted."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
from array import array
from pathlib import Path
from typing import Callable, Iterable

import jinja2
from jinja2.sandbox import SecurityError
from markupsafe import Markup

from .. import units
from ..store.cache import Cache
from ..digests import feed_digest
from ..errors import PnpError
from .describe import (describe_card, distinguishing_fields, explain_undefined, field_holding, find_undecodable,
                       template_line, template_location)
from .face import Face, Origin
from .fitted import TextFitter
from .fonts import FontBook
from .icons import IconSet
from .image_place import ImagePlacer
from .images import ImageChecker
from .reuse import KEY, Bounded, FaceMemo, Fieldless, CardFaceKeys, TrackedFields
from .stored import StoredForms
from ..project.assumptions import mark_assumed
from ..project.model import Card, Component, Fields, Game, Project
from ..templating import limits
from ..templating.limits import ENDLESS, NO_MEMORY
from ..templating.run_budget import RunOutOfBudget, Spender
from ..project.revision import Stamp, project_stamp
from ..templating.sandbox import make_environment
from .text import TextDoesNotFit

SAFE_MM = 3.0
MAX_TEXT = 10_000  # characters in one text box: fitting is slow beyond, and no card holds that much
MEMO = 1024  # entries a memo of the renderer holds at most (faces, render keys, fitted texts)
BUILTIN = Path(__file__).parent / "builtin"  # templates named pnpgen/… (a tuck box's panels)


class Renderer:
    def __init__(self, project: Project, fontbook: FontBook, cache: Cache | None = None, inputs: str = "",
                 stamp: Stamp | None = None, store: Callable[[str, str, str], None] | None = None, final: bool = False):
        """store(face key, SVG, template), when given, paints a freshly rendered face the pack does not hold
        (is_usable) into it at once, so that its SVG need not be kept (Converter.paint). final: assumed() marks
        nothing."""
        self.project = project
        stamp = project_stamp(project) if stamp is None else stamp  # {{ build.* }}: part of every key
        self.stamp = dataclasses.replace(stamp, final=True) if final else stamp
        self.fontbook = fontbook
        self.disk = cache
        self.pack = cache.pack(project.root) if cache else None
        images = ImageChecker(project.root)
        self.stored = StoredForms(self.pack, fontbook, images)
        self.store = store
        # Memos are bounded (reuse.Bounded), so that what a build holds does not grow with its deck.
        self.usable: dict[str, bool] = Bounded(MEMO)
        self.names: dict[str, str] = Bounded(MEMO)  # a face key -> the one string pages name it by
        self.texts: dict[str, bytes] = Bounded(MEMO)  # a face key -> the keys of its text() records (pack.record_face)
        self.memo = FaceMemo()  # cards that agree on every field their template read share the face
        self.fieldless = Fieldless()  # and every card shares the face of a template that read none
        self.key_prefixes: dict[tuple, object] = {}  # what cards of one component and side share, hashed
        self.render_keys: dict[tuple, tuple[Card, str]] = Bounded(MEMO)  # (common, id(card)) -> (the card, its key)
        self.fields_text: tuple = (None, b"")  # the last card's fields and their repr, encoded
        self.face_keys = CardFaceKeys()  # each card's face keys, looked up once a build (rendering ahead, laying out)
        self.inputs = inputs  # digest of templates, icons and fonts: part of every render key
        self.icons = IconSet(project.templates_dir)
        self.fitter = TextFitter(project.root, project.default_font, fontbook, self.icons, self.pack, MEMO,
                                 project.language)
        self.env = make_environment(project.templates_dir)
        # The project's own templates come first, so a project may replace a built-in one.
        self.env.loader = jinja2.ChoiceLoader([self.env.loader, jinja2.PrefixLoader(
            {"pnpgen": jinja2.FileSystemLoader(str(BUILTIN))})])
        self.env.globals.update(text=self.text, icon=self.icon, image=ImagePlacer(project.root, images).place)
        self.cache: dict[tuple, Face] = Bounded(MEMO)
        self.renders = 0  # how many faces were actually rendered
        self.reused = False  # whether any face came from the cache
        self.telling: dict[int, tuple[Component, list[str]]] = {}  # id(component) -> (it, distinguishing fields)
        self.on_text: Callable[[str], None] | None = None  # told each text()'s SVG (preflight notes its template line)

    def render(self, game: Game, component: Component, card: Card, side: str, index: int | None = None) -> Face | None:
        """The card's face on one side; index (the card's place in component.cards), when given, finds a face
        this build already settled for it, and notes the face it settles on."""
        template = component.front if side == "front" else component.back
        if not template:
            return None
        known = self.face_keys.find(component, index, side) if index is not None else None
        if known is not None:
            return Face(self.name(known), "", template, Origin(self.describe, component, card), card.location)
        key = (game.id, common_of(component, side, template), card.fields)
        face = self.cache.get(key)
        if face is None:
            origin = Origin(self.describe, component, card)
            face_key, svg = self.render_svg(game, component, card, side, template)
            if svg and self.store is not None and self.pack is not None:
                usable = self.is_usable(face_key)
                if not usable:
                    try:
                        self.store(face_key, svg, template)
                    except PnpError as err:
                        raise PnpError(f"{origin}: {err.problems[0].message}", card.location) from None
                    usable = self.usable.keep(face_key, self.pack.has_face(face_key))
                svg = "" if usable else svg
            face = self.cache.keep(key, Face(self.name(face_key), svg, template, origin, card.location))
        if index is not None and not face.svg and self.pack is not None:
            self.face_keys.note(component, index, side, face.key)
        return face

    def name(self, face_key: str) -> str:
        """The one string pages name a face by (a shared back is one string, not one a card)."""
        return self.names.get(face_key) or self.names.keep(face_key, face_key)

    def render_svg(self, game: Game, component: Component, card: Card, side: str, template: str) -> tuple[str, str]:
        """(face key, SVG): from the face cache when every input is the same (SVG "", not needed), else rendered."""
        common, render_key = (game.id, common_of(component, side, template)), None
        if self.pack is not None:
            prefix = self.key_prefix(game, common)
            face_key = self.fieldless.find(common, prefix, self.pack, self.is_usable)
            if face_key is None:
                render_key = self.render_key(game, component, card, side, template)
                face_key = self.pack.face_key(render_key)
            if face_key and self.is_usable(face_key):
                self.reused = True
                return face_key, ""
        found = self.memo.find(common, card.fields)
        if found is None:
            tracked, outer = TrackedFields(card.fields), self.fitter.asked
            self.fitter.asked = asked = []
            try:
                svg = wrap_svg(self.render_content(game, component, card, side, template, tracked), component)
            finally:
                self.fitter.asked = outer
            self.renders += 1
            face_key = hashlib.sha256(svg.encode("utf-8")).hexdigest()
            texts = self.texts.keep(face_key, b"".join(asked))
            kept = "" if self.store is not None and self.pack is not None else svg  # the pack keeps the face
            self.memo.remember(common, tracked, face_key, kept)
            if self.pack is not None and self.fieldless.remember(common, prefix, self.pack, tracked, face_key, texts):
                return face_key, svg  # found for every card by its side: no record a card
        else:
            face_key, svg = found
        if self.pack is not None:  # (a side's shared face found but no longer usable had no render key yet)
            self.pack.record_face(render_key or self.render_key(game, component, card, side, template), face_key,
                                  self.texts.get(face_key, b""))
        return face_key, svg

    def render_key(self, game: Game, component: Component, card: Card, side: str, template: str) -> str:
        """The digest of everything the face is rendered from (the project's templates, images and fonts
        through self.inputs, the revision stamp templates may print)."""
        common = (game.id, common_of(component, side, template))
        known = self.render_keys.get((common, id(card)))
        if known is not None and known[0] is card:
            return known[1]
        if self.fields_text[0] is not card.fields:  # both sides of a card read its fields: written out once
            self.fields_text = (card.fields, repr(card.fields).encode("utf-8"))
        key = feed_digest(self.key_prefix(game, common).copy(), self.fields_text[1]).hexdigest()  # as fed the fields
        self.render_keys.keep((common, id(card)), (card, key))  # the card is kept: its id stays its own
        return key

    def key_prefix(self, game: Game, common: tuple):
        """The hasher fed what every render key of one component and side starts with."""
        if common not in self.key_prefixes:
            from .hyphenate import hyphenation_inputs  # a Latin edition's text is hyphenated by Pyphen's dictionary

            language = self.project.language  # templates read `lang`
            edition = (language, *hyphenation_inputs(language)) if self.project.languages else ()
            self.key_prefixes[common] = feed_digest(hashlib.sha256(), self.inputs, game.id, game.title, common[1],
                                                    self.stamp, *edition)
        return self.key_prefixes[common]

    def uncached(self, game: Game, component: Component, cards: Iterable[tuple[int, Card]]) -> array:
        """The indexes of the (index, card) pairs whose faces are not both in the cache; the others' faces are noted
        (CardFaceKeys), so that laying them out looks none up again. Render keys as render_key(), the common part hashed once."""
        sides = [(side, common, self.key_prefix(game, common)) for side, template in (("front", component.front),
                 ("back", component.back)) if template for common in [(game.id, common_of(component, side, template))]]
        missing, get, usable = array("L"), self.pack.get if self.pack is not None else None, self.usable
        checked = self.pack.checked if get is not None else ()  # usable (is_usable() asks it first), unmemoised
        fixed, sides = self.fieldless.split(sides, self.pack, self.is_usable) if get is not None else ([], sides)
        self.reused = self.reused or bool(fixed)
        for index, card in cards:
            text, found = repr(card.fields).encode("utf-8") if sides else b"", list(fixed)
            for side, common, prefix in sides:
                key = feed_digest(prefix.copy(), text).hexdigest()
                raw = get(b"R", key) if get is not None else None  # as pack.face_key(key), in fewer calls
                face_key = self.pack.face_of(raw) if raw is not None else None
                if face_key is None or not (usable.get(face_key) or face_key in checked or self.is_usable(face_key)):
                    self.render_keys.keep((common, id(card)), (card, key))  # rendering it needs the key again
                    break
                found.append((side, raw[:KEY]))
            else:
                self.face_keys.note_card(component, index, found)
                self.reused = True
                continue
            self.face_keys.note_card(component, index, fixed)  # its shared side is known; the other is rendered
            missing.append(index)
        return missing

    def is_usable(self, face_key: str) -> bool:
        """The cache holds the face's form, drawable with today's fonts and images (StoredForms); otherwise the
        face is rendered again, and a fresh face's painting gives the usual message about an image."""
        found = self.usable.get(face_key)
        return self.usable.keep(face_key, self.stored.holds(face_key)) if found is None else found

    def render_content(self, game: Game, component: Component, card: Card, side: str, template: str,
                       fields: Fields | None = None) -> str:
        context = {
            "card": card.fields if fields is None else fields,
            "component": {"id": component.id, "name": component.name, "kind": component.kind, "shape": component.shape,
                          "outline": outline_of(component)},
            "game": {"id": game.id, "title": game.title},
            "W": round(units.to_mm(component.size.width), 4),
            "H": round(units.to_mm(component.size.height), 4),
            "B": round(units.to_mm(component.bleed), 4),
            "SAFE": round(units.to_mm(component.safe), 4),
            "side": side,
            "lang": self.project.language,  # the edition's language (None for a project of one unnamed language)
            "build": self.stamp.context(),
            "assumed": functools.partial(mark_assumed, game, final=self.stamp.final, language=self.project.language),
        }
        where = Origin(self.describe, component, card)  # said only in a message
        spender = Spender(f"templates/{template} for component {game.id}/{component.id}", component.location)
        try:
            return limits.render(self.env.get_template(template), context, spender)
        except RunOutOfBudget:
            raise  # the run's, not this face's: no card or template line to add
        except TextDoesNotFit as err:
            field = field_holding(card, err.content)
            raise PnpError(f"{where}: {field}in {template_line(template)}: {err}", card.location) from None
        except jinja2.UndefinedError as err:
            raise PnpError(f"{where}: {template_line(template)}: {explain_undefined(err.message, card)}", card.location) from None
        except SecurityError as err:
            raise PnpError(f"{where}: {template_line(template)}: refused by the sandbox ({err})", card.location) from None
        except jinja2.TemplateSyntaxError as err:
            raise PnpError(f"template syntax error: {err.message}", template_location(self.project, err)) from None
        except jinja2.TemplateNotFound as err:
            raise PnpError(f"{where}: template '{err.name}' not found; expected it under templates/", card.location) from None
        except PnpError as err:
            raise PnpError(f"{where}: {template_line(template)}: {err.problems[0]}", card.location) from None
        except UnicodeDecodeError:
            raise PnpError(f"{where}: {find_undecodable(self.project.templates_dir, template)} is not UTF-8 text; "
                           "expected templates saved as UTF-8", card.location) from None
        except NameError:  # Jinja folds a literal such as 1e400 to inf and then cannot name it
            raise PnpError(f"{where}: {template_line(template)}: a number too large to compute with; "
                           "expected numbers of ordinary size", card.location) from None
        except RecursionError:
            raise PnpError(f"{where}: {template_line(template)}: {ENDLESS}", card.location) from None
        except MemoryError:
            raise PnpError(f"{where}: {template_line(template)}: {NO_MEMORY}", card.location) from None
        except (TypeError, ValueError, ArithmeticError, LookupError) as err:
            raise PnpError(f"{where}: {template_line(template)}: {err}", card.location) from None

    def describe(self, component: Component, card: Card) -> str:
        """The card by the fields that tell it from the others of its component (computed once a component)."""
        if id(component) not in self.telling:
            self.telling[id(component)] = (component, distinguishing_fields(component))
        return describe_card(card, self.telling[id(component)][1])

    def text(self, content, x, y, w, h, **options) -> Markup:
        for value in (content, x, y, w, h, *options.values()):
            if isinstance(value, jinja2.Undefined):
                str(value)  # raises the UndefinedError that names the missing field
        content = "" if content is None else str(content)
        if len(content) > MAX_TEXT:
            raise PnpError(f"text() is given {len(content):,} characters; expected at most {MAX_TEXT:,} "
                           "in one text box")
        found = self.fitter.fit(content, x, y, w, h, options)
        if self.on_text is not None:
            self.on_text(found)
        return found

    def icon(self, name: str, x, y, size) -> Markup:
        return Markup(self.icons.place(str(name), float(x), float(y), float(size)))


def outline_of(component: Component) -> str:
    """The cut outline as SVG path data in mm for templates to draw along (empty for rect and round)."""
    return component.outline.d if component.outline else ""


def common_of(component: Component, side: str, template: str) -> tuple:
    """What every card of a component shares on one side: a tuck box's panels share the box's id but not
    their size or template, so each is a component of its own here."""
    return (component.id, component.name, component.kind, component.shape, component.size, component.bleed,
            outline_of(component), side, template, component.safe)


def wrap_svg(content: str, component: Component) -> str:
    w, h, b = units.to_mm(component.size.width), units.to_mm(component.size.height), units.to_mm(component.bleed)
    fw, fh = w + 2 * b, h + 2 * b
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fw:.4f}mm" height="{fh:.4f}mm" '
        f'viewBox="{-b:.4f} {-b:.4f} {fw:.4f} {fh:.4f}">{content}</svg>'
    )
