"""Turn a project of several languages into the translations it lacks, each where its original text is written."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import Location
from .editions import edition_source
from .languages import Texts
from .model import Component, Project


@dataclass(frozen=True)
class Missing:
    """One text with no translation into `language`: the field (or title, name) and where its original stands."""

    location: Location
    game: str
    language: str
    what: str  # 'name' of card 3 of winds, the title of game winds
    original: str
    expected: str = ""  # what to write instead of a translation in place (a rulebook's file)

    def message(self) -> str:
        if self.expected:
            return f"{self.what} has no {self.language} edition; expected {self.expected}"
        beside = f" or beside it as {self.what.split(chr(39))[1]}@{self.language}" if self.what.startswith("'") else ""
        return f"{self.what} has no {self.language} text (the original: {self.original!r}); expected a translation " \
               f"as {{…, {self.language}: …}}{beside}"


def find_missing(project: Project, languages: tuple[str, ...]) -> list[Missing]:
    """Every text of the original with no translation into one of `languages`: a game's title, a component's name
    given in the data, and each card's field that its component translates on some card (a field no card translates
    is taken for an id or a mark that stays single)."""
    source = project.texts or project
    if len(source.languages) < 2:
        return []
    wanted = [(source.languages.index(code), code) for code in languages if code in source.languages[1:]]
    found: list[Missing] = []
    seen: set[tuple] = set()

    def note(value, where: Location, what: str, game: str) -> None:
        original = value[0] if type(value) is Texts else value
        if not isinstance(original, str) or not original.strip():
            return
        for index, code in wanted:
            if (type(value) is not Texts or value[index] is None) and (where, what, code) not in seen:
                seen.add((where, what, code))
                found.append(Missing(where, game, code, what, original))

    for game in source.games:
        note(game.title, game.location, f"the title of game {game.id}", game.id)
        for key, path in (("rulebook", game.rulebook), ("rules sheet", game.rules_sheet)):
            for _, code in wanted if path else ():
                if edition_source(source.root, path, code, found_only=True) is None:
                    shown = Path(path).relative_to(source.root).as_posix()
                    beside = Path(shown).with_name(f"{Path(shown).stem}.{code}{Path(shown).suffix}").as_posix()
                    found.append(Missing(game.location, game.id, code, f"the {key} {shown}", "", f"{beside} beside it"))
        for component in game.components:
            if type(component.name) is Texts or component.name != component.id:
                note(component.name, component.location, f"the name of component {game.id}/{component.id}", game.id)
            find_in_cards(component, lambda value, where, what, game=game.id: note(value, where, what, game))
    return found


def find_in_cards(component: Component, note) -> None:
    """note() each card's value of every field the component translates somewhere, at its own cell or where the
    component first writes the field it inherits."""
    translated = list(dict.fromkeys(name for card in component.cards for name, value in card.fields.items()
                                    if type(value) is Texts))
    if not translated:
        return
    written = dict(component.field_locations)
    for number, card in enumerate(component.cards, 1):
        own = dict(card.cells)
        for name in translated:
            if name in card.fields:
                where = own.get(name) or written.get(name, card.location)
                what = f"'{name}' of card {number} of {component.id}" if name in own else f"'{name}' of {component.id}"
                note(card.fields[name], where, what)
