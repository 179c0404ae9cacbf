"""Turn a component's `cards: {from: data/deck.xlsx, …}` into card mappings whose every value cites its cell."""
from __future__ import annotations

import difflib
import re
import unicodedata
from pathlib import Path

from ..errors import Collector, Location, PnpError
from .load import LList, LMap, display_path, find_file, parse_yaml
from .schema import check_keys
from .sheet_files import MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, SUFFIXES, Grid, read_grid
from .validate_values import describe, read_value

TYPES = ("text", "number", "bool", "yaml")
NUMBER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", re.ASCII)
TBD_SEPARATORS = re.compile(r"[,、，\s]+")
EXACT_FLOAT = 2 ** 53  # beyond this a float does not hold every whole number


def with_sheet_cards(raw: LMap, root: Path, problems: Collector) -> LMap:
    """raw with `cards:` read from the sheet it names; `cards: None` when the sheet could not be read (reported)."""
    out = LMap(raw)
    out.loc, out.key_locs, out.value_locs = raw.loc, dict(raw.key_locs), dict(raw.value_locs)
    out["cards"] = read_sheet(raw["cards"], root, problems)
    return out


def list_sheet_files(games, root: Path) -> list[Path]:
    """Every spreadsheet the cards of these games were read from, for watch and the caches."""
    named = (place.file for game in games for component in game.components for card in component.cards
             if (place := card.location).sheet is not None)
    return [root / name for name in dict.fromkeys(named)]


def read_sheet(spec: LMap, root: Path, problems: Collector) -> LList | None:
    """The rows of the sheet `spec` names, one card mapping a row; None (reported) when it cannot be read."""
    check_keys(spec, "sheet", problems)
    if "from" not in spec:
        return None
    where = spec.where("from")
    path = find_file(root, root, spec["from"], where, "spreadsheet", problems,
                     lambda found: f"'{spec['from']}' {found}; expected a spreadsheet ({SUFFIXES}) inside the project")
    if path is None:
        return None
    sheet = read_value(spec, "sheet", "text", problems)
    header = read_value(spec, "header", "count", problems, default=1)
    if header == 0:
        problems.add(spec.where("header"), "'header' counts rows from 1; expected the row that names the fields")
        return None
    copies = read_value(spec, "copies", "text", problems, default="copies")
    types = read_types(spec, problems)
    try:
        grid = read_grid(path, display_path(path, root), sheet, spec.where("sheet") if "sheet" in spec else where)
    except PnpError as err:
        problems.extend(err)
        return None
    reader = _RowReader(grid, header, copies or "copies", types, problems)
    if reader.columns is None:
        return None
    reader.check_named("copies", [(copies, spec.where("copies"))] if "copies" in spec and copies else [])
    reader.check_named("types", [(name, spec["types"].where_key(name)) for name in types])
    return reader.read_rows()


def read_types(spec: LMap, problems: Collector) -> dict[str, str]:
    value = spec.get("types")
    if value is None:
        return {}
    if not isinstance(value, LMap):
        problems.add(spec.where("types"), f"'types' must map columns to {', '.join(TYPES)}, such as {{number: text}}; "
                                          f"found {describe(value)}")
        return {}
    types = {}
    for name, kind in value.items():
        if kind in TYPES:
            types[str(name)] = kind
        else:
            problems.add(value.where(name), f"the type of column '{name}' must be one of {', '.join(TYPES)}; "
                                            f"found {describe(kind)}")
    return types


class _RowReader:
    """Reads the rows below a header row into card mappings, collecting every bad cell."""

    def __init__(self, grid: Grid, header: int, copies: str, types: dict[str, str], problems: Collector):
        self.grid, self.header, self.copies, self.problems = grid, header - 1 - grid.row0, copies, problems
        self.types = types
        self.ignored: set[int] = set()
        self.columns = self.read_header()

    def read_header(self) -> dict[int, str] | None:
        grid, row = self.grid, self.header
        cells = grid.rows[row] if 0 <= row < len(grid.rows) else []
        if all(is_blank(value) for value in cells):
            self.problems.add(grid.cell(row, -grid.col0), f"the header row {self.header + 1 + grid.row0} is "
                              "empty; expected the names of the fields (and copies) in it")
            return None
        columns: dict[int, str] = {}
        first: dict[str, int] = {}
        for index, value in enumerate(cells):
            name = show_cell(value).strip()
            if index >= MAX_COLUMNS:
                self.problems.add(grid.cell(row, index), f"more than {MAX_COLUMNS} columns; expected a card list")
                return None
            if not name:
                continue
            if name.startswith("#"):
                self.ignored.add(index)
            elif name in first:
                self.ignored.add(index)  # its cells are not read: the header is wrong, not each of them
                self.problems.add(grid.cell(row, index), f"column '{name}' appears twice (first at "
                                  f"{grid.cell(row, first[name])}); expected each field once")
            else:
                first[name] = index
                columns[index] = name
        return columns

    def check_named(self, key: str, names: list[tuple[str, Location]]) -> None:
        """Columns the YAML names must stand in the header row."""
        known = list(self.columns.values())
        for name, where in names:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
                hint = f"did you mean '{close[0]}'?" if close else f"expected one of: {', '.join(known)}"
                self.problems.add(where, f"'{key}' names the column '{name}', which is not in row "
                                         f"{self.header + 1 + self.grid.row0} of {Location(self.grid.shown, sheet=self.grid.sheet)}; {hint}")

    def read_rows(self) -> LList | None:
        grid = self.grid
        entries = LList()
        entries.loc, entries.item_locs = grid.cell(self.header, 0), []
        for row in range(self.header + 1, len(grid.rows)):
            if row - self.header > MAX_ROWS:
                self.problems.add(grid.cell(row, 0), f"more than {MAX_ROWS} card rows; expected a card list")
                return None
            entry = self.read_row(row)
            if entry is not None:
                entries.append(entry)
                entries.item_locs.append(entry.loc)
        if not entries:
            self.problems.add(grid.cell(self.header, 0), "no card rows below the header row; expected one row a card")
            return None
        return entries

    def read_row(self, row: int) -> LMap | None:
        grid, cells = self.grid, self.grid.rows[row]
        entry = LMap()
        entry.loc, entry.key_locs, entry.value_locs = grid.cell(row, -grid.col0), {}, {}
        for index, value in enumerate(cells):
            if is_blank(value) or index in self.ignored:
                continue
            where = grid.cell(row, index)
            name = self.columns.get(index)
            if name is None:
                self.problems.add(where, f"the cell holds {quote_cell(value)} but its column has no header; name the column "
                                         f"in row {self.header + 1 + grid.row0} (or start the name with # for notes)")
                continue
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                self.problems.add(where, f"the cell holds {len(value)} characters, more than {MAX_CELL_CHARS}; "
                                         "expected the text of a card")
                continue
            try:
                key, read = self.read_cell(name, value, grid.holds_text(row, index), where)
            except ValueError as err:
                self.problems.add(where, str(err))
                continue
            entry[key] = read
            entry.key_locs[key] = grid.cell(self.header, index)
            entry.value_locs[key] = where
        return entry if entry.value_locs else None

    def read_cell(self, name: str, value, typed: bool, where: Location) -> tuple[str, object]:
        if name == self.copies:
            copies = guess_type(value, typed)
            if isinstance(copies, int) and not isinstance(copies, bool) and copies >= 0:
                return "copies", copies
            raise ValueError(f"{name} must be a whole number ≥ 0, got {quote_cell(value)}")
        if name == "tbd":
            return "tbd", read_tbd(value, typed, where)
        return name, convert(name, value, self.types.get(name), typed, where)


def is_blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def show_cell(value) -> str:
    """A cell as the sheet shows it: 7 not 7.0, TRUE not True."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        value = make_whole(value)
    return str(value).replace("\r\n", "\n")


def quote_cell(value) -> str:
    return f'"{value}"' if isinstance(value, str) else show_cell(value)


def make_whole(number: float):
    """7.0 -> 7: a sheet stores every number as a float, and the designer typed 7."""
    return int(number) if number.is_integer() and abs(number) < EXACT_FLOAT else number


def guess_type(value, cells_typed: bool):
    """What a cell holds when no type is declared: numbers and TRUE/FALSE as such, anything else as text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return make_whole(float(value))
    text = value.replace("\r\n", "\n")
    if cells_typed:
        return text  # the spreadsheet says it is text (a number typed as text stays text)
    word = text.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    if NUMBER.fullmatch(word) and not re.match(r"[-+]?0[0-9]", word):  # 007 is a code, not seven
        return parse_number(word)
    return text


def parse_number(word: str):
    return make_whole(float(word)) if any(c in word for c in ".eE") else int(word)


def convert(name: str, value, kind: str | None, cells_typed: bool, where: Location):
    """A cell as its column's declared type, or as guess_type says when none is declared."""
    if kind is None:
        return guess_type(value, cells_typed)
    if kind == "text":
        return show_cell(value)
    if kind == "yaml":
        return read_yaml(name, show_cell(value), where)
    word = unicodedata.normalize("NFKC", show_cell(value)).strip()  # a declared number may be typed full-width
    if kind == "bool":
        if word.lower() in ("true", "false"):
            return word.lower() == "true"
        raise ValueError(f"{name} must be TRUE or FALSE, got {quote_cell(value)}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return make_whole(float(value))
    if NUMBER.fullmatch(word) and not isinstance(value, bool):
        return parse_number(word)
    raise ValueError(f"{name} must be a number, got {quote_cell(value)}")


def read_yaml(name: str, text: str, where: Location):
    """A list or mapping written in a cell as YAML flow, such as [a, b] or {cost: 2, text: …}."""
    try:
        return parse_yaml(text, str(where))
    except PnpError as err:
        raise ValueError(f"{name} must be a YAML value such as [a, b] or {{cost: 2}}; {err.problems[0].message}") from None


def read_tbd(value, cells_typed: bool, where: Location):
    """TRUE marks every text field as placeholder; text names the fields, separated by commas."""
    read = guess_type(value, cells_typed)
    if isinstance(read, bool):
        return read
    if not isinstance(read, str):
        raise ValueError(f"tbd must be TRUE or the names of fields separated by commas, got {quote_cell(value)}")
    names = LList(name for name in TBD_SEPARATORS.split(read) if name)
    names.loc, names.item_locs = where, [where] * len(names)
    return names
