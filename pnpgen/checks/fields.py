"""Turn card fields that nothing reads into findings: a key no template, expectation or rulebook uses (a typo such
as `efect:` or `copise:`) is reported where it is written, with the names the templates do read."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

from ..faces.render import BUILTIN
from ..press.cutouts import BOX_TEMPLATES
from ..files.reading import read_quietly
from ..project.model import Component, Game, Project
from .findings import FAIL, WARN, Finding

_READ = re.compile(r"card\s*\.\s*(\w+)|card\s*\[\s*['\"]([^'\"]+)['\"]\s*\]|card\s*\.\s*get\(\s*['\"]([^'\"]+)['\"]")
_IMPORT = re.compile(r"\{%-?\s*(?:import|include|from|extends)\s+['\"]([^'\"]+)['\"]")
_WORD = re.compile(r"[\w-]+")
EXEMPT = {"figures"}  # the game's rule figures, shared by every card


def check_unread_fields(project: Project, game: Game) -> list[Finding]:
    others = expectation_words(game) | rulebook_words(project, game)
    findings = []
    for component in game.components:
        strict, loose = template_reads(project, component)
        written = {name for card in component.cards for name in card.fields}
        for name, location in component.field_locations:
            if name in EXEMPT or name in loose or name in others:
                continue
            close = difflib.get_close_matches(name, sorted(strict | {"copies", "tbd"}), n=1, cutoff=0.6)
            carriers = sum(name in card.fields for card in component.cards)
            on_some = 0 < carriers < len(component.cards) or len(component.cards) == 1  # on every card: a field, not a slip
            if close and close[0] in written | {"copies", "tbd"} and on_some:  # a slip on some cards: text or copies go missing
                findings.append(Finding(FAIL, game.id, f"field {name} of {component.id}", location, close[0], name,
                                        f"no template, expectation or rulebook reads '{name}', so it changes nothing; "
                                        f"did you mean '{close[0]}'?", figure="field"))
            else:  # an extra field nobody reads yet, or a template typo that rendering reports: worth a look, not a stop
                hint = f"did you mean '{close[0]}'?" if close else "the templates read: " + (", ".join(sorted(strict)) or "no card field")
                findings.append(Finding(WARN, game.id, f"field {name} of {component.id}", location, None, None,
                                        f"no template, expectation or rulebook reads '{name}'; {hint}", figure="field"))
    return findings


def template_texts(project: Project, component: Component) -> dict[str, str]:
    """The source of each template a component draws with, its imports and includes followed."""
    texts: dict[str, str] = {}
    pending = [t for t in (component.front, component.back) if t]
    if component.box is not None:  # a tuck box's panels are drawn by pnpgen's own templates or the designer's
        pending += list(BOX_TEMPLATES.values()) + [template for _, template in component.box.panels]
    while pending:
        name = pending.pop()
        if name in texts:
            continue
        shipped = name.startswith("pnpgen/")
        folder = BUILTIN if shipped else project.templates_dir
        # Only looking: a template that is missing, linked out, special or huge is the renderer's to report.
        texts[name] = read_quietly(folder / (name.removeprefix("pnpgen/") if shipped else name), folder)
        pending += _IMPORT.findall(texts[name])
    return texts


def template_reads(project: Project, component: Component) -> tuple[set[str], set[str]]:
    """Names the component's templates read as card.NAME (strict), and every word in them (loose)."""
    texts = template_texts(project, component).values()
    strict = {a or b or c for text in texts for a, b, c in _READ.findall(text)}
    return strict, strict | {word for text in texts for word in _WORD.findall(text)}


def expectation_words(game: Game) -> set[str]:
    words: set[str] = set()
    for expectation in game.expectations:
        for text in (expectation.by, expectation.where, expectation.holds, *expectation.of,
                     expectation.setup.remove if expectation.setup else None,
                     expectation.setup.use if expectation.setup else None):
            words |= set(_WORD.findall(text or ""))
    return words


def rulebook_words(project: Project, game: Game) -> set[str]:
    return {word for source in (game.rulebook, game.rules_sheet) if source
            for word in _WORD.findall(read_quietly(Path(source), project.root))}
