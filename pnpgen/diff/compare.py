"""Turn two loaded projects into the cards added, removed and changed, each with its changed fields and faces."""
from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Callable, Sequence

from ..errors import Location, PnpError, Problem
from ..export.pieces import card_caption
from ..faces.face import Face
from ..project.load import LList, LMap, load_file
from ..project.model import Card, Component, Game, Project, Value

SIDES = ("front", "back")


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: Value
    new: Value
    location: Location | None  # where the new value is written (the card, for a field it no longer has)


@dataclass(frozen=True)
class FaceChange:
    """One side of a card that looks different (or exists on one side of the comparison only)."""

    side: str
    old: Face | None
    new: Face | None
    old_component: Component | None
    new_component: Component | None

    @property
    def pair(self) -> tuple[str, str]:
        return (self.old.key if self.old else "", self.new.key if self.new else "")


@dataclass
class CardChange:
    game: str
    component: str
    status: str  # added | removed | changed
    index: int  # 1-based among the component's distinct cards (the old ones for a removed card)
    caption: str
    card: Card  # as it is now (as it was, for a removed card)
    old_card: Card | None
    fields: list[FieldChange] = field(default_factory=list)
    faces: list[FaceChange] = field(default_factory=list)
    because: list[str] = field(default_factory=list)  # files that alone changed its faces

    @property
    def location(self) -> Location:
        return self.card.location


class Side:
    """One state of the project: its model and how to render its faces."""

    def __init__(self, project: Project, render: Callable[[Game, Component, Card, str], Face | None], label: str = ""):
        self.project, self.render_face, self.label = project, render, label
        self.locator = FieldLocator(project.root)

    def render(self, game: Game, component: Component, card: Card, side: str) -> Face | None:
        try:
            return self.render_face(game, component, card, side)
        except PnpError as err:
            raise (name_state(err, self.label) if self.label else err) from None


def name_state(err: PnpError, label: str) -> PnpError:
    """The error with the state it comes from named: an old state's errors may be gone from the files now."""
    return PnpError([Problem(p.location, f"(at {label}) {p.message}") for p in err.problems])


def compare_games(old: Side, new: Side, games: Sequence[Game], changed_inputs: list[str]) -> list[CardChange]:
    """Every card added, removed or changed in the games (of the new project), component by component."""
    changes = []
    pixels_only = any(not name.startswith("templates/") for name in changed_inputs)  # images, fonts
    face_templates = {f"templates/{t}" for g in new.project.games for c in g.components for t in (c.front, c.back) if t}
    context = (changed_inputs, pixels_only, face_templates)
    for game in games:
        before = old.project.game(game.id)
        gone = [c for c in before.components if game.component(c.id) is None] if before else []
        for component in game.components:
            previous = before.component(component.id) if before else None
            changes += compare_component(old, new, (before, previous), (game, component), context)
        for component in gone:
            changes += compare_component(old, new, (before, component), (game, None), context)
    for before in old.project.games:  # a game taken out of the project: all its cards are removed
        if new.project.game(before.id) is None and len(games) == len(new.project.games):
            for component in before.components:
                changes += compare_component(old, new, (before, component), (before, None), context)
    return changes


def compare_component(old: Side, new: Side, was: tuple, now: tuple, context: tuple) -> list[CardChange]:
    (old_game, old_component), (game, component), (changed_inputs, pixels_only, face_templates) = was, now, context
    old_cards = old_component.cards if old_component else ()
    new_cards = component.cards if component else ()
    same_setting = bool(old_component and component) and gather_setting(old_game, old_component) == gather_setting(game, component)
    found = []
    for i, j in pair_cards(old_cards, new_cards):
        if j is None:
            card = old_cards[i]
            faces = [FaceChange(s, f, None, old_component, None) for s in SIDES
                     if (f := old.render(old_game, old_component, card, s))]
            found.append(CardChange(old_game.id, old_component.id, "removed", i + 1, card_caption(card, old_component),
                                    card, None, faces=faces))
            continue
        card = new_cards[j]
        if i is None:
            faces = [FaceChange(s, None, f, None, component) for s in SIDES if (f := new.render(game, component, card, s))]
            found.append(CardChange(game.id, component.id, "added", j + 1, card_caption(card, component), card, None,
                                    faces=faces))
            continue
        before = old_cards[i]
        same_card = identity(before) == identity(card)
        fields = [] if same_card else field_changes(before, card, new.locator, (component.location, game.location))
        faces = []
        if changed_inputs or not same_setting or identity(before)[0] != identity(card)[0]:
            for s in SIDES:
                was_face, face = old.render(old_game, old_component, before, s), new.render(game, component, card, s)
                if (was_face is None) != (face is None) or (face and (was_face.key != face.key or pixels_only)):
                    faces.append(FaceChange(s, was_face, face, old_component, component))
        if fields or faces:
            because = [] if fields else (find_causes(faces, changed_inputs, face_templates) + changed_settings(
                gather_setting(old_game, old_component), gather_setting(game, component)))
            found.append(CardChange(game.id, component.id, "changed", j + 1, card_caption(card, component), card,
                                    before, fields, faces, because))
    return found


SETTINGS = ("game id", "game title", "component id", "component name", "kind", "shape", "size", "bleed", "front", "back")


def gather_setting(game: Game, component: Component) -> tuple:
    """Everything of the game and component a face's rendering reads besides the card's fields (see SETTINGS)."""
    return (game.id, game.title, component.id, component.name, component.kind, component.shape, component.size,
            component.bleed, component.front, component.back)


def changed_settings(before: tuple, after: tuple) -> list[str]:
    """The game's and component's settings that changed, as causes: "the component's size"."""
    return [f"the {name}" if name.startswith(("game", "component")) else f"the component's {name}"
            for name, old, new in zip(SETTINGS, before, after) if old != new]


def find_causes(faces: list[FaceChange], changed_inputs: list[str], face_templates: set[str]) -> list[str]:
    """The changed files that explain faces whose card data did not change: the faces' own templates, and the
    shared files (partials, icons, images, fonts); other components' templates are not the cause."""
    own = {f"templates/{face.new.template}" for face in faces if face.new}
    return [name for name in changed_inputs if name in own or name not in face_templates]


def pair_cards(old: Sequence[Card], new: Sequence[Card]) -> list[tuple[int | None, int | None]]:
    """(old index, new index) pairs in new order: equal cards by longest common run, and within each edited
    run the most alike cards; a card alike to none on the other side is added (None, j) or removed (i, None)."""
    matcher = SequenceMatcher(None, [identity(c) for c in old], [identity(c) for c in new], autojunk=False)
    varying = find_varying_fields([*old, *new])
    pairs: list[tuple[int | None, int | None]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs += [(i1 + k, j1 + k) for k in range(i2 - i1)]
            continue
        chosen = pair_alike(old, new, range(i1, i2), range(j1, j2), varying)
        by_new = {j: i for i, j in chosen.items()}
        pairs += [(i, None) for i in range(i1, i2) if i not in chosen]
        pairs += [(by_new.get(j), j) for j in range(j1, j2)]
    return pair_moved(pairs, old, new)


def identity(card: Card) -> tuple:
    """What makes two cards the same card, as a tuple compared far faster than Fields mappings."""
    return tuple(card.fields.items()), card.copies


def pair_moved(pairs: list, old: Sequence[Card], new: Sequence[Card]) -> list:
    """A card taken out in one place and put back unchanged in another was moved, not removed and added."""
    gone: dict[tuple, list[int]] = {}
    for i, j in pairs:
        if j is None:
            gone.setdefault(identity(old[i]), []).append(i)
    moved = {}
    for i, j in pairs:
        if i is None and gone.get(identity(new[j])):
            moved[j] = gone[identity(new[j])].pop(0)
    taken = set(moved.values())
    return [(moved.get(j, i), j) for i, j in pairs if not (j is None and i in taken)]


def pair_alike(old, new, olds: range, news: range, varying: set[str]) -> dict[int, int]:
    """Match the most alike cards of an edited run (at least half their telling fields equal), nearest first."""
    scored = []
    for i in olds:
        for j in news:
            names = [n for n in varying if n in old[i].fields or n in new[j].fields]
            same = sum(old[i].fields.get(n) == new[j].fields.get(n) for n in names) + (old[i].copies == new[j].copies)
            names.append("copies")
            if 2 * same >= len(names):
                scored.append((-same, abs((i - olds.start) - (j - news.start)), i, j))
    chosen, used = {}, set()
    for _, _, i, j in sorted(scored):
        if i not in chosen and j not in used:
            chosen[i] = j
            used.add(j)
    return chosen


def find_varying_fields(cards: Sequence[Card]) -> set[str]:
    """The fields that tell cards apart: not the same on every card (defaults say nothing about identity)."""
    names = {name for card in cards for name in card.fields}
    return {n for n in names if len({repr(card.fields.get(n)) for card in cards}) > 1}


def field_changes(old: Card, new: Card, locator: "FieldLocator", owners: Sequence[Location] = ()) -> list[FieldChange]:
    """The fields (and copies) that differ; owners: where the component and game are written, for defaults."""
    names = list(dict.fromkeys([*new.fields, *old.fields]))
    changes = [FieldChange(n, old.fields.get(n), new.fields.get(n), locator.find(new, n, owners))
               for n in names if old.fields.get(n) != new.fields.get(n) or (n in old.fields) != (n in new.fields)]
    if old.copies != new.copies:
        changes.append(FieldChange("copies", old.copies, new.copies, locator.find(new, "copies")))
    return changes


class FieldLocator:
    """Finds the file:line:col of a card's field by reading the YAML files again (once per file): in the card's
    own mapping, else in its component's or game's defaults (where a field every card shares is written)."""

    def __init__(self, root: Path):
        self.root = root
        self.maps: dict[str, dict[Location, LMap]] = {}

    def mapping_at(self, where: Location) -> LMap | None:
        maps = self.maps.get(where.file)
        if maps is None:
            maps = self.maps[where.file] = {}
            try:
                value, _ = load_file(self.root / where.file, self.root)
            except (PnpError, OSError, ValueError):
                value = None
            collect_maps(value, maps)
        return maps.get(where)

    def find(self, card: Card, name: str, owners: Sequence[Location] = ()) -> Location:
        written = dict(card.cells)  # the card's own fields: a YAML value, or a spreadsheet's cell
        if name in written:
            return written[name]
        own = self.mapping_at(card.location)
        if own is not None and name in own:
            return own.where(name)
        for where in owners:
            defaults = (self.mapping_at(where) or {}).get("defaults")
            if isinstance(defaults, LMap) and name in defaults:
                return defaults.where(name)
        return card.location


def collect_maps(value, into: dict) -> None:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, LMap):
            into.setdefault(node.loc, node)
            stack.extend(node.values())
        elif isinstance(node, LList):
            stack.extend(node)
