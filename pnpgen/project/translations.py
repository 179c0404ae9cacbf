"""Turn a project of several languages into the translations it lacks, each where its original text is written."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import Location
from .editions import edition_source
from .languages import Texts
from .model import Component, Fields, Game, Project


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
        field = self.what.split(chr(39))[1] if self.what.startswith("'") else ""
        beside = f" or beside it as {field}@{self.language}" if field.isidentifier() else ""  # a field, not inside one
        return f"{self.what} has no {self.language} text (the original: {self.original!r}); expected a translation " \
               f"as {{…, {self.language}: …}}{beside}"


def find_missing(project: Project, languages: tuple[str, ...]) -> list[Missing]:
    """Every text of the original with no translation into one of `languages`: a game's title, a component's name
    given in the data, the reasons for what it assumes and knows, and each card's field that its component translates
    on some card (a field no card translates is taken for an id or a mark that stays single)."""
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
                if edition_source(source.root, path, code) == path:  # the original stands in: none beside it
                    shown = Path(path).relative_to(source.root).as_posix()
                    beside = Path(shown).with_name(f"{Path(shown).stem}.{code}{Path(shown).suffix}").as_posix()
                    found.append(Missing(game.location, game.id, code, f"the {key} {shown}", "", f"{beside} beside it"))
        find_in_reasons(game, lambda value, where, what, game=game.id: note(value, where, what, game))
        defaults = {name[len("defaults."):]: where for name, where in game.default_places}
        for component in game.components:
            if type(component.name) is Texts or component.name != component.id:
                note(component.name, component.location, f"the name of component {game.id}/{component.id}", game.id)
            find_in_cards(component, lambda value, where, what, game=game.id: note(value, where, what, game),
                          defaults, game.id)
    return found


def find_in_reasons(game: Game, note) -> None:
    """note() each reason the game gives for a figure it assumes or a contradiction it knows (`assumed:`, `known:`),
    where it is written: the rulebook's lists print them in the edition's language."""
    for expectation in game.expectations:
        about = f"the {expectation.kind} expectation of {expectation.component}"
        for (figure, why), where in zip(expectation.assumed, expectation.assumed_at):
            note(why, where, f"the reason (assumed:) for {figure} of {about}")
        for (figure, why), where in zip(expectation.known, expectation.known_at):
            note(why, where, f"the reason (known:) for {figure} of {about}")
    for figure in game.figures:
        if figure.assumed:
            note(figure.assumed, figure.assumed_at or figure.location, f"the reason (assumed:) of figure {figure.name}")


def find_in_cards(component: Component, note, game_places: dict[str, Location], game_id: str) -> None:
    """note() each card's value at every place the component translates on some card: a field, or a text inside a
    field's mapping or list (`skills[0].text`, `words.hero`); at its own cell, where the component first writes the
    field it inherits, or where the game's defaults write it."""
    places = list(dict.fromkeys(place for card in component.cards for name, value in card.fields.items()
                                if type(value) in (Texts, Fields, tuple) for place in texts_within(value, (name,))))
    if not places:
        return
    written = dict(component.field_locations)
    for number, card in enumerate(component.cards, 1):
        own = dict(card.cells)
        for place in places:
            for found, value in values_at(card.fields, place, ()):
                name, shown = place[0], spell_place(found)
                if name in own:
                    note(value, own[name], f"'{shown}' of card {number} of {component.id}")
                elif name in written or name not in game_places:
                    note(value, written.get(name, card.location), f"'{shown}' of {component.id}")
                else:  # on its own line: the game's defaults know where each value inside them stands
                    where = game_places.get(".".join(map(str, found)), game_places[name])
                    note(value, where, f"'{shown}' of the defaults of game {game_id}")


def texts_within(value, place: tuple):
    """The places (a field's name, then keys, and None for any index of a list) of every Texts in value."""
    if type(value) is Texts:
        yield place
    elif type(value) is Fields:
        for key, item in value.items():
            yield from texts_within(item, (*place, key))
    elif type(value) is tuple:
        for item in value:
            yield from texts_within(item, (*place, None))


def values_at(value, place: tuple, found: tuple):
    """(where, value) for each value at place in a card's fields (None: every index of a list)."""
    if not place:
        yield found, value
        return
    step, rest = place[0], place[1:]
    if step is None and type(value) is tuple:
        for index, item in enumerate(value):
            yield from values_at(item, rest, (*found, index))
    elif step is not None and type(value) is Fields and step in value:
        yield from values_at(value[step], rest, (*found, step))


def spell_place(place: tuple) -> str:
    """A place as the data writes it: skills[0].text."""
    return "".join(f"[{step}]" if type(step) is int else (f".{step}" if index else str(step))
                   for index, step in enumerate(place))
