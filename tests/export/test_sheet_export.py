"""pnpgen export csv|xlsx writes every component's cards as sheets that build the same PDFs when read back."""
import re
import shutil
from pathlib import Path

import openpyxl
import pytest
import yaml
from click.testing import CliRunner

import pnpgen
from pnpgen import Options
from pnpgen.cli import main
from pnpgen.export.run import export
from pnpgen.export.job import ExportOptions
from pnpgen.project.validate import load_project
from sheet_writers import write_csv, write_xlsx

ROOT = Path(__file__).resolve().parents[2]
NOTE = re.compile(r"^(?P<game>[a-z0-9-]+)/(?P<component>[a-z0-9-]+): .* declare types: (?P<types>\{.*\}) in its")


def copy_project(target: Path) -> Path:
    target.mkdir(parents=True)
    for name in ("cards.yaml", "games", "templates", "documents", "rules", "images"):  # the fonts ship in the package
        source = ROOT / name
        if source.exists():
            (shutil.copytree if source.is_dir() else shutil.copy)(source, target / name)
    return target


def read_from_sheets(files: list[Path], sheet_for, notes: list[str]) -> None:
    """Rewrite every component of every game to read its cards from the exported sheets (matrix: and cards: go)."""
    declared = {}
    for note in notes:
        match = NOTE.match(note)
        declared[match["game"], match["component"]] = yaml.safe_load(match["types"])
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for game in data["games"]:
            for component in game["components"]:
                if "box" in component:  # a tuck box has no card list: its deck's cards size it
                    continue
                component.pop("matrix", None)
                component["cards"] = {**sheet_for(game["id"], component["id"]),
                                      **({"types": declared[game["id"], component["id"]]}
                                         if (game["id"], component["id"]) in declared else {})}
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def games(project: Path) -> list[Path]:
    return sorted((project / "games").glob("*.yaml"))


def pdfs(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def cards_of(project: Path) -> dict:
    return {(g.id, c.id): [(card.fields, card.copies, card.tbd) for card in c.cards]
            for g in load_project(project).games for c in g.components}


def test_yaml_to_xlsx_and_back_builds_identical_pdfs(tmp_path):
    original = copy_project(tmp_path / "yaml" / "project")
    report = export(original, "xlsx", ExportOptions(out_dir=tmp_path / "sheets"))
    assert sorted(p.relative_to(tmp_path / "sheets").as_posix() for p in report.written) == [
        "last-wan-standing-quickdraw/xlsx/last-wan-standing-quickdraw.xlsx",
        "otogi-taisen/xlsx/otogi-taisen.xlsx", "three-times-undress/xlsx/three-times-undress.xlsx"]
    book = openpyxl.load_workbook(tmp_path / "sheets/three-times-undress/xlsx/three-times-undress.xlsx")
    assert book.sheetnames == ["battle-cards", "mahjong-players", "score-chips"]
    battle = list(book["battle-cards"].values)
    assert battle[0] == ("number", "ron", "effect", "copies", "tbd")  # game defaults (colours) stay defaults
    assert battle[1] == (1, False, "", 10, None) or battle[1] == (1, False, None, 10, None)
    assert len(battle) == 1 + 12  # one row per distinct card

    project = copy_project(tmp_path / "sheets-project" / "project")
    shutil.copytree(tmp_path / "sheets", project / "data")
    read_from_sheets(games(project), lambda game, component: {"from": f"data/{game}/xlsx/{game}.xlsx", "sheet": component},
                     report.notes)
    assert cards_of(project) == cards_of(original)
    pnpgen.build(original, Options(out_dir=tmp_path / "out-yaml", only="components"))  # rules: tests/project
    pnpgen.build(project, Options(out_dir=tmp_path / "out-sheets", only="components"))
    assert pdfs(tmp_path / "out-sheets") == pdfs(tmp_path / "out-yaml")


def test_csv_export_reads_back_as_the_same_cards(tmp_path):
    original = copy_project(tmp_path / "yaml" / "project")
    result = CliRunner().invoke(main, ["export", "csv", str(original), "-o", str(tmp_path / "sheets")])
    assert result.exit_code == 0, result.output
    assert "wrote 10 files (264 pieces) into" in result.output
    notes = [line[len("note: "):] for line in result.output.splitlines() if line.startswith("note: ")]
    assert notes == [
        "otogi-taisen/race-cards: to read the sheet back as the same cards, declare types: {skills: yaml} in its "
        "cards: {from: …}",
        "otogi-taisen/area-map: to read the sheet back as the same cards, declare types: {order: yaml, links: yaml} "
        "in its cards: {from: …}"]
    raw = (tmp_path / "sheets/three-times-undress/csv/battle-cards.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfnumber,ron,effect,copies,tbd\r\n1,FALSE,,10,\r\n")
    project = copy_project(tmp_path / "sheets-project" / "project")
    shutil.copytree(tmp_path / "sheets", project / "data")
    read_from_sheets(games(project), lambda game, component: {"from": f"data/{game}/csv/{component}.csv"}, notes)
    assert cards_of(project) == cards_of(original)


TRICKY = """games:
  - id: tiny
    title: 小さなゲーム
    components:
      - id: deck
        front: front.svg.j2
        defaults: {effect: ""}
        cards:
          - {title: '=HYPERLINK("x")', code: "007", flag: "TRUE", n: 7.5, tags: [a, 2], copies: 2}
          - {title: ７枚, code: 12, flag: "FALSE", n: -3, effect: "1行目\\n2行目", tbd: true}
"""


def test_text_that_looks_like_a_formula_or_a_number_stays_text(tmp_path):
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>')
    (project / "cards.yaml").write_text(TRICKY, encoding="utf-8")
    before = cards_of(project)
    notes = export(project, "csv", ExportOptions(out_dir=project / "out")).notes
    assert notes == ["tiny/deck: to read the sheet back as the same cards, declare types: "
                     "{flag: text, tags: yaml} in its cards: {from: …}"]  # 007 stays text without a declaration
    xlsx_notes = export(project, "xlsx", ExportOptions(out_dir=project / "out")).notes
    assert xlsx_notes == ["tiny/deck: to read the sheet back as the same cards, declare types: {tags: yaml} "
                          "in its cards: {from: …}"]
    sheet = openpyxl.load_workbook(project / "out/tiny/xlsx/tiny.xlsx")["deck"]
    formula = next(c for row in sheet.iter_rows() for c in row if c.value == '=HYPERLINK("x")')
    assert formula.data_type == "s"  # stored as text: opening the sheet runs nothing
    for kind, sheet_for, said in (("xlsx", lambda g, c: {"from": "out/tiny/xlsx/tiny.xlsx", "sheet": c}, xlsx_notes),
                                  ("csv", lambda g, c: {"from": f"out/tiny/csv/{c}.csv"}, notes)):
        read_from_sheets([project / "cards.yaml"], sheet_for, said)
        assert cards_of(project) == before, kind
        (project / "cards.yaml").write_text(TRICKY, encoding="utf-8")


def test_a_csv_export_says_when_a_column_cannot_keep_text_and_values_apart(tmp_path):
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>')
    (project / "cards.yaml").write_text(TRICKY.replace('flag: "FALSE"', "flag: false"), encoding="utf-8")
    notes = export(project, "csv", ExportOptions(out_dir=project / "out")).notes
    assert notes == ["tiny/deck: to read the sheet back as the same cards, declare types: {tags: yaml} in its "
                     "cards: {from: …}",
                     "tiny/deck: flag mixes numbers or TRUE/FALSE with text that reads like them, which a CSV "
                     "cannot keep apart; export xlsx to keep them"]


FORMULAS = """games:
  - id: tiny
    title: 小さなゲーム
    components:
      - id: deck
        front: front.svg.j2
        cards:
          - {name: "=1+1", cost: -3, note: "-3"}
          - {name: "+SUM(A1)", cost: 2, note: "@cmd"}
          - {name: "-2+3", cost: -1.5, note: "\\tindented"}
          - {name: "\\rreturn", cost: 0, note: "'tis"}
          - {name: "'=quoted", cost: 1, note: "''"}
          - {name: plain, cost: 4, note: "'"}
"""


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_marked_as_text_and_read_back_unmarked(tmp_path):
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>')
    (project / "cards.yaml").write_text(FORMULAS, encoding="utf-8")
    before = cards_of(project)
    notes = export(project, "csv", ExportOptions(out_dir=project / "out")).notes
    assert notes == []  # the marks keep text "-3" apart from the number -3: nothing to declare
    raw = (project / "out/tiny/csv/deck.csv").read_bytes().decode("utf-8-sig")
    assert raw.split("\r\n") == [
        "name,cost,note,copies",
        "'=1+1,-3,'-3,1",
        "'+SUM(A1),2,'@cmd,1",
        "'-2+3,-1.5,'\tindented,1",
        "\"'\rreturn\",0,''tis,1",
        "''=quoted,1,''',1",
        "plain,4,'',1",
        ""]
    read_from_sheets([project / "cards.yaml"], lambda g, c: {"from": f"out/tiny/csv/{c}.csv"}, notes)
    assert cards_of(project) == before
    assert [card.fields["cost"] for card in load_project(project).games[0].components[0].cards] == [-3, 2, -1.5, 0, 1, 4]


def test_xlsx_cells_are_text_as_they_are_with_no_mark(tmp_path):
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>')
    (project / "cards.yaml").write_text(FORMULAS, encoding="utf-8")
    export(project, "xlsx", ExportOptions(out_dir=project / "out"))
    rows = list(openpyxl.load_workbook(project / "out/tiny/xlsx/tiny.xlsx")["deck"].values)
    assert [row[0] for row in rows] == ["name", "=1+1", "+SUM(A1)", "-2+3", "\rreturn", "'=quoted", "plain"]
    assert [row[2] for row in rows] == ["note", "-3", "@cmd", "\tindented", "'tis", "''", "'"]


def test_a_hand_written_csv_keeps_a_quote_that_marks_nothing(tmp_path):
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>')
    (project / "data").mkdir()
    (project / "data/deck.csv").write_text("name,cost\n'tis,'5\n'-3,-3\n", encoding="utf-8")
    (project / "cards.yaml").write_text(FORMULAS.split("        cards:")[0] + "        cards: {from: data/deck.csv}\n",
                                        encoding="utf-8")
    cards = load_project(project).games[0].components[0].cards
    assert [(card.fields["name"], card.fields["cost"]) for card in cards] == [("'tis", "'5"), ("-3", -3)]


ORDERED = """games:
  - id: tiny
    title: 小さなゲーム
    components:
      - id: deck
        front: front.svg.j2
        defaults: {effect: "", rarity: common}
        cards:
          - {title: 剣, cost: 2, copies: 3}
          - {title: 盾, cost: 1, effect: 守る, copies: 2}
          - {title: 弓, rarity: rare, cost: 3}
"""
# a sheet's own order: copies among the fields, a cell left empty in the first row
SHEET = [["cost", "title", "copies", "effect", "number"], [2, "剣", 3, None, 1], [1, "盾", 2, "守る", 2]]


def header_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8-sig").splitlines()[0].split(",")


def make_ordered_project(tmp_path: Path, cards: str) -> Path:
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>')
    (project / "cards.yaml").write_text(ORDERED.split("        cards:")[0] + cards, encoding="utf-8")
    return project


def test_csv_columns_follow_the_yaml_first_card(tmp_path):
    project = make_ordered_project(tmp_path, "        cards:" + ORDERED.split("        cards:")[1])
    export(project, "csv", ExportOptions(out_dir=tmp_path / "out"))
    # the first card's order; effect after cost, where the second card writes it; rarity after title, where the
    # last card writes it
    assert header_of(tmp_path / "out/tiny/csv/deck.csv") == ["title", "rarity", "cost", "effect", "copies"]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_csv_columns_follow_the_source_sheet(tmp_path, kind):
    project = make_ordered_project(tmp_path, f"        cards: {{from: data/deck.{kind}}}\n")
    (project / "data").mkdir()
    if kind == "csv":
        write_csv(project / "data/deck.csv", SHEET)
    else:
        write_xlsx(project / "data/deck.xlsx", {"deck": SHEET})
    export(project, "csv", ExportOptions(out_dir=tmp_path / "out"))
    # the sheet's order; rarity, a default no row writes, leads
    assert header_of(tmp_path / "out/tiny/csv/deck.csv") == ["rarity", "cost", "title", "copies", "effect", "number"]
