"""The bundled battle deck read from CSV, XLSX and ODS builds the same PDFs and findings as its YAML; bad cells are named."""
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.project.validate import load_project

from sheet_writers import write_csv, write_ods, write_xlsx

ROOT = Path(__file__).resolve().parents[2]
TTU = "games/three-times-undress.yaml"
GAME = "three-times-undress"
YAML_CARDS_START = "        cards:\n          - {number: 1, copies: 10}\n"
YAML_CARDS_END = "          - {number: 7, copies: 5}\n"


def copy_project(target: Path) -> Path:
    target.mkdir(parents=True)
    for name in ("cards.yaml", "games", "templates", "documents", "rules"):  # the fonts ship in the package
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target / name)
    return target


def battle_rows(project: Path) -> list[list]:
    """The battle deck's `cards:` as written in the YAML, as sheet rows under a header row, with a notes column
    and a blank row that the reader must skip."""
    game = yaml.safe_load((project / TTU).read_text(encoding="utf-8"))["games"][0]
    cards = next(c for c in game["components"] if c["id"] == "battle-cards")["cards"]
    columns = list(dict.fromkeys(key for card in cards for key in card))
    rows = [columns + ["#メモ"]]
    for index, card in enumerate(cards):
        values = [", ".join(v) if isinstance(v, list) else v for v in (card.get(k) for k in columns)]
        rows.append(values + [f"{index + 1}行目の覚え書き"])
        if index == 3:
            rows.append([None] * len(columns) + ["空行の下"])
    return rows


def use_sheet(project: Path, cards: str) -> None:
    """Replace the battle deck's cards: list in the YAML by `cards: {from: …}`."""
    path = project / TTU
    text = path.read_text(encoding="utf-8")
    start = text.index(YAML_CARDS_START)
    end = text.index(YAML_CARDS_END, start) + len(YAML_CARDS_END)
    path.write_text(text[:start] + f"        cards: {cards}\n" + text[end:], encoding="utf-8")


def write_sheet(project: Path, form: str) -> str:
    (project / "data").mkdir()
    rows = battle_rows(project)
    if form == "csv-utf8":
        write_csv(project / "data/battle.csv", rows, "utf-8-sig")
        return "{from: data/battle.csv}"
    if form == "csv-cp932":
        write_csv(project / "data/battle.csv", rows, "cp932")
        return "{from: data/battle.csv, header: 1}"
    if form == "tsv-utf8":
        write_csv(project / "data/battle.txt", rows, "utf-8", delimiter="\t")
        return "{from: data/battle.txt}"
    if form == "xlsx":
        write_xlsx(project / "data/battle.xlsx", {"表紙": [["スリータイムズ・アンドレス"]], "闘牌": rows})
        return "{from: data/battle.xlsx, sheet: 闘牌}"
    write_ods(project / "data/battle.ods", {"闘牌": rows, "雀士": [["character"]]})
    return "{from: data/battle.ods, sheet: 闘牌, header: 1}"


def game_pdfs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / GAME).glob("*.pdf"))}


def comparable(finding: pnpgen.Finding) -> tuple:
    """A finding without line numbers (the YAML lost its cards: block) and without the places of single cards,
    which name the sheet's rows instead of YAML lines."""
    where = "a card" if finding.check.startswith("placeholders in") else finding.location.file
    return finding.status, finding.game, finding.check, where, finding.expected, finding.found, finding.source


@pytest.fixture(scope="module")
def from_yaml(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("yaml") / "project")
    out = project / "output"
    pnpgen.build(project, Options(out_dir=out, game=GAME))
    return project, game_pdfs(out), pnpgen.check(project, GAME)


@pytest.mark.parametrize("form", ["csv-utf8", "csv-cp932", "xlsx", "ods"])
def test_the_battle_deck_from_a_sheet_builds_identical_pdfs_and_findings(form, from_yaml, tmp_path):
    yaml_project, yaml_pdfs, yaml_findings = from_yaml
    project = copy_project(tmp_path / "project")
    use_sheet(project, write_sheet(project, form))
    battle = load_project(project).game(GAME).component("battle-cards")
    expected = [(c.fields, c.copies, c.tbd) for c in load_project(yaml_project).game(GAME).component("battle-cards").cards]
    assert [(c.fields, c.copies, c.tbd) for c in battle.cards] == expected
    assert [[type(v) for v in c.fields.values()] for c in battle.cards] == [[type(v) for v in f.values()] for f, _, _ in expected]

    pnpgen.build(project, Options(out_dir=project / "output", game=GAME))
    pdfs = game_pdfs(project / "output")
    assert {"battle-cards.pdf", "rulebook.pdf", f"{GAME}-print-and-play.pdf"} <= set(pdfs)
    assert pdfs == yaml_pdfs

    findings = pnpgen.check(project, GAME)
    assert [comparable(f) for f in findings] == [comparable(f) for f in yaml_findings]
    sheet = next(f for f in findings if f.check == "placeholders in battle-cards")
    mine = next(f for f in yaml_findings if f.check == "placeholders in battle-cards")
    assert sheet.detail.split(":")[0] == mine.detail.split(":")[0] == "5 card(s) still have placeholder effect"
    assert str(sheet.location) == str(battle.cards[2].location)  # the first placeholder card, by its row
    assert str(sheet.location).startswith("data/battle.") and str(sheet.location).endswith("A4")


def test_tab_separated_text_reads_the_same_cards(from_yaml, tmp_path):
    project = copy_project(tmp_path / "project")
    use_sheet(project, write_sheet(project, "tsv-utf8"))
    read = [(c.fields, c.copies, c.tbd) for c in load_project(project).game(GAME).component("battle-cards").cards]
    assert read == [(c.fields, c.copies, c.tbd) for c in load_project(from_yaml[0]).game(GAME).component("battle-cards").cards]


def test_sheet_rows_cite_their_cells(tmp_path):
    project = copy_project(tmp_path / "project")
    use_sheet(project, write_sheet(project, "xlsx"))
    cards = load_project(project).game(GAME).component("battle-cards").cards
    assert [str(c.location) for c in cards[:3]] == ["data/battle.xlsx:闘牌!A2", "data/battle.xlsx:闘牌!A3",
                                                     "data/battle.xlsx:闘牌!A4"]
    assert str(cards[4].location) == "data/battle.xlsx:闘牌!A7"  # below the blank row
    assert data_files(project) == ["data/battle.xlsx"]


def data_files(project: Path) -> list[str]:
    return [p.relative_to(project).as_posix() for p in load_project(project).files if p.parent.name == "data"]


DECK = """games:
  - id: duel
    title: 決闘
    components:
      - id: battle-cards
        front: front.svg.j2
        defaults: {effect: ""}
        cards: {CARDS}
"""
FRONT = '<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>{{ text(card.name ~ card.number, 5, 5, 50, 10) }}'


def small_project(tmp_path: Path, cards: str, front: str = FRONT) -> Path:
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "data").mkdir()
    (project / "templates/front.svg.j2").write_text(front, encoding="utf-8")
    (project / "cards.yaml").write_text(DECK.replace("{CARDS}", cards), encoding="utf-8")
    return project


def problems(project: Path) -> list[str]:
    with pytest.raises(PnpError) as raised:
        load_project(project)
    return [str(p) for p in raised.value.problems]


def deck_rows(count: int = 12) -> list[list]:
    return [["number", "name", "copies", "#balance"]] + [[n, f"札{n}", 1, "=B2*2"] for n in range(1, count)]


def test_a_bad_copies_cell_is_named_by_its_cell(tmp_path):
    rows = deck_rows()
    rows[11][2], rows[5][2], rows[6][2], rows[7][2] = "two", 2.5, -1, True
    project = small_project(tmp_path, "{from: data/battle-cards.xlsx, sheet: 闘牌, header: 1}")
    write_xlsx(project / "data/battle-cards.xlsx", {"闘牌": rows})
    assert problems(project) == [
        "data/battle-cards.xlsx:闘牌!C6: copies must be a whole number ≥ 0, got 2.5",
        "data/battle-cards.xlsx:闘牌!C7: copies must be a whole number ≥ 0, got -1",
        "data/battle-cards.xlsx:闘牌!C8: copies must be a whole number ≥ 0, got TRUE",
        "data/battle-cards.xlsx:闘牌!C12: copies must be a whole number ≥ 0, got \"two\""]


def test_a_missing_sheet_lists_the_sheets_there_are(tmp_path):
    project = small_project(tmp_path, "{from: data/battle-cards.xlsx, sheet: 闘牌カード}")
    write_xlsx(project / "data/battle-cards.xlsx", {"闘牌": deck_rows(), "雀士": [["character"]]})
    assert problems(project) == ["cards.yaml:8:54: 'data/battle-cards.xlsx' has no sheet named '闘牌カード'; "
                                 "expected one of: 闘牌, 雀士"]


def test_columns_the_yaml_names_must_exist(tmp_path):
    project = small_project(tmp_path, "{from: data/deck.csv, copies: 枚数x, types: {nmae: text}}")
    write_csv(project / "data/deck.csv", [["number", "name", "枚数"], [1, "剣", 2]])
    assert problems(project) == [
        "cards.yaml:8:46: 'copies' names the column '枚数x', which is not in row 1 of data/deck.csv; "
        "did you mean '枚数'?",
        "cards.yaml:8:59: 'types' names the column 'nmae', which is not in row 1 of data/deck.csv; "
        "did you mean 'name'?"]


def test_a_field_the_template_wants_but_the_sheet_lacks_names_the_row(tmp_path):
    project = small_project(tmp_path, "{from: data/deck.csv}")
    write_csv(project / "data/deck.csv", [["number", "nmae"], [1, "剣"], [2, "盾"]])
    with pytest.raises(PnpError) as raised:
        pnpgen.build(project, Options(out_dir=tmp_path / "out"))
    assert str(raised.value).startswith("data/deck.csv:A2: ")
    assert "the card has no field 'name'; did you mean 'nmae'?" in str(raised.value)


@pytest.mark.parametrize("rows, cards, expected", [
    ([["number", "name", "number"], [1, "a", 2]], "{from: data/deck.csv}",
     ["data/deck.csv:C1: column 'number' appears twice (first at data/deck.csv:A1); expected each field once"]),
    ([["number", "name"], [1, "a", "stray"]], "{from: data/deck.csv}",
     ["data/deck.csv:C2: the cell holds \"stray\" but its column has no header; name the column in row 1 "
      "(or start the name with # for notes)"]),
    ([["number", "name", "open"], ["x1", "a", "yes"]], "{from: data/deck.csv, types: {number: number, open: bool}}",
     ["data/deck.csv:A2: number must be a number, got \"x1\"", "data/deck.csv:C2: open must be TRUE or FALSE, got \"yes\""]),
    ([["number", "name", "tbd"], [1, "a", "efect"]], "{from: data/deck.csv}",
     ["data/deck.csv:C2: tbd names 'efect', which is not a field of this card"]),
    ([["number", "name", "tags"], [1, "a", "[x, "]], "{from: data/deck.csv, types: {tags: yaml}}",
     ["data/deck.csv:C2: tags must be a YAML value such as [a, b] or {cost: 2}; YAML syntax error: expected the "
      "node content, but found '<stream end>' while parsing a flow node"]),
    ([["number", "name"]], "{from: data/deck.csv}",
     ["data/deck.csv:A1: no card rows below the header row; expected one row a card"]),
    ([["number", "name"], [1, "a"]], "{from: data/deck.csv, header: 3}",
     ["data/deck.csv:A3: the header row 3 is empty; expected the names of the fields (and copies) in it"]),
    ([["number", "name"], [1, "a"]], "{from: data/deck.csv, sheet: 闘牌}",
     ["cards.yaml:8:45: 'data/deck.csv' is a text file with a single sheet; remove 'sheet: 闘牌'"]),
    ([["number", "name"], [1, "a"]], "{from: ../deck.csv}",
     ["cards.yaml:8:23: '../deck.csv' points outside the project folder; expected a spreadsheet inside it"]),
    ([["number", "name"], [1, "a"]], "{from: data/deck.numbers}",
     ["cards.yaml:8:23: 'data/deck.numbers' not found; expected a spreadsheet (.csv, .tsv, .txt, .xlsx, .xlsm, .xls, "
      ".ods) inside the project"]),
    ([["number", "name"], [1, "a"]], "{form: data/deck.csv}",
     ["cards.yaml:8:16: missing 'from' in sheet; expected from: the spreadsheet, relative to the project: `.csv` or "
      "`.tsv` (UTF-8 with or without BOM, UTF-16, or Shift_JIS/CP932; comma or tab), `.xlsx`, `.xlsm`, `.xls` or `.ods`"
      " (docs: YAML reference, “Cards from a spreadsheet”)",
      "cards.yaml:8:17: unknown key 'form' in sheet; did you mean 'from'? (docs: YAML reference, “Cards from a "
      "spreadsheet”)"]),
])
def test_each_bad_cell_has_its_message(tmp_path, rows, cards, expected):
    project = small_project(tmp_path, cards)
    write_csv(project / "data/deck.csv", rows)
    assert problems(project) == expected


def test_csv_that_is_neither_utf8_nor_cp932_is_refused_with_its_place(tmp_path):
    project = small_project(tmp_path, "{from: data/deck.csv}")
    (project / "data/deck.csv").write_bytes("number,name\n1,剣\n".encode("utf-8") + b"2,\x81\xff\n")
    assert problems(project) == ["data/deck.csv:3:3: byte 0x81 is neither UTF-8 nor Shift_JIS (CP932); "
                                 "save the sheet as CSV UTF-8"]


def test_a_sheet_is_bounded_before_it_is_read(tmp_path, monkeypatch):
    from pnpgen.project import sheet_files, sheets

    project = small_project(tmp_path, "{from: data/deck.xlsx}")
    write_xlsx(project / "data/deck.xlsx", {"deck": deck_rows(30)})
    monkeypatch.setattr(sheet_files, "MAX_UNPACKED", 2000)
    assert problems(project)[0].startswith("data/deck.xlsx: the part ")
    assert problems(project)[0].endswith(" unpacks to more than 0 MB; expected a spreadsheet of cards, not a zip bomb")
    monkeypatch.undo()
    monkeypatch.setattr(sheets, "MAX_ROWS", 20)
    assert problems(project) == ["data/deck.xlsx:deck!A22: more than 20 card rows; expected a card list"]
    monkeypatch.setattr(sheets, "MAX_CELL_CHARS", 2)
    assert problems(project)[0] == "data/deck.xlsx:deck!B11: the cell holds 3 characters, more than 2; expected the text of a card"


def test_a_sheet_whose_used_range_is_enormous_stops_with_a_message(tmp_path):
    """Two cells, at A1 and XFD1048576: a reader that fills the rectangle needs 500 GB. It must not take pnpgen down."""
    project = small_project(tmp_path, "{from: data/deck.xlsx}")
    write_xlsx(project / "data/deck.xlsx", {"deck": [["number"], [1]]})
    far = tmp_path / "far.xlsx"
    with zipfile.ZipFile(project / "data/deck.xlsx") as source, zipfile.ZipFile(far, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                data = data.replace(b'<row r="2"', b'<row r="1048576"').replace(b'r="A2"', b'r="XFD1048576"')
            out.writestr(item, data)
    shutil.copy(far, project / "data/deck.xlsx")
    assert problems(project) == ["data/deck.xlsx: the sheet's used range is too large to read (more than 1024 MB of "
                                 "cells); expected at most 100000 rows and 500 columns"]


def test_the_example_sheet_in_the_repository_reads_as_written(tmp_path):
    example = ROOT / "docs/examples/sheet-deck"
    deck = load_project(example).games[0].component("deck")
    assert [(c.fields["name"], c.fields["power"], c.fields["effect"], c.copies) for c in deck.cards] == [
        ("剣", 3, "相手のカードを１枚選んで捨て札にする。", 4), ("盾", 1, "次の攻撃を１回だけ防ぐ。", 3),
        ("弓", 2, "好きなプレイヤーを１人選び、１点与える。", 2), ("王冠", 5, "", 1), ("巻物", "２", "（未定）", 2)]
    assert [str(c.location) for c in deck.cards][-1] == "data/deck.xlsx:カード!A7"  # the blank row 6 is skipped
    report = pnpgen.build(example, Options(out_dir=tmp_path / "out"))
    assert report.pieces == 12


def test_a_csv_row_of_a_million_cells_is_refused_before_it_is_made(tmp_path):
    project = small_project(tmp_path, "{from: data/deck.csv}")
    (project / "data/deck.csv").write_text("number,name\n1," + "," * 1_000_000 + "\n", encoding="utf-8")
    assert problems(project) == ["data/deck.csv:2:1: a line holds 1000001 separators; expected at most 500 columns"]
    (project / "data/deck.csv").write_text("number,name\n1," + "," * 600 + "\n", encoding="utf-8")
    assert problems(project) == ["data/deck.csv:SG2: more than 500 columns; expected a card list"]


def test_sheet_rows_combine_with_matrix_and_are_inherited_by_extends(tmp_path):
    project = small_project(tmp_path, "{from: data/deck.xlsx, sheet: deck}\n        matrix: {suit: [赤, 青]}\n"
                                      "      - id: big-cards\n        extends: battle-cards\n        size: tarot\n"
                                      "        matrix: {suit: [金]}")
    write_xlsx(project / "data/deck.xlsx", {"deck": [["number", "name", "copies"], [1, "剣", 2], [2, "盾", None]]})
    game = load_project(project).games[0]
    battle, big = game.components
    assert [(c.fields["suit"], c.fields["name"], c.copies) for c in battle.cards] == [
        ("赤", "剣", 2), ("赤", "盾", 1), ("青", "剣", 2), ("青", "盾", 1)]
    assert [(c.fields["suit"], c.fields["number"], str(c.location)) for c in big.cards] == [
        ("金", 1, "data/deck.xlsx:deck!A2"), ("金", 2, "data/deck.xlsx:deck!A3")]


def test_a_sheet_linked_from_outside_the_project_is_not_read(tmp_path):
    outside = write_csv(tmp_path / "secret.csv", [["number", "name"], [1, "秘密"]])
    project = small_project(tmp_path, "{from: data/deck.csv}")
    (project / "data/deck.csv").symlink_to(outside)
    assert problems(project) == ["cards.yaml:8:23: 'data/deck.csv' points outside the project folder; "
                                 "expected a spreadsheet inside it"]


def test_formulas_give_the_values_the_spreadsheet_saved_and_are_never_evaluated(tmp_path):
    import datetime

    project = small_project(tmp_path, "{from: data/deck.xlsx}")
    write_xlsx(project / "data/deck.xlsx", {"deck": [["number", "name", "effect", "released"],
                                                     [1, "剣", None, datetime.date(2026, 11, 30)], [2, "盾"]]})
    saved = tmp_path / "saved.xlsx"
    with zipfile.ZipFile(project / "data/deck.xlsx") as source, zipfile.ZipFile(saved, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                data = data.replace(b'<c r="A3" t="n"><v>2</v></c>', b'<c r="A3"><f>A2*7</f><v>7</v></c>')
                data = data.replace(b'</row></sheetData>', b'<c r="C3" t="str"><f>WEBSERVICE("http://x")</f></c>'
                                                           b'</row></sheetData>')
            out.writestr(item, data)
    shutil.copy(saved, project / "data/deck.xlsx")
    cards = load_project(project).games[0].components[0].cards
    assert [(c.fields["number"], c.fields["effect"], c.fields.get("released")) for c in cards] == [
        (1, "", "2026-11-30"), (7, "", None)]  # the saved 7; a formula with no saved value is an empty cell
