"""Turn a piece and a template into the SVG text of one face, with text measured and fitted."""
from __future__ import annotations

import difflib
import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2.sandbox import SecurityError
from markupsafe import Markup

from .. import units
from ..cache import Cache, digest
from ..errors import Location, PnpError
from .fonts import FontBook
from .icons import IconSet
from ..project.model import Card, Component, Game, Project
from ..project import bounds
from ..project.bounds import ENDLESS, NO_MEMORY
from ..project.revision import Stamp, project_stamp
from ..project.sandbox import make_environment
from .text import TextDoesNotFit, fit_text

SAFE_MM = 3.0
MAX_TEXT = 10_000  # characters in one text box: fitting is slow beyond, and no card holds that much
BUILTIN = Path(__file__).parent / "builtin"  # templates named pnpgen/… (a tuck box's panels)


@dataclass(frozen=True)
class Face:
    """A rendered face: its SVG and the content hash that names it everywhere downstream."""

    key: str
    svg: str
    template: str
    origin: str = ""  # "deck card (name=剣)", for messages about this face
    location: Location | None = None


class Renderer:
    def __init__(self, project: Project, fontbook: FontBook, cache: Cache | None = None, inputs: str = "",
                 stamp: Stamp | None = None):
        self.project = project
        self.stamp = project_stamp(project) if stamp is None else stamp  # {{ build.revision }}: part of every key
        self.fontbook = fontbook
        self.disk = cache
        self.inputs = inputs  # digest of templates, icons and fonts: part of every render key
        self.icons = IconSet(project.templates_dir)
        self.env = make_environment(project.templates_dir)
        # The project's own templates come first, so a project may replace a built-in one.
        self.env.loader = jinja2.ChoiceLoader([self.env.loader, jinja2.PrefixLoader(
            {"pnpgen": jinja2.FileSystemLoader(str(BUILTIN))})])
        self.env.globals.update(text=self.text, icon=self.icon)
        self.cache: dict[tuple, Face] = {}
        self.renders = 0  # how many faces were actually rendered (the rest came from the cache)
        self.telling: dict[int, tuple[Component, list[str]]] = {}  # id(component) -> (it, distinguishing fields)

    def render(self, game: Game, component: Component, card: Card, side: str) -> Face | None:
        template = component.front if side == "front" else component.back
        if not template:
            return None
        key = (game.id, component.id, card.fields, side)
        face = self.cache.get(key)
        if face is None:
            svg = self.render_svg(game, component, card, side, template)
            origin = f"{component.id} card {self.describe(component, card)}"
            face = Face(hashlib.sha256(svg.encode()).hexdigest(), svg, template, origin, card.location)
            self.cache[key] = face
        return face

    def render_svg(self, game: Game, component: Component, card: Card, side: str, template: str) -> str:
        """From the disk cache when every input is the same, else from the template."""
        geometry = (component.id, component.name, component.kind, component.shape, component.size, component.bleed,
                    outline_of(component))
        render_key = digest(self.inputs, game.id, game.title, geometry, card.fields, side, template, self.stamp)
        svg = self.disk.read_svg(render_key) if self.disk else None
        if svg is None:
            svg = wrap_svg(self.render_content(game, component, card, side, template), component)
            self.renders += 1
            if self.disk:
                self.disk.write_svg(render_key, svg)
        return svg

    def render_content(self, game: Game, component: Component, card: Card, side: str, template: str) -> str:
        context = {
            "card": card.fields,
            "component": {"id": component.id, "name": component.name, "kind": component.kind, "shape": component.shape,
                          "outline": outline_of(component)},
            "game": {"id": game.id, "title": game.title},
            "W": round(units.to_mm(component.size.width), 4),
            "H": round(units.to_mm(component.size.height), 4),
            "B": round(units.to_mm(component.bleed), 4),
            "SAFE": SAFE_MM,
            "side": side,
            "build": self.stamp.context(),
        }
        where = f"{component.id} card {self.describe(component, card)}"
        try:
            return bounds.render(self.env.get_template(template), context)
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
            raise PnpError(f"{where}: a template it uses is not UTF-8 text; save the templates as UTF-8",
                           card.location) from None
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
        if content is None:
            content = ""
        if len(str(content)) > MAX_TEXT:
            raise PnpError(f"text() is given {len(str(content)):,} characters; expected at most {MAX_TEXT:,} "
                           "in one text box")
        fitted = fit_text(str(content), float(x), float(y), float(w), float(h), fontbook=self.fontbook,
                          icons=self.icons.fragments(), **options)
        return Markup(fitted.to_svg())

    def icon(self, name: str, x, y, size) -> Markup:
        return Markup(self.icons.place(str(name), float(x), float(y), float(size)))


def outline_of(component: Component) -> str:
    """The cut outline as SVG path data in mm for templates to draw along (empty for rect and round)."""
    return component.outline.d if component.outline else ""


def wrap_svg(content: str, component: Component) -> str:
    w, h, b = units.to_mm(component.size.width), units.to_mm(component.size.height), units.to_mm(component.bleed)
    fw, fh = w + 2 * b, h + 2 * b
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fw:.4f}mm" height="{fh:.4f}mm" '
        f'viewBox="{-b:.4f} {-b:.4f} {fw:.4f} {fh:.4f}">{content}</svg>'
    )


def explain_undefined(message: str, card: Card) -> str:
    match = re.search(r"has no attribute '([^']+)'", message or "")
    if match and "Fields" in message:
        name = match.group(1)
        close = difflib.get_close_matches(name, list(card.fields), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "expected it in the card, the component's defaults or the game's defaults"
        return f"the card has no field '{name}'; {hint}"
    return f"{message}; expected a variable the template receives (card, component, game, W, H, B, SAFE, side, build)"


def distinguishing_fields(component: Component) -> list[str]:
    """The fields whose values tell a component's cards apart, most varied first (game-wide and component
    defaults, such as colours, are the same on every card and say nothing about which card it is)."""
    if len(component.cards) == 1:
        return []
    seen: dict[str, set] = {}
    for card in component.cards:
        for name, value in card.fields.items():
            seen.setdefault(name, set()).add(repr(value))
    missing = {name for name in seen if any(name not in c.fields for c in component.cards)}
    varied = [name for name in seen if len(seen[name]) > 1 or name in missing]
    # Most varied first; among equals the shorter values (a name, a number) before long texts.
    return sorted(varied, key=lambda name: (-len(seen[name]), sum(map(len, seen[name])) / len(seen[name])))


def describe_card(card: Card, names: list[str] | None = None, limit: int = 3) -> str:
    """"(number=7, ron=True)": the card by the given fields (distinguishing_fields), else (a component of one
    card) by its first ones."""
    if names is None or not any(name in card.fields for name in names):
        names = [k for k, v in card.fields.items() if isinstance(v, (int, str)) and not isinstance(v, bool)]
    shown = [f"{name}={shorten(card.fields[name])}" for name in names if card.fields.get(name) not in (None, "")][:limit]
    return f"({', '.join(shown)})" if shown else ""


def shorten(value, limit: int = 12) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_holding(card: Card, content: str | None) -> str:
    """The field whose text is the text that did not fit: the one equal to it, else the longest one within it
    (a short field such as a name is often part of a longer effect text that merely repeats it)."""
    if not content:
        return ""
    texts = [(name, str(value).strip()) for name, value in card.fields.items()
             if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip()]
    exact = [name for name, text in texts if text == content.strip()]
    within = sorted((text for name, text in texts if text in content), key=len, reverse=True)
    if exact:
        return f"field '{exact[0]}' "
    if within:
        return f"field '{next(name for name, text in texts if text == within[0])}' "
    return ""


def template_line(template: str) -> str:
    """Where in the templates the error was raised: the deepest template frame (partials included)."""
    tb = sys.exc_info()[2]
    where = template
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2") or filename.endswith(template):
            marker = "/templates/"
            name = filename.split(marker, 1)[1] if marker in filename else template
            where = f"{name} line {tb.tb_lineno}"
        tb = tb.tb_next
    return where


def template_location(project: Project, err: jinja2.TemplateSyntaxError):
    from ..errors import Location

    name = err.filename or err.name or "template"
    shown = str(Path(name).resolve().relative_to(project.root)) if err.filename else f"templates/{name}"
    return Location(shown, err.lineno or 0, 1)
