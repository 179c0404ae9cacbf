"""Turn a project of several languages into its editions: per-language values gathered as Texts, then a project
whose every text is one language's, in the shape every later stage reads (`card.name` is the edition's text)."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

from ..errors import Collector, Location, PnpError
from .languages import Texts, language_problem, texts_of
from .model import Card, Fields, Game, Project

TAG = "@"  # name@en: the English text of the field `name` (a YAML key or a spreadsheet column)


def gather_texts(project: Project, languages: tuple[str, ...], problems: Collector) -> Project:
    """The project, validated as one language, with its per-language values as Texts: a field's mapping
    {ja: …, en: …} and a field@en beside the field. A card without them is kept as it is."""
    memo: dict[int, tuple] = {}
    games = []
    for game in project.games:
        single = grouped_fields(game)
        gather = Gatherer(languages, problems, memo, single)
        places = {name[len("defaults."):]: where for name, where in game.default_places}
        defaults = gather.fields(game.defaults, lambda name: places.get(name, game.location))  # first: its own line
        components = []
        for component in game.components:
            written = dict(component.field_locations)
            cards = tuple(gather.card(card, written) for card in component.cards)
            names = tuple((name, where) for name, where in component.field_locations if TAG not in name)
            components.append(dataclasses.replace(component, cards=cards, field_locations=names))
        games.append(dataclasses.replace(game, components=tuple(components), defaults=defaults))
    return dataclasses.replace(project, games=tuple(games), languages=languages)


def grouped_fields(game: Game) -> dict[str, Location]:
    """The fields expectations group or match cards by: ids, which stay single in every edition."""
    found: dict[str, Location] = {}
    for expectation in game.expectations:
        for name in (expectation.by, *expectation.of):
            if name:
                found.setdefault(name, expectation.location)
    return found


class Gatherer:
    """Reads one game's per-language values; a value shared by many cards (a default) is read, and reported, once."""

    def __init__(self, languages, problems: Collector, memo: dict, single: dict[str, Location]):
        self.languages, self.problems, self.memo, self.single = languages, problems, memo, single

    def card(self, card: Card, written: dict[str, Location]) -> Card:
        """The card with its per-language values as Texts; reported at its own cell, or where the component
        first writes the field it inherits."""
        fields = card.fields
        if not any(TAG in name or type(value) in (Fields, tuple) for name, value in fields.items()):
            return card
        gathered = self.fields(fields, lambda name: dict(card.cells).get(name) or written.get(name, card.location))
        if gathered is fields:
            return card
        tbd = tuple(name for name in card.tbd if TAG not in name)
        return card.with_fields(gathered, tbd)

    def fields(self, fields: Fields, place: Callable[[str], Location]) -> Fields:
        """fields with each per-language value as Texts and each name@code folded into its field; place(name): where
        it was written, asked for only to report it."""
        values = {}
        for name, value in fields.items():
            if TAG in name:
                continue
            gathered = self.value(value, place, name)
            if type(gathered) is Texts and name in self.single:
                self.problems.add(place(name), f"'{name}' has one value per language, but the expectation at "
                                               f"{self.single[name]} groups cards by it; expected one value "
                                               "(ids stay single)")
                gathered = value
            values[name] = gathered
        for name, value in fields.items():
            if TAG in name:
                self.fold(values, name, value, place(name))
        if all(values.get(name) is value for name, value in fields.items() if TAG not in name) \
                and not any(TAG in name for name in fields):
            return fields
        return Fields(values)

    def value(self, value, place: Callable[[str], Location], name: str):
        """A per-language mapping as Texts; a nested mapping or list with such values inside rebuilt; else value."""
        if type(value) not in (Fields, tuple):
            return value
        held = self.memo.get(id(value))
        if held is not None and held[0] is value:
            return held[1]
        if type(value) is Fields and any(code in self.languages for code in value):
            gathered = texts_of(value, place, self.languages, self.problems, name) or value
        elif type(value) is Fields:
            inner = {key: self.value(item, place, f"{name}.{key}") for key, item in value.items()}
            gathered = value if all(inner[key] is item for key, item in value.items()) else Fields(inner)
        else:
            items = tuple(self.value(item, place, f"{name}[{index}]") for index, item in enumerate(value))
            gathered = value if all(a is b for a, b in zip(items, value)) else items
        if type(value) is Fields:  # a default's mapping is every card's: read once (a list is each card's own)
            self.memo[id(value)] = (value, gathered)  # the value is kept with it: its id stays its own
        return gathered

    def fold(self, values: dict, tagged: str, text, where: Location) -> None:
        """name@code into the field name's Texts, reported where it is wrong."""
        name, code = tagged.rsplit(TAG, 1)
        problem = language_problem(code, self.languages)
        base = values.get(name)
        if problem is None and code == self.languages[0]:
            problem = f"'{tagged}' names the original language; expected the text as '{name}' itself"
        elif problem is None and not isinstance(text, str):
            problem = f"'{tagged}' is {text!r}; only text has one value per language (numbers and ids stay single)"
        elif problem is None and base is None:
            problem = f"'{tagged}' translates '{name}', which this card does not have; expected '{name}' beside it"
        elif problem is None and not isinstance(base, (str, Texts)):
            problem = f"'{tagged}' translates '{name}', which is not text; numbers and ids stay single"
        elif problem is None and name in self.single:
            problem = f"'{tagged}' translates '{name}', which the expectation at {self.single[name]} groups cards " \
                      "by; expected one value (ids stay single)"
        if problem:
            self.problems.add(where, problem if problem.startswith(f"'{tagged}'") else f"'{tagged}': {problem}")
            return
        index = self.languages.index(code)
        texts = list(base) if type(base) is Texts else [base] + [None] * (len(self.languages) - 1)
        if texts[index] is not None:
            self.problems.add(where, f"'{tagged}' gives the {code} text of '{name}' a second time; expected it once")
            return
        texts[index] = text
        values[name] = Texts(texts)


def edition(project: Project, language: str | None = None) -> Project:
    """The project as one language's edition (the original when None): every Texts replaced by that language's
    text, the original's where a translation is missing (`missing_translations` reports it). A project of one
    language is its own edition."""
    source = project.texts or project
    if not source.languages:
        if language is not None:
            raise PnpError(f"--lang {language}: the project has one language; expected `project: {{languages: "
                           f"[ja, {language}]}}` in cards.yaml to make an edition in {language}")
        return project
    if language is None:
        language = source.languages[0]
    if language not in source.languages:
        raise PnpError(f"--lang {language}: not one of the project's languages; expected one of: "
                       f"{', '.join(source.languages)} (or all)")
    if project.language == language:
        return project
    pick = Picker(source.languages.index(language))
    original = language == source.languages[0]
    games = tuple(dataclasses.replace(
        game, title=pick.value(game.title), defaults=pick.value(game.defaults),
        expectations=tuple(dataclasses.replace(e, assumed=pick.value(e.assumed), known=pick.value(e.known))
                           for e in game.expectations),
        figures=tuple(dataclasses.replace(f, assumed=pick.value(f.assumed)) for f in game.figures),
        rulebook=game.rulebook if original else edition_source(source.root, game.rulebook, language),
        rules_sheet=game.rules_sheet if original else edition_source(source.root, game.rules_sheet, language),
        components=tuple(dataclasses.replace(component, name=pick.value(component.name),
                                             cards=tuple(pick.card(card) for card in component.cards))
                         for component in game.components)) for game in source.games)
    return dataclasses.replace(source, games=games, language=language, texts=source)


def edition_folder(project: Project) -> str:
    """The folder below a game's output folder that an edition's files go in: its language's code, or "" for the
    original's (whose files keep the paths of a project of one language)."""
    languages = (project.texts or project).languages
    return project.language if languages and project.language not in (None, languages[0]) else ""


def chosen_languages(project: Project, lang: str | None) -> tuple[str | None, ...]:
    """The editions `--lang` names: None (the original), a language, or all (every one, the original first)."""
    if lang == "all":
        return (project.texts or project).languages or (None,)
    return (lang,)


def edition_source(root: Path, original: str | None, language: str) -> str | None:
    """The edition's rulebook beside the original's: rules/NAME.md -> rules/NAME.LANG.md, when it is a file inside
    the project; else the original, which stands in."""
    if original is None:
        return None
    path = Path(original)
    translated = path.with_name(f"{path.stem}.{language}{path.suffix}")
    if translated.is_file() and not translated.is_symlink() and translated.resolve().is_relative_to(root.resolve()):
        return str(translated)
    return original


class Picker:
    """Replaces Texts by one language's text; a value shared by many cards is replaced once."""

    def __init__(self, index: int):
        self.index = index
        self.memo: dict[int, tuple] = {}

    def card(self, card: Card) -> Card:
        fields = self.inside(card.fields)  # a card's own fields are its own: not memoised
        return card if fields is card.fields else card.with_fields(fields, card.tbd)

    def value(self, value):
        kind = type(value)
        if kind is Texts:
            return value.pick(self.index)
        if kind is tuple:
            return self.inside(value)
        if kind is not Fields:
            return value
        held = self.memo.get(id(value))
        if held is None or held[0] is not value:
            held = self.memo[id(value)] = (value, self.inside(value))  # kept with it: its id stays its own
        return held[1]

    def inside(self, value):
        """A mapping or list with the Texts inside it picked; itself when it holds none."""
        old = tuple(value.values()) if type(value) is Fields else value
        items = tuple(self.value(item) for item in old)
        if all(a is b for a, b in zip(items, old)):
            return value
        return Fields(dict(zip(value, items))) if type(value) is Fields else items
