"""Turn a name, or an existing spreadsheet, into a new project folder that builds and checks as it is."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from ..files.atomic import write_atomically
from ..errors import CONTROL, Location, PnpError
from .sheet_files import SUFFIXES, TEXT_SUFFIXES, read_grid, sheet_names
from .sheets import show_cell
from .romaji import romanize

UNQUOTABLE = re.compile("[\"\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")
PLACEHOLDER = re.compile(r"\{\{(?:quoted name|name|id)\}\}")
SCAFFOLD = Path(__file__).resolve().parent / "scaffold"


HIRAGANA, KATAKANA = "\u3041-\u3096", "\u30a1-\u30fa\u30fc"  # katakana with its long-vowel mark
RUNS = re.compile(f"[{HIRAGANA}]+|[{KATAKANA}]+|[^{HIRAGANA}{KATAKANA}]+")  # hiragana, katakana, the rest


def game_id(name: str) -> str:
    """A game id from a name: 'My Game' -> 'my-game', 'ドラゴン・クエスト' -> 'doragon-kuesuto' (kana are
    romanised, a word each). Kanji cannot be read aloud without a dictionary: a name with them keeps its kana
    words but not the particles between kanji (の, を), and ends in six hex digits of the name, so that two
    such names never share an id ('私のゲーム' -> 'geemu-…'); one with no word left is 'game-…'."""
    text = unicodedata.normalize("NFKC", name)
    kanji = any(unicodedata.name(c, "").startswith("CJK UNIFIED IDEOGRAPH") or c in "々〆ヶ" for c in text)
    words = [slugify(romanize(run)) for run in RUNS.findall(text)
             if not (kanji and len(run) == 1 and re.match(f"[{HIRAGANA}{KATAKANA}]", run))]
    slug = "-".join(word for word in words if word)
    tag = hashlib.sha1(name.encode("utf-8")).hexdigest()[:6]
    if not re.search("[a-z]", slug):
        return f"game-{tag}"
    return f"{slug}-{tag}" if kanji else slug


def slugify(text: str) -> str:
    spelled = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(c if c.isascii() else "" if unicodedata.combining(c) else "-" for c in spelled)
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def init_project(folder: str | Path, name: str | None = None) -> list[Path]:
    """Create folder with cards.yaml, templates/ and a README; refuse to touch an existing non-empty folder."""
    folder = refuse_existing(folder)
    title = name or folder.name
    values = {"{{quoted name}}": quote(title), "{{name}}": one_line(title), "{{id}}": game_id(title)}
    files = {}
    for source in sorted(p for p in SCAFFOLD.rglob("*") if p.is_file()):
        # one pass: a name that itself holds "{{id}}" stays as written
        text = PLACEHOLDER.sub(lambda m: values[m.group()], source.read_text(encoding="utf-8"))
        files[source.relative_to(SCAFFOLD)] = text.encode("utf-8")
    return write_project(folder, files)


def init_from_sheet(folder: str | Path, sheet: str | Path, name: str | None = None) -> list[Path]:
    """Start a project around an existing spreadsheet: the sheet copied to data/, a component per tab reading it,
    and for each a front template that shows every column, so that it builds as it is and is ready to edit."""
    folder, sheet = refuse_existing(folder), Path(sheet)
    if not sheet.is_file():
        raise PnpError(f"{sheet}: not found; expected a spreadsheet ({SUFFIXES})")
    title = name or sheet.stem
    tabs = []
    for index, tab in enumerate(sheet_names(sheet, sheet.name), 1):
        grid = read_grid(sheet, sheet.name, None if sheet.suffix.lower() in TEXT_SUFFIXES else tab, Location(sheet.name))
        columns = [show_cell(v).strip() for v in (grid.rows[0] if grid.rows else [])]
        fields = [c for c in columns if c and not c.startswith("#") and c not in ("copies", "tbd")]
        if fields and len(grid.rows) > 1:
            slug = slugify(tab) or f"sheet-{index}"  # 'Battle Cards' -> 'battle-cards'; 闘牌 -> 'sheet-1'
            cid = slug if slug not in [t[1] for t in tabs] else f"{slug}-{index}"
            tabs.append((tab, cid, grid.row0 + 1, fields))
    if not tabs:
        raise PnpError(f"{sheet}: no tab has a header row with cards below it; expected a sheet with one row a card")
    files = {"cards.yaml": write_sheet_project(title, sheet, tabs), "templates/back.svg.j2": (SCAFFOLD / "templates/back.svg.j2")
             .read_text(encoding="utf-8"), "README.md": (SCAFFOLD / "README.md").read_text(encoding="utf-8").replace("{{name}}", one_line(title))}
    files.update({f"templates/{cid}.svg.j2": write_column_template(fields) for _, cid, _, fields in tabs})
    files = {relative: text.encode("utf-8") for relative, text in files.items()}
    return write_project(folder, {**files, f"data/{sheet.name}": sheet.read_bytes()})


def refuse_existing(folder: str | Path) -> Path:
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PnpError(f"{folder}: already exists and is not empty; expected a new folder name")
    return folder


def write_project(folder: Path, files: dict) -> list[Path]:
    """Write a new project's files (relative path -> bytes) and its empty images/ and fonts/ folders."""
    for relative, data in files.items():
        write_atomically(folder / relative, data, "file")
    (folder / "images").mkdir(exist_ok=True)
    (folder / "fonts").mkdir(exist_ok=True)
    return [folder / relative for relative in files]


def write_sheet_project(title: str, sheet: Path, tabs: list[tuple[str, str, int, list[str]]]) -> str:
    lines = [f"# {one_line(title)}: cards read from data/{sheet.name}, one row a card. `pnpgen build` turns them into PDFs",
             "# in output/; save the sheet and `pnpgen watch` rebuilds. The README explains every key.", "",
             f"project:\n  name: {quote(title)}\n\ngames:\n  - id: {game_id(title)}\n    title: {quote(title)}",
             "    components:"]
    for tab, cid, header, fields in tabs:
        source = {"from": f"data/{sheet.name}"}
        if sheet.suffix.lower() not in TEXT_SUFFIXES:
            source["sheet"] = tab
        if header != 1:
            source["header"] = header
        lines += [f"      - id: {cid}", f"        name: {quote(tab)}", "        size: poker",
                  f"        front: {cid}.svg.j2", "        back: back.svg.j2",
                  "        defaults: {accent: \"#2b5f8a\"" + "".join(f", {quote(f)}: \"\"" for f in fields) + "}"
                  "  # an empty cell takes these",
                  "        cards: {" + ", ".join(f"{k}: {quote(v) if isinstance(v, str) else v}" for k, v in source.items()) + "}"]
    return "\n".join(lines) + "\n"


def quote(text: str) -> str:
    """text as a YAML double-quoted string that reads back as exactly text, whatever it holds."""
    def escape(match: re.Match) -> str:
        char = match.group()
        return "\\" + char if char in '"\\' else f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
    return '"' + UNQUOTABLE.sub(escape, text) + '"'


def one_line(text: str) -> str:
    """text for a comment or a heading: one line, control characters shown as spaces."""
    return CONTROL.sub(" ", text)


def write_column_template(fields: list[str]) -> str:
    """A face listing every column: its name small, its value beside it, in rows that share the card's height."""
    step = f"((H - 2*SAFE - 12) / {len(fields)})"
    rows = "\n".join(
        f'{{{{ text({quote(field)}, SAFE + 2, SAFE + 10 + {i} * {step}, 16, {step}, size=6, min_size=3, color="#666") }}}}\n'
        f'{{{{ text(card[{quote(field)}]|string|truncate(60), SAFE + 19, SAFE + 10 + {i} * {step}, W - 2*SAFE - 21, '
        f'{step}, size=8, min_size=3) }}}}'
        for i, field in enumerate(fields))
    return ("{# Every column of the sheet, name and value: a start. Millimetres from the trim's top-left corner. #}\n"
            '<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#f6f1e4"/>\n'
            '<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" rx="3" fill="none" '
            'stroke="{{ card.accent }}" stroke-width="0.8"/>\n'
            '{{ text(component.name, SAFE + 2, SAFE + 2, W - 2*SAFE - 4, 7, size=9, weight="bold", color=card.accent) }}\n'
            f"{rows}\n")
