"""Turn loaded YAML values into the frozen model, reporting every problem at once."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from .. import units
from ..errors import Collector, Location, PnpError
from .editions import edition, gather_texts
from .languages import read_languages, read_text
from .load import LList, LMap, find_file, load_file
from .model import Card, Component, Fields, Game, Project
from .schema import check_keys, see_readme
from .source import find_source
from .shape import check_size, describe_outline, read_shape
from .sheets import list_sheet_files, with_sheet_cards
from .validate_cards import MAX_PIECES, locate_fields, locate_nested, read_cards
from .validate_layout import empty_mapping, read_layout
from .validate_expectations import validate_expectations, validate_figures, validate_notes
from .validate_terms import validate_terms
from .validate_pieces import read_box, read_standee, tie_boxes
from .validate_values import as_list, describe, read_fields, read_players, read_value

KINDS = ("card", "chip", "map", "sheet", "box", "standee")


def load_project(path: Path) -> Project:
    """Load cards.yaml (a folder holding it, or the file itself) and every file it includes."""
    source = find_source(path)
    root = source.parent.resolve()
    if not source.exists():
        raise PnpError("no project here; expected a folder holding cards.yaml or a path to a YAML file", Location(str(source)))
    problems = Collector()
    files: list[Path] = []
    games_raw: list[tuple[LMap, Path]] = []
    settings: list[LMap] = []
    read_tree(source.resolve(), root, problems, files, games_raw, [], project_out=settings)
    problems.raise_if_any()
    project_raw = settings[0] if settings else empty_mapping(Location(source.name))
    check_keys(project_raw, "project", problems)
    name = read_value(project_raw, "name", "text", problems, default=root.name)
    font = read_value(project_raw, "font", "text", problems, default="Noto Sans JP")
    thickness = read_value(project_raw, "card_thickness", "length", problems, default=Project.card_thickness)
    languages = read_languages(project_raw, problems)
    games = tuple(g for g in (validate_game(raw, base, root, problems, thickness, languages)
                              for raw, base in games_raw) if g)
    check_unique([(g.id, g.location) for g in games], "game id", problems)
    problems.raise_if_any()
    files += list_sheet_files(games, root)
    project = Project(root=root, source=source.resolve(), name=name, games=games, default_font=font,
                      files=tuple(files), card_thickness=thickness)
    if len(languages) < 2:  # one language: the project as read, exactly
        return dataclasses.replace(project, languages=languages, language=languages[0]) if languages else project
    project = gather_texts(project, languages, problems)
    problems.raise_if_any()
    return edition(project)


def read_tree(path, root, problems, files, games_raw, stack, project_out=None, included_at=None):
    """Read one YAML file and, depth first, the files it includes; only the top one's `project:` goes to project_out."""
    try:
        data, shown = load_file(path, root)
    except PnpError as err:
        for problem in err.problems:
            suffix = f" (included at {included_at})" if included_at else ""
            problems.add(problem.location, problem.message + suffix)
        return
    files.append(path)
    if data is None:
        problems.add(Location(shown), "the file is empty; expected a mapping with 'games:' (and 'include:')")
        return
    if not isinstance(data, LMap):
        problems.add(getattr(data, "loc", Location(shown)), "expected a mapping with 'games:' (and 'include:') at the top of the file")
        return
    check_keys(data, "file", problems)
    if "project" in data:
        if project_out is None:
            problems.add(data.where_key("project"), "'project:' belongs in the top-level cards.yaml only")
        elif isinstance(data["project"], LMap):
            project_out.append(data["project"])
        else:
            problems.add(data.where("project"), f"'project' must be a mapping of settings such as {{name: …, font: …}}; "
                                                f"found {describe(data['project'])}")
    for index, game in enumerate(as_list(data, "games", problems)):
        if isinstance(game, LMap):
            games_raw.append((game, path.parent))
        else:
            problems.add(data["games"].where(index), "expected a game: a mapping with id, title and components")
    for index, reference in enumerate(as_list(data, "include", problems)):
        where = data["include"].where(index)
        target = find_file(root, path.parent, reference, where, "YAML file", problems, lambda found:
                           f"included file '{reference}' {found}; expected a YAML file inside the project")
        if target is None:
            continue
        if target in stack or target == path:
            problems.add(where, f"'{reference}' includes itself (a cycle); expected each file included once")
            continue
        if target in files:  # a second time would read its games twice (and a fan-out of includes for ever)
            problems.add(where, f"'{reference}' is already included; expected each file included once")
            continue
        read_tree(target, root, problems, files, games_raw, stack + [path], included_at=where)


def check_unique(pairs: list[tuple[str, Location]], what: str, problems: Collector) -> None:
    seen: dict[str, Location] = {}
    for value, location in pairs:
        if value in seen:
            problems.add(location, f"duplicate {what} '{value}' (first at {seen[value]}); expected each {what} once")
        else:
            seen[value] = location


def check_reserved(game_id: str, components: list[Component], problems: Collector) -> None:
    """A component's PDF must not overwrite, or be overwritten by, a file the build makes for the game."""
    reserved = {f"{game_id}-print-and-play": "the game's print-and-play PDF", "rulebook": "the rulebook",
                "rules-sheet": "the rules sheet"}
    for component in components:
        if component.id in reserved:
            problems.add(component.location, f"component id '{component.id}' is the name of {reserved[component.id]} "
                                             f"({game_id}/{component.id}.pdf); expected another id")


def validate_game(raw: LMap, base: Path, root: Path, problems: Collector, thickness: float = Project.card_thickness,
                  languages: tuple[str, ...] = ()) -> Game | None:
    check_keys(raw, "game", problems)
    game_id = read_value(raw, "id", "id", problems)  # a bad id is reported; the rest is still checked
    defaults = read_fields(raw, "defaults", problems)
    figures = validate_figures(raw, problems, languages)
    if figures:  # templates print rule figures as card.figures.NAME, so the text follows the data
        defaults = defaults.merged({"figures": Fields({f.name: f.value for f in figures})})
    components_raw = as_list(raw, "components", problems)
    by_id: dict[str, LMap] = {}
    for index, item in enumerate(components_raw):
        if not isinstance(item, LMap):
            problems.add(components_raw.where(index), "expected a component: a mapping with id and front")
            continue
        cid = item.get("id")
        if isinstance(cid, str):
            by_id.setdefault(cid, item)
    components = []
    for item in components_raw:
        if isinstance(item, LMap):
            merged = resolve_extends(item, by_id, problems)
            component = validate_component(merged, game_id or "", defaults, root, problems, thickness, languages)
            if component:
                components.append(component)
    check_unique([(c.id, c.location) for c in components], "component id", problems)
    check_reserved(game_id or "", components, problems)
    components = tie_boxes(components, problems)
    players = read_players(raw, "players", problems)
    document = read_value(raw, "document", "text", problems)
    game = Game(
        id=game_id or "",
        title=read_text(raw, "title", languages, problems, default=game_id),
        document=document,
        players=players,
        components=tuple(components),
        expectations=validate_expectations(raw, players, {c.id for c in components}, problems, languages),
        figures=figures,
        notes=validate_notes(raw, problems),
        terms=validate_terms(raw, document, problems),
        defaults=defaults,
        default_places=tuple(locate_nested(raw.get("defaults"), "defaults.")),
        location=raw.loc,
        rulebook=read_rulebook(raw, "rulebook", root, problems),
        rules_sheet=read_rulebook(raw, "rules_sheet", root, problems),
    )
    return game if game_id else None


def read_rulebook(raw: LMap, key: str, root: Path, problems: Collector) -> str | None:
    if key not in raw:
        return None
    path = find_file(root, root, raw[key], raw.where(key), "Markdown file", problems,
                     lambda _: f"'{raw[key]}' not found; expected a Markdown file, relative to the project")
    return str(path) if path is not None else None


def resolve_extends(item: LMap, by_id: dict[str, LMap], problems: Collector) -> LMap:
    """Merge the keys of the component named by `extends` (transitively) under this one's."""
    chain = [item]
    while "extends" in chain[-1]:
        parent_id = chain[-1]["extends"]
        parent = by_id.get(parent_id) if isinstance(parent_id, str) else None
        if parent is None:
            problems.add(chain[-1].where("extends"), f"'extends: {parent_id}' names no component of this game; expected one of: {', '.join(by_id)}")
            break
        if parent in chain:
            problems.add(chain[-1].where("extends"), f"'extends: {parent_id}' makes a cycle; expected a chain that ends")
            break
        chain.append(parent)
    merged = empty_mapping(item.loc)
    for source in reversed(chain):
        for key, value in source.items():
            if source is not item and key in ("id", "extends"):
                continue
            if value is None and source is item and key in merged and len(chain) > 1:
                del merged[key]  # `key: null` drops what the component extended (`matrix: null`: its own cards only)
                continue
            merged[key] = value
            merged.key_locs[key] = source.where_key(key)
            merged.value_locs[key] = source.where(key)
    return merged


def validate_component(raw: LMap, game_id: str, game_defaults: Fields, root: Path, problems: Collector,
                       thickness: float, languages: tuple[str, ...] = ()) -> Component | None:
    check_keys(raw, "component", problems)
    if isinstance(raw.get("cards"), LMap):  # cards: {from: data/deck.xlsx, …}
        raw = with_sheet_cards(raw, root, problems)
    cid = read_value(raw, "id", "id", problems)  # a bad id is reported; the rest is still checked
    kind = read_value(raw, "kind", "choice:" + ",".join(KINDS), problems, default="box" if "box" in raw else "card")
    shape, outline = read_shape(raw, problems)
    if kind in ("box", "standee") and shape != "rect":
        problems.add(raw.where("shape"), f"a {kind} is cut by its own dieline; expected no 'shape' (or rect)")
    size = check_size(shape, outline, raw, problems)
    if outline is not None:
        outline = dataclasses.replace(outline, d=describe_outline(outline, size))
    bleed = read_value(raw, "bleed", "length", problems, default=units.mm(3))
    safe = read_value(raw, "safe", "length", problems, default=units.mm(3))
    if "front" not in raw and kind != "box":
        problems.add(raw.loc, "missing 'front' in component; expected front: front template, relative to "
                              f"`templates/`{see_readme('component')}")
    front = read_template(raw, "front", root, problems)
    back = read_template(raw, "back", root, problems) if "back" in raw else None
    defaults = game_defaults.merged(read_fields(raw, "defaults", problems))
    copies = read_value(raw, "copies", "count", problems, default=1)
    if "box" in raw and kind != "box":
        problems.add(raw.where_key("box"), f"'box' belongs to a component of kind box, not {kind}; expected kind: box")
    reported = len(problems.problems)
    if kind == "box":
        box = read_box(raw, thickness, problems, lambda mapping, key: read_template(mapping, key, root, problems))
        cards = (Card(defaults, 1, raw.loc),)  # a box is one piece; tie_boxes adds its deck's fields
    else:
        box = None
        cards = tuple(read_cards(raw, defaults, copies, problems))
    # a malformed cards: or matrix: (or one read from a sheet) is reported already; an empty matrix: {} too
    malformed = (len(problems.problems) > reported or ("cards" in raw and not isinstance(raw["cards"], LList))
                 or ("matrix" in raw and (not isinstance(raw["matrix"], LMap) or not raw["matrix"])))
    if not cards and not malformed:  # a malformed cards: or matrix: is reported already
        problems.add(raw.loc, f"component '{cid}' has no cards; expected 'cards:' or 'matrix:'")
    elif sum(card.copies for card in cards) > MAX_PIECES:
        problems.add(raw.loc, f"component '{cid}' makes more than {MAX_PIECES} pieces; expected a printable number")
    component = Component(
        id=cid or "",
        name=read_text(raw, "name", languages, problems, default=cid),
        kind=kind,
        size=size,
        shape=shape,
        bleed=bleed,
        front=front or "",
        back=back,
        double_sided=bool(read_value(raw, "double_sided", "bool", problems, default=False)),
        layout=read_layout(raw, kind, shape, problems),
        cards=cards,
        location=raw.loc,
        game_id=game_id,
        outline=outline,
        box=box,
        standee=read_standee(raw, problems) if kind == "standee" else None,
        safe=safe,
        field_locations=locate_fields(raw),
    )
    return component if cid else None


def read_template(raw: LMap, key: str, root: Path, problems: Collector) -> str | None:
    value = raw.get(key)
    where = raw.where(key)
    if value is None:
        return None
    templates = root / "templates"
    target = find_file(root, templates, value, where, "template", problems,
                       lambda found: f"template '{value}' {found}; expected a file under templates/")
    if target is None:
        return None
    if not target.is_relative_to(templates.resolve()):
        problems.add(where, f"'{value}' is not under templates/; expected a template such as front.svg.j2")
        return None
    return target.relative_to(templates.resolve()).as_posix()
