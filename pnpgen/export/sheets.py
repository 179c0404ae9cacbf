"""Turn every component's cards into spreadsheets (a CSV per component, an XLSX per game) that read back as the same cards."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import yaml

from ..files.atomic import write_atomically
from ..errors import PnpError
from ..project.editions import edition_folder
from ..project.languages import Texts
from ..project.model import Card, Component, Game, Project
from ..project.sheet_files import mark_text
from ..project.sheets import guess_type
from .job import ExportReport

SHEET_KINDS = ("csv", "xlsx")
MAX_TAB = 31  # Excel's limit on a sheet name


def export_sheets(project: Project, games: tuple[Game, ...], kind: str, out_dir: Path) -> ExportReport:
    """OUTDIR/<game>/csv/<component>.csv, or OUTDIR/<game>/xlsx/<game>.xlsx with a tab per component."""
    report = ExportReport(out_dir)
    for game in games:
        listed = [c for c in game.components if c.box is None]  # a tuck box's one piece is made from its deck
        tables = {component.id: tabulate_cards(game, component, project.languages) for component in listed}
        report.pieces += sum(card.copies for component in listed for card in component.cards)
        folder = out_dir / game.id / edition_folder(project) / kind
        files = ({folder / f"{c.id}.csv": csv_bytes(tables[c.id]) for c in listed} if kind == "csv"
                 else {folder / f"{game.id}.xlsx": xlsx_bytes(tables)})
        for target, data in files.items():
            write_atomically(target, data, "CSV file" if kind == "csv" else "workbook")
            report.written.append(target)
        for component_id, rows in tables.items():
            report.notes.extend(type_notes(f"{game.id}/{component_id}", rows, kind == "csv"))
    return report


def tabulate_cards(game: Game, component: Component, languages: tuple[str, ...] = ()) -> list[list]:
    """A header row (every field, copies, tbd) and a row per distinct card; fields that only repeat the game's
    defaults are left to the defaults."""
    cards = component.cards
    fields = [name for name in dict.fromkeys(k for card in cards for k in card.fields)
              if not all(name in game.defaults and card.fields.get(name) == game.defaults[name] for card in cards)]
    with_tbd = any(card.tbd for card in cards)
    ordered = order_columns(cards, fields)
    columns = [(name, index) for name in ordered for index in range(len(languages) if name != "copies" and any(
        type(card.fields.get(name)) is Texts for card in cards) else 1)]  # name, then name@en beside it
    rows = [[name + (f"@{languages[index]}" if index else "") for name, index in columns]
            + (["tbd"] if with_tbd else [])]
    for card in cards:
        row = [card.copies if name == "copies" else check_text(text_of(card.fields.get(name), index), card, name)
               for name, index in columns]
        rows.append(row + ([", ".join(card.tbd) or None] if with_tbd else []))
    return rows


def order_columns(cards: tuple[Card, ...], fields: list[str]) -> list[str]:
    """The fields and copies in the order the cards were written: a sheet's columns, or the YAML's first card with
    a field a later card adds placed after the one it follows there. Fields no card writes (defaults, matrix axes)
    come first, as they merge; copies comes after the fields when no card writes it."""
    wanted = {*fields, "copies"}
    written: list[str] = []
    orders = set()
    for card in cards:
        names = tuple(name for name, _ in card.cells if name in wanted)
        if names in orders:  # a deck's cards mostly name the same fields in the same order
            continue
        orders.add(names)
        place = 0
        for name in names:
            if name not in written:
                written.insert(place, name)
            place = written.index(name) + 1
        if len(written) == len(wanted):
            break
    unwritten = [name for name in fields if name not in written]
    return unwritten + written + ([] if "copies" in written else ["copies"])


def text_of(value, index: int):
    """One language's text of a field (a field of one text has it in the original's column only)."""
    if type(value) is Texts:
        return value[index]
    return value if index == 0 else None


def check_text(value, card: Card, name: str):
    if isinstance(value, str) and any(ord(c) < 32 and c not in "\t\n\r" for c in value):
        raise PnpError(f"field '{name}' holds a control character, which a spreadsheet cell cannot; "
                       "expected text", card.location)
    return value


def type_notes(name: str, rows: list[list], all_text: bool) -> list[str]:
    """What the reader must be told to read the sheet back as the same cards: lists and mappings are YAML and, in a
    CSV, where every cell is text, text that would read as a number or TRUE/FALSE is text (unless its mark says so)."""
    types, mixed = {}, []
    for index, column in enumerate(rows[0]):
        values = [row[index] for row in rows[1:] if row[index] is not None]
        if any(not isinstance(v, (str, int, float, bool)) for v in values):
            types[column] = "yaml"
        elif all_text and any(isinstance(v, str) and mark_text(v) == v and reads_as_value(v) for v in values):
            if all(isinstance(v, str) for v in values):
                types[column] = "text"
            else:
                mixed.append(column)
    notes = []
    if types:
        declared = ", ".join(f"{column}: {kind}" for column, kind in types.items())
        notes.append(f"{name}: to read the sheet back as the same cards, declare types: {{{declared}}} "
                     "in its cards: {from: …}")
    if mixed:
        notes.append(f"{name}: {', '.join(mixed)} mixes numbers or TRUE/FALSE with text that reads like them, "
                     "which a CSV cannot keep apart; export xlsx to keep them")
    return notes


def flow_cell(value):
    """A field as one cell: lists and mappings as YAML flow text, which `types: {name: yaml}` reads back."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return yaml.safe_dump(to_plain(value), default_flow_style=True, allow_unicode=True, width=10**6).strip()


def to_plain(value):
    if hasattr(value, "items"):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def csv_bytes(rows: list[list]) -> bytes:
    """UTF-8 with a BOM, which Excel needs to open Japanese text, and CRLF between rows; text that a spreadsheet
    program would run as a formula is marked as text."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue().encode("utf-8-sig")


def csv_cell(value):
    """A field as one CSV cell: numbers as written (a spreadsheet reads -3 as a number, and so does the reader)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    value = flow_cell(value)
    return mark_text(value) if isinstance(value, str) else value


def reads_as_value(text: str) -> bool:
    """Text that a CSV reader would take for a number or TRUE/FALSE."""
    return not isinstance(guess_type(text, False), str)


def xlsx_bytes(tables: dict[str, list[list]]) -> bytes:
    """A workbook with a tab per component; text cells are written as text, never as formulas."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    book = Workbook(write_only=True)
    for tab, rows in zip(tab_names(list(tables)), tables.values()):
        sheet = book.create_sheet(tab)
        for row in rows:
            values = [flow_cell(v) for v in row]
            sheet.append([text_cell(sheet, v, WriteOnlyCell) if isinstance(v, str) else v for v in values])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def text_cell(sheet, value: str, make):
    cell = make(sheet, value=value)
    cell.data_type = "s"  # openpyxl would store "=…" as a formula
    return cell


def tab_names(ids: list[str]) -> list[str]:
    """Component ids as tab names, cut to Excel's 31 characters and kept distinct."""
    names: list[str] = []
    for component_id in ids:
        name, n = component_id[:MAX_TAB], 2
        while name in names:
            suffix = f"-{n}"
            name, n = component_id[:MAX_TAB - len(suffix)] + suffix, n + 1
        names.append(name)
    return names
