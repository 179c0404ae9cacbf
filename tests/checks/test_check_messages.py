"""What a check says when the input is wrong: a card an expression cannot read is named by its spreadsheet cell,
never by an internal class name; a quote the document no longer holds shows what the document says there."""
import pytest
from click.testing import CliRunner

import pnpgen
from pnpgen.cli import main
from pnpgen.errors import PnpError

from sheet_writers import write_csv
from slips import edit, failed

TEA = """games:
  - id: tea
    title: 茶
    components:
      - id: tea-cards
        front: front.svg.j2
        cards: {from: data/tea.csv}
    expectations:
      - total: tea-cards
        where: card.suit == '緑'
        equals: 13
"""


def tea_project(tmp_path, rows):
    project = tmp_path / "tea"
    (project / "templates").mkdir(parents=True)
    (project / "data").mkdir()
    (project / "templates/front.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}"/>', encoding="utf-8")
    (project / "cards.yaml").write_text(TEA, encoding="utf-8")
    write_csv(project / "data/tea.csv", rows)
    return project


def test_a_card_an_expression_cannot_read_is_named_by_its_cell(tmp_path):
    rows = [["name", "suit"]] + [[f"茶{n}", "緑"] for n in range(2, 15)] + [["茶15", ""]]
    project = tea_project(tmp_path, rows)
    with pytest.raises(PnpError) as raised:
        pnpgen.check(project)
    message = str(raised.value)
    assert message.startswith("data/tea.csv:B15: expression 'card.suit == '緑'' reads card.suit, but this card has no "
                              "field 'suit'")
    assert "(the expectation at cards.yaml:9:9)" in message and "Fields" not in message and "pnpgen." not in message
    result = CliRunner().invoke(main, ["check", str(project)])
    assert result.exit_code != 0 and "data/tea.csv:B15" in result.output and "object" not in result.output


def test_a_stale_quote_shows_what_the_document_now_says(project):
    edit(project, "documents/003_04ce32e9bd80a31c.txt", "◇マーカー（３２個）", "◇マーカー（４０個）")
    stale = [f for f in failed(project, "otogi-taisen") if f.check == "quote not in the document"]
    assert [(f.location.file, f.expected, f.found) for f in stale] == [
        ("games/otogi-taisen.yaml", "◇マーカー（３２個）", "「◇マーカー（４０個）」")]
    assert "now says 「◇マーカー（４０個）」" in stale[0].detail


def test_a_quote_unlike_anything_in_the_document_says_so(project):
    edit(project, "games/otogi-taisen.yaml", 'quote: "◇マーカー（３２個）"', 'quote: "まったく別の文"')
    stale = [f for f in failed(project, "otogi-taisen") if f.check == "quote not in the document"]
    assert [(f.found, f.detail) for f in stale] == [
        ("no such phrase", "documents/003_04ce32e9bd80a31c.txt does not contain it; quote the document exactly")]
