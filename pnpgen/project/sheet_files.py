"""Turn a spreadsheet file (CSV/TSV, XLSX, XLS, ODS) into a bounded grid of saved cell values, evaluating nothing."""
from __future__ import annotations

import csv
import functools
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import Location, PnpError

TEXT_SUFFIXES = {".csv": None, ".tsv": "\t", ".txt": None}
BOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")
SUFFIXES = ", ".join([*TEXT_SUFFIXES, *BOOK_SUFFIXES])
MAX_FILE_BYTES = 32 << 20  # a 100,000-card sheet is a few MB; more is not a card list
MAX_UNPACKED = 128 << 20  # all parts of an xlsx/ods zip, decompressed
MAX_PARTS = 2_000
MAX_ROWS = 100_000
MAX_COLUMNS = 500
MAX_CELL_CHARS = 10_000
READER_MEMORY = 1 << 30  # the reader process's address space: calamine fills every cell of the used range
READER_SECONDS = 60
# A spreadsheet program runs a CSV cell starting with one of these as a formula (OWASP's CSV injection list), so
# export marks such text with a leading quote, as a spreadsheet marks typed text; text already starting with the
# quote is marked too, so that reading strips exactly the marks writing added.
FORMULA_STARTS = "=+-@\t\r"
TEXT_MARK = "'"

# calamine runs in a child process: a sheet whose used range is huge (one cell at A1, one at XFD1048576) makes it
# allocate the whole rectangle and abort, which must stop a sheet, not pnpgen. The child imports nothing from the
# project folder (no '' on sys.path) and answers in JSON.
READER = r"""
import sys
del sys.path[0]
import datetime, json
try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[3]), int(sys.argv[3])))
except (ImportError, ValueError, OSError):
    pass
from python_calamine import CalamineWorkbook

def to_plain(value):
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    return value

try:
    book = CalamineWorkbook.from_path(sys.argv[1])
    names = list(book.sheet_names)
    wanted = sys.argv[2] or (names[0] if names else "")
    if sys.argv[5] == "names" or wanted not in names:
        answer = {"sheets": names}
    else:
        sheet = book.get_sheet_by_name(wanted)
        start = sheet.start or (0, 0)
        rows = sheet.to_python(nrows=int(sys.argv[4]) + 1)
        answer = {"sheets": names, "name": wanted, "start": list(start),
                  "rows": [[to_plain(v) for v in row] for row in rows]}
except Exception as err:
    answer = {"error": str(err) or type(err).__name__}
json.dump(answer, sys.stdout)
"""


@dataclass(frozen=True)
class Grid:
    """The used cells of one sheet: rows of values, the first at (row0, col0), counting from 0."""

    shown: str  # the file as messages name it
    sheet: str | None  # None for a CSV file, which has no tabs
    rows: list
    row0: int = 0
    col0: int = 0
    typed: bool = True  # False for CSV: every cell is text until read
    marked: frozenset = frozenset()  # (row, col) of CSV cells that were marked as text, their mark stripped

    def cell(self, row: int, col: int) -> Location:
        """The location of the cell at grid position (row, col)."""
        return Location(self.shown, self.row0 + row + 1, self.col0 + col + 1, self.sheet if self.sheet is not None else "")

    def holds_text(self, row: int, col: int) -> bool:
        """Whether the cell at (row, col) is text whatever it reads like: typed as text, or marked as text in a CSV."""
        return self.typed or (row, col) in self.marked


def mark_text(text: str) -> str:
    """Text as a CSV cell that no spreadsheet program runs as a formula and that reads back as the same text."""
    return TEXT_MARK + text if text[:1] in (*FORMULA_STARTS, TEXT_MARK) else text


def unmark_text(cell: str) -> str | None:
    """The text a CSV cell marked by mark_text stands for; None for a cell that carries no mark."""
    if cell[:1] == TEXT_MARK and cell[1:2] and cell[1:2] in (*FORMULA_STARTS, TEXT_MARK):
        return cell[1:]
    return None


def read_grid(path: Path, shown: str, sheet: str | None, asked_at: Location) -> Grid:
    """Read one sheet of a spreadsheet; a sheet that does not exist is reported at asked_at with the ones that do."""
    suffix = path.suffix.lower()
    if suffix not in TEXT_SUFFIXES and suffix not in BOOK_SUFFIXES:
        raise PnpError(f"'{shown}' is not a spreadsheet this reads; expected one of {SUFFIXES}", asked_at)
    try:
        size = path.stat().st_size
    except OSError as err:
        raise PnpError(f"cannot read '{shown}' ({err.strerror}); expected a spreadsheet", asked_at) from None
    if size > MAX_FILE_BYTES:
        raise PnpError(f"the file is {size >> 20} MB, more than the {MAX_FILE_BYTES >> 20} MB a card list may be; "
                       "expected a sheet of cards", Location(shown))
    if suffix in TEXT_SUFFIXES:
        if sheet is not None:
            raise PnpError(f"'{shown}' is a text file with a single sheet; remove 'sheet: {sheet}'", asked_at)
        return read_text_grid(path.read_bytes(), shown, TEXT_SUFFIXES[suffix])
    return read_book_grid(path, shown, sheet, asked_at)


def decode(data: bytes, shown: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM (Excel's Unicode text), or Shift_JIS/CP932 (Japanese Excel)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        utf8_error = err
    try:
        return data.decode("cp932")
    except UnicodeDecodeError:
        pass
    at = utf8_error.start
    line = data.count(b"\n", 0, at) + 1
    raise PnpError(f"byte 0x{data[at]:02x} is neither UTF-8 nor Shift_JIS (CP932); save the sheet as CSV UTF-8",
                   Location(shown, line, at - (data.rfind(b"\n", 0, at) + 1) + 1))


def read_text_grid(data: bytes, shown: str, delimiter: str | None) -> Grid:
    if b"\x00" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PnpError("is a binary file, not CSV text; expected a .csv saved as text", Location(shown))
    text = decode(data, shown)
    if delimiter is None:
        first = text.split("\n", 1)[0]
        delimiter = "\t" if first.count("\t") > first.count(",") else ","
    widest = max(text.splitlines() or [""], key=lambda line: line.count(delimiter))
    if widest.count(delimiter) >= MAX_COLUMNS * 4:  # before csv makes a row of millions of cells
        raise PnpError(f"a line holds {widest.count(delimiter)} separators; expected at most {MAX_COLUMNS} columns",
                       Location(shown, text.splitlines().index(widest) + 1, 1))
    rows, marked = [], set()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row in reader:
            if len(rows) >= MAX_ROWS + 1:
                raise PnpError(f"more than {MAX_ROWS} rows; expected a card list (one row a card)",
                               Grid(shown, None, rows).cell(len(rows), 0))
            if len(row) > MAX_COLUMNS:
                raise PnpError(f"more than {MAX_COLUMNS} columns; expected a card list",
                               Grid(shown, None, rows).cell(len(rows), MAX_COLUMNS))
            for col, cell in enumerate(row):
                if (unmarked := unmark_text(cell)) is not None:
                    row[col] = unmarked
                    marked.add((len(rows), col))
            rows.append([cell.replace("\r\n", "\n") for cell in row])
    except csv.Error as err:
        raise PnpError(f"not valid CSV ({err}); expected cells separated by '{delimiter}' with \"quotes\" around "
                       "text holding separators or line breaks", Location(shown, reader.line_num, 1)) from None
    return Grid(shown, None, rows, typed=False, marked=frozenset(marked))


def check_parts(path: Path, shown: str) -> None:
    """Refuse a zip whose parts unpack to more than a card list could need (a zip bomb) before any reader sees it."""
    import zipfile  # imported here: only a workbook needs it
    if not zipfile.is_zipfile(path):
        return
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError) as err:
        raise PnpError(f"cannot be read as a spreadsheet ({err}); expected an .xlsx or .ods file", Location(shown)) from None
    if len(parts) > MAX_PARTS:
        raise PnpError(f"the file holds {len(parts)} parts; expected a spreadsheet (at most {MAX_PARTS})", Location(shown))
    total = 0
    for part in parts:
        total += part.file_size
        if part.file_size > MAX_UNPACKED or total > MAX_UNPACKED:
            raise PnpError(f"the part {part.filename} unpacks to more than {MAX_UNPACKED >> 20} MB; "
                           "expected a spreadsheet of cards, not a zip bomb", Location(shown))


def read_book_grid(path: Path, shown: str, sheet: str | None, asked_at: Location) -> Grid:
    answer = run_reader(path, shown, sheet or "", "rows")
    if "rows" not in answer:
        names = ", ".join(answer["sheets"]) or "none"
        raise PnpError(f"'{shown}' has no sheet named '{sheet}'; expected one of: {names}", asked_at)
    row0, col0 = answer["start"]
    return Grid(shown, answer["name"], answer["rows"], row0, col0)


def sheet_names(path: Path, shown: str) -> list[str]:
    """The tabs of a workbook, in order; a CSV file has one, named after the file."""
    if path.suffix.lower() in TEXT_SUFFIXES:
        return [path.stem]
    return run_reader(path, shown, "", "names")["sheets"]


def run_reader(path: Path, shown: str, sheet: str, mode: str) -> dict:
    """calamine's answer for one sheet (mode rows) or the list of tabs (mode names); a failure is a PnpError."""
    check_parts(path, shown)
    stat = path.stat()
    return remembered_answer(str(path.resolve()), shown, sheet, mode, (stat.st_mtime_ns, stat.st_size, stat.st_ino))


@functools.lru_cache(maxsize=4)
def remembered_answer(path: str, shown: str, sheet: str, mode: str, stamp: tuple) -> dict:
    """One read per workbook version: tabs of one file, extends and watch's rebuilds ask again (callers never
    change the answer)."""
    import subprocess

    command = [sys.executable, "-c", READER, path, sheet, str(READER_MEMORY), str(MAX_ROWS), mode]
    try:
        done = subprocess.run(command, capture_output=True, timeout=READER_SECONDS, cwd=Path(path).parent, check=False)
        answer = json.loads(done.stdout) if done.returncode == 0 else None
    except subprocess.TimeoutExpired:
        raise PnpError(f"reading the sheet took more than {READER_SECONDS} s; expected a card list", Location(shown)) from None
    except ValueError:
        answer = None
    if answer is None:
        if b"No module named 'python_calamine'" in done.stderr:
            raise PnpError("reading spreadsheets needs python-calamine; install pnpgen again", Location(shown))
        raise PnpError(f"the sheet's used range is too large to read (more than {READER_MEMORY >> 20} MB of cells); "
                       f"expected at most {MAX_ROWS} rows and {MAX_COLUMNS} columns", Location(shown))
    if "error" in answer:
        raise PnpError(f"cannot be read as a spreadsheet ({answer['error']}); expected {SUFFIXES}", Location(shown))
    return answer

