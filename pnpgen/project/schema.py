"""Declare every YAML key pnpgen accepts, with its type and meaning (the validator and the docs read this)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..errors import Collector
from .load import LMap


@dataclass(frozen=True)
class Key:
    name: str
    kind: str  # how the value is read; see validate.read_value
    doc: str
    required: bool = False
    default: str = ""  # as shown in the docs


RULE_KINDS = ("rounding", "direction", "choice", "order", "tie-break", "limit")  # rules figures state in words

SECTIONS: dict[str, tuple[Key, ...]] = {
    "file": (
        Key("project", "mapping", "Project-wide settings (only in the top-level `cards.yaml`)."),
        Key("include", "list of paths", "Further YAML files with the same top-level keys, relative to this file."),
        Key("games", "list of games", "The games of the project."),
    ),
    "project": (
        Key("name", "text", "The project's name, shown in PDF metadata.", default="the folder name"),
        Key("font", "text", "Default font family for `text()`.", default="Noto Sans JP"),
        Key("card_thickness", "length", "Thickness of one card, for the depth of tuck boxes.", default="0.30mm"),
        Key("languages", "list of language codes", "The languages of the project's editions, the original first: "
            "`[ja, en]`. A text field may then give one value per language (`name: {ja: 東風, en: East Wind}`, or "
            "`name@en` beside `name`); `pnpgen build --lang en` builds the English edition.", default="one language"),
    ),
    "game": (
        Key("id", "id", "Unique id: lower-case letters, digits and `-`; names the output folder.", required=True),
        Key("title", "text", "The game's title.", required=True),
        Key("document", "text", "The design document the data comes from."),
        Key("players", "players", "Supported player counts: `{min: 3, max: 4}` or a list `[3, 4]`."),
        Key("defaults", "fields", "Template variables for every component of the game."),
        Key("components", "list of components", "Decks, chip sheets, maps.", required=True),
        Key("expectations", "list of expectations", "Figures the data must match (`pnpgen check`)."),
        Key("notes", "list of notes", "Assumptions and gaps in the documents, reported as warnings."),
        Key("terms", "list of terms", "Game terms the documents use (【河】, 横倒し), each with the phrase that defines "
            "it or `undefined:` the reading the data assumes; `pnpgen check` fails on a term no document defines and no "
            "entry declares."),
        Key("figures", "figures", "Rule figures (rounds, VP values, thresholds, rules such as `players - bullet`) with their quotes; rulebooks read them as `figure('name')`, templates as `card.figures.name`."),
        Key("rulebook", "path", "Markdown rulebook source, relative to the project; built as `rulebook.pdf`."),
        Key("rules_sheet", "path", "Markdown source of a one-page rules sheet (player aid); built as `rules-sheet.pdf`."),
    ),
    "component": (
        Key("id", "id", "Unique within the game; names the PDF.", required=True),
        Key("name", "text", "Display name.", default="the id"),
        Key("extends", "id", "Another component of the game whose keys this one inherits; `key: null` drops an inherited key (`matrix: null`: only this component's own `cards:`)."),
        Key("kind", "choice:card,chip,map,sheet,box,standee", "What it is; chips are laid out with a gap and cut lines; "
            "a box is a tuck box for a deck (`box:`); a standee is a figure folded over a base (`standee:`).",
            default="card (box when `box:` is given)"),
        Key("size", "size", "A preset (poker, bridge, mini, euro, tarot, square) or `{width: 63mm, height: 88mm}`; "
            "a hex needs only one of width and height.", default="poker"),
        Key("shape", "shape", "`rect`, `round` (circular cut lines), `hex` or `{hex: pointy}` (regular hexes packed "
            "edge to edge, sharing cuts), `{rounded: 3mm}` (corner radius) or `{path: \"M0 0 H40 V30 L20 45 L0 30 Z\"}` "
            "(an SVG path in mm; it sets the size). Cut lines and bleed follow the outline.", default="rect"),
        Key("bleed", "length", "Background beyond the trim.", default="3mm"),
        Key("safe", "length", "How far inside the trim text and elements marked `data-safe` stay (`SAFE` in "
            "templates; `pnpgen preflight` holds faces to it).", default="3mm"),
        Key("front", "template", "Front template, relative to `templates/` (a box: its front panel).",
            default="required; for a box the deck's back"),
        Key("back", "template", "Back template; rendered per piece with the same `card`."),
        Key("double_sided", "bool", "Backs carry information and must line up (mirrored back pages).", default="false"),
        Key("layout", "layout", "How pieces sit on the sheet."),
        Key("defaults", "fields", "Template variables for every card of the component."),
        Key("copies", "count", "Default copies of each card.", default="1"),
        Key("cards", "list of cards or sheet", "The cards, each a mapping of fields plus `copies` and `tbd`; or "
                                               "`{from: data/deck.xlsx, sheet: 闘牌}` to read them from a spreadsheet."),
        Key("matrix", "matrix", "Generate cards as the product of axes: `{suit: [a, b], number: {from: 1, to: 11}}`."),
        Key("box", "box", "Makes the component a tuck box for a deck: `{deck: battle-cards}`."),
        Key("standee", "standee", "How a standee stands: `{base: fold}`."),
    ),
    "box": (
        Key("deck", "id", "The component (of this game) the box holds; the box is sized from its card size and count.",
            required=True),
        Key("clearance", "length", "Room added to the card's width and height and to the deck's depth.", default="1mm"),
        Key("thickness", "length", "Thickness of one card.", default="the project's card_thickness"),
        Key("sleeves", "bool", "Sleeved cards: 3 mm wider and higher, 0.1 mm thicker each.", default="false"),
        Key("front", "template", "Front panel template (the component's `front:` does the same).",
            default="the deck's back template, else pnpgen/box-front.svg.j2"),
        Key("back", "template", "Back panel template.", default="the deck's back template, else pnpgen/box-front.svg.j2"),
        Key("side", "template", "Template of the two side panels.", default="pnpgen/box-side.svg.j2"),
        Key("end", "template", "Template of the top and bottom end panels.", default="pnpgen/box-end.svg.j2"),
        Key("flap", "template", "Template of the tuck and dust flaps.", default="pnpgen/box-flap.svg.j2"),
    ),
    "standee": (
        Key("base", "choice:fold,slot,none", "`fold`: a base flap at each foot, folded out to stand on; `slot`: a "
            "base card cut beside the feet, with a slit the folded feet slide into; `none`: no base.", default="fold"),
        Key("base_depth", "length", "How deep each base flap, or the base card, is.", default="20mm"),
    ),
    "layout": (
        Key("gap", "length", "Space between neighbouring trims.", default="0mm for cards, 3mm for chips"),
        Key("crop_marks", "bool", "Crop marks outside the grid.", default="true for rect, false for round"),
        Key("cut_lines", "bool", "Outline every trim.", default="true for chips"),
        Key("paper", "choice:a4,letter,a3,a5,tabloid", "Paper for this component, overriding `--paper`."),
    ),
    "card": (
        Key("copies", "count", "How many of this card.", default="the component's copies"),
        Key("tbd", "tbd", "Fields still holding placeholder text (`true` for all text fields)."),
    ),
    "sheet": (
        Key("from", "path", "The spreadsheet, relative to the project: `.csv` or `.tsv` (UTF-8 with or without BOM, "
                            "UTF-16, or Shift_JIS/CP932; comma or tab), `.xlsx`, `.xlsm`, `.xls` or `.ods`.", required=True),
        Key("sheet", "text", "The tab to read (not for CSV).", default="the first tab"),
        Key("header", "count", "The row that names the fields; the rows below it are the cards, one a row.", default="1"),
        Key("copies", "text", "The column giving each card's copies.", default="copies"),
        Key("types", "mapping", "Column types where the sheet is ambiguous: `text`, `number`, `bool`, or `yaml` for "
                                "lists and mappings written as `[a, b]`: `{code: text, tags: yaml}`."),
    ),
    "expectation": (
        Key("total", "id", "Component whose piece count must equal `equals`."),
        Key("distribution", "id", "Component whose counts by the field `by` must equal the mapping `equals`."),
        Key("per", "id", "Component whose every owner (the field `by`) has exactly `each` pieces."),
        Key("setup", "id", "Component whose use at each player count is checked."),
        Key("combinations", "id", "Component in which every combination of the fields `of` occurs exactly once (each value of each field crossed with every other)."),
        Key("names", "text", "A field whose names must be the same in every component `in` (and, with `equals`, the names the document lists)."),
        Key("invariant", "id", "Component whose every card must satisfy the expression `holds` (`where:` narrows); each card that breaks it is reported where it is written."),
        Key("holds", "expression", "The relation every card of an `invariant` satisfies, over `card` (and `players`, the game's player counts): `card.number == 12`, `card.ron or 'チップが減る' not in card.effect`; a number a field is compared with must be one the quote states."),
        Key("in", "list of ids", "The components that share the names (with `names`); `defaults.NAME` stands for the keys of a game default such as `defaults.race_style`."),
        Key("of", "list of fields", "The fields whose combinations must each occur once (with `combinations`)."),
        Key("by", "text", "The field to group by."),
        Key("where", "expression", "Only pieces for which this expression over `card` is true."),
        Key("equals", "figure", "The expected figure: a count, a mapping of value to count, (setup) an expression of `players`, or (names) the list of names."),
        Key("each", "figure", "Pieces each owner has (with `per`)."),
        Key("owners", "figure", "How many owners there are (with `per`)."),
        Key("players", "players", "Player counts a setup applies to.", default="the game's"),
        Key("remove", "expression", "Pieces removed at this player count (expression over `card`, `players`); the values removed must be the ones the quote names."),
        Key("use", "expression", "Pieces used at this player count (instead of `remove`)."),
        Key("deal", "figure", "Pieces dealt to each player (the hand size)."),
        Key("set_aside", "figure", "Pieces set aside before play (e.g. the dead wall, 王牌)."),
        Key("turns", "figure", "Pieces each player draws over the game."),
        Key("stated_needed", "figure", "The total the document's own formula states (hands + draws)."),
        Key("rest", "text", "Where the pieces not dealt, drawn or set aside go; without it, pieces left over are a warning."),
        Key("source", "source", "The document and the quoted phrase that state the figures."),
        Key("known", "mapping", "A known contradiction in the document, per figure: `{needed: \"why\"}` (the why one per language in a project of several: `{ja: …, en: …}`); only that figure's failure becomes a warning."),
    ),
    "cited": (
        Key("value", "figure", "The figure (or, for `remove`, the expression).", required=True),
        Key("quote", "text", "The phrase of the expectation's document that states this figure."),
        Key("assumed", "text", "Instead of `quote`: why the figure stands although the document does not state it (reported as an assumption; one per language in a project of several, as the rulebook's list of assumed figures prints it)."),
    ),
    "figure": (
        Key("value", "figure", "A number, or an expression of `inputs` such as `players - bullet`; with `kind`, the document's word for the rule (切り捨て, 時計回り, ランダム, 小さい, しか, 全て).", required=True),
        Key("kind", "choice:" + ",".join(RULE_KINDS), "A rule in words, not a number: `rounding` (切り捨て／切り上げ), `direction` (時計回り／反時計回り), `choice` (ランダム／好きな), `order` (小さい順／大きい順), `tie-break` (最も大きい／小さい, 近い方), `limit` (しか・まで／以上／全て). Every sentence of the rulebooks and card text that has one of its `words` and a word of that kind must say the same; `pnpgen check` reports the one that does not."),
        Key("quote", "text", "The phrase of the game's `document:` that states the figure."),
        Key("source", "source", "The document and phrase, when it is not the game's document."),
        Key("words", "list of words", "Nouns that tie a number in rulebook prose or card text to this figure (トリック, マジョリティボーナス)."),
        Key("words@LANG", "list of words", "The `words` of an edition in another language (`words@en: [majority bonus]`): numbers in that edition's rulebooks and card text tie to the figure by them."),
        Key("inputs", "list of names", "The names an expression figure takes, such as [players, bullet]."),
        Key("examples", "list of mappings", "Inputs and the `value` the document states for them: `{players: 4, bullet: 1, value: 3}`."),
        Key("ranges", "mapping", "The values each input other than `players` takes, from and to (numbers or expressions of `players`): `{survivors: {from: 1, to: players - 1}}`. The figure is then evaluated at every player count of the game and every value of its inputs: each must be a whole number, rounded as the quote says (端数切捨て, 切り上げ)."),
        Key("assumed", "text", "Why the figure stands although the document does not state it (reported as an assumption; one per language in a project of several)."),
        Key("in", "list of paths", "The data templates print the figure from, each value of which must equal it: `defaults.area_style.*.iwakura` (a game default; `*` is every key or item), `area-map.sheets` (a field of every card of a component), `race-cards.skills|length` (how many items it holds)."),
    ),
    "note": (
        Key("assumption", "text", "What was assumed where the document is silent."),
        Key("gap", "text", "What the document leaves blank."),
        Key("source", "source", "The document and the quoted phrase."),
    ),
    "term": (
        Key("term", "text", "The term as the document or rulebook writes it, without its brackets: `河`, `横倒し`.",
            required=True),
        Key("quote", "text", "The phrase of the game's `document:` that defines the term (it must name the term)."),
        Key("source", "source", "The document and phrase, when it is not the game's document."),
        Key("undefined", "text", "Instead of `quote`: how the data reads the term the documents never define, and why "
            "(reported as an assumption and listed in the rulebook)."),
    ),
    "source": (
        Key("document", "text", "The design document's file name.", required=True),
        Key("quote", "text", "The exact phrase, as written in the document.", required=True),
    ),
}


TITLES = {  # the headings of the YAML reference (docs/reference/yaml.md), which messages point to
    "file": "Top level (`cards.yaml` and included files)",
    "project": "`project:`",
    "game": "A game (`games:` item)",
    "component": "A component (`components:` item)",
    "layout": "`layout:` of a component",
    "box": "`box:` of a component (a tuck box)",
    "standee": "`standee:` of a component",
    "card": "A card (`cards:` item) — any other key is a field the templates see",
    "sheet": "Cards from a spreadsheet (`cards: {from: …}`) — a row a card, a column a field",
    "expectation": "An expectation (`expectations:` item) — exactly one of total, distribution, per, setup, combinations, names, invariant",
    "cited": "A figure with its own quote (`deal: {value: 3, quote: …}`) or reason (`owners: {value: 5, assumed: …}`)",
    "figure": "A rule figure (`figures:` item)",
    "note": "A note (`notes:` item)",
    "term": "A term (`terms:` item)",
    "source": "`source:` of an expectation, note or term",
}


def see_readme(section: str) -> str:
    heading = TITLES[section].split(" (")[0].split(" —")[0].replace("`", "")
    return f" (docs: YAML reference, “{heading}”)"


def check_keys(mapping: LMap, section: str, problems: Collector) -> None:
    """Report unknown keys (with a suggestion) and missing required keys of one mapping."""
    keys = {key.name: key for key in SECTIONS[section]}
    for name in mapping:
        if name not in keys and f"{str(name).split('@')[0]}@LANG" not in keys:  # words@en: one key per language
            close = difflib.get_close_matches(str(name), list(keys), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else "expected one of: " + ", ".join(keys)
            problems.add(mapping.where_key(name), f"unknown key '{name}' in {section}; {hint}{see_readme(section)}")
    for key in keys.values():
        if key.required and key.name not in mapping:
            problems.add(mapping.loc, f"missing '{key.name}' in {section}; expected {key.name}: "
                                      f"{key.doc[0].lower()}{key.doc[1:].rstrip('.')}{see_readme(section)}")
