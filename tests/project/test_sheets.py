"""The bundled battle deck read from CSV, XLSX and ODS builds the same PDFs and findings as its YAML; bad cells are named."""
import shutil
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
    for name in ("cards.yaml", "games", "templates", "documents", "rules", "fonts"):
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


@pytest.mark.parametrize("form", ["csv-utf8", "csv-cp932", "tsv-utf8", "xlsx", "ods"])
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
