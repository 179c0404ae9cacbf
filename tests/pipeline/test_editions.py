"""Build, check and export the editions of a project of two languages, and open what they write: the English PDFs
carry the English text in embedded fonts with every glyph there, the same numbers as their Japanese twins, in
output/<game>/en/; a project of one language builds as before."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.cli import main
from pnpgen.export.run import ExportOptions, export

from pdfprobe import font_is_embedded_subset, fonts

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CARDS = {"ja": ["1", "東風", "カードを2枚引く。", "ja"] * 2 + ["2", "南風", "3点を得る。", "ja", "3", "西風", "効果なし。",
                                                               "ja", "4", "北風", "4枚捨てる。", "ja"],
         "en": ["1", "East Wind", "Draw 2 cards.", "en"] * 2 + ["2", "South Wind", "Gain 3 points.", "en", "3",
                                                                "West Wind", "No effect.", "en", "4", "North Wind",
                                                                "Discard 4 cards.", "en"]}


def lines(pdf: Path) -> list[str]:
    return [line for page in PdfReader(pdf).pages for line in page.extract_text().split("\n")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = shutil.copytree(FIXTURES / "two-editions", tmp_path_factory.mktemp("editions") / "p")
    return root, pnpgen.build(root, Options(lang="all"))


def test_build_all_writes_the_original_where_it_always_was_and_english_in_its_own_folder(built):
    root, report = built
    assert sorted(p.relative_to(root / "output").as_posix() for p in report.written) == [
        "winds/chips.pdf", "winds/en/chips.pdf", "winds/en/rulebook.pdf", "winds/en/winds-print-and-play.pdf",
        "winds/en/winds.pdf", "winds/rulebook.pdf", "winds/winds-print-and-play.pdf", "winds/winds.pdf"]
    assert report.pieces == 22  # five cards and six chips an edition


def test_the_english_pdfs_carry_the_english_text_in_embedded_fonts_with_no_glyph_missing(built):
    root, _ = built
    out = root / "output" / "winds"
    # the extracted text is the source's, character for character: every glyph was in the font (no tofu)
    assert lines(out / "en" / "winds.pdf") == CARDS["en"] + ["Wind Cards"] * 5  # the fronts, then their backs
    assert lines(out / "winds.pdf") == CARDS["ja"] + ["風の札"] * 5
    assert lines(out / "en" / "chips.pdf") == ["1", "One"] * 4 + ["5", "Five"] * 2
    assert lines(out / "en" / "rulebook.pdf")[1:] == [" Wind Cards", " Shuffle the 5 wind cards into a deck.", ""]
    reader = PdfReader(out / "en" / "winds-print-and-play.pdf")
    assert reader.metadata.title == "Wind Cards" and PdfReader(out / "en" / "winds.pdf").metadata.title == \
        "Wind Cards — Wind cards"
    assert fonts(reader) and all(font_is_embedded_subset(font) for font in fonts(reader))


def test_every_english_card_carries_the_numbers_of_its_japanese_twin(built):
    root, _ = built
    out = root / "output" / "winds"
    numbers = {code: [[c for c in line if c.isdigit()] for line in lines(out / folder / "winds.pdf")]
               for code, folder in (("ja", ""), ("en", "en"))}
    assert numbers["ja"] == numbers["en"] and sum(map(len, numbers["en"])) == 9


def test_a_second_build_of_both_editions_writes_nothing_and_leaves_no_stray_notes(built):
    root, _ = built
    again = pnpgen.build(root, Options(lang="all"))
    assert again.written == [] and len(again.unchanged) == 8
    assert not [note for note in again.notes if "left from an earlier build" in note]
    assert pnpgen.build(root, Options()).written == []  # the original's, as a plain build makes it


def test_a_project_of_one_language_builds_the_same_bytes_with_lang_all(tmp_path):
    plain = pnpgen.build(FIXTURES / "minimal", Options(out_dir=tmp_path / "plain", cache=False))
    every = pnpgen.build(FIXTURES / "minimal", Options(out_dir=tmp_path / "all", cache=False, lang="all"))
    assert [p.relative_to(tmp_path / "plain") for p in plain.written] == \
        [p.relative_to(tmp_path / "all") for p in every.written]
    for one, two in zip(plain.written, every.written):
        assert one.read_bytes() == two.read_bytes()
    with pytest.raises(PnpError, match="^--lang en: the project has one language"):
        pnpgen.build(FIXTURES / "minimal", Options(out_dir=tmp_path / "en", lang="en"))


def test_a_missing_translation_is_a_failure_at_its_line_a_warning_in_a_draft_and_a_note_of_the_build(tmp_path):
    root = shutil.copytree(FIXTURES / "two-editions", tmp_path / "p")
    text = (root / "cards.yaml").read_text(encoding="utf-8")
    (root / "cards.yaml").write_text(text.replace("name: {ja: 南風, en: South Wind}", "name: 南風"), encoding="utf-8")
    expected = ("cards.yaml:19:31: translation into en — 'name' of card 2 of winds has no en text (the original: "
                "'南風'); expected a translation as {…, en: …} or beside it as name@en")
    assert [f.line() for f in pnpgen.check(root, lang="all") if f.status == "fail"] == [f"✗ {expected}"]
    assert [f.line() for f in pnpgen.check(root, lang="en", draft=True) if "translation" in f.check] == [
        f"⚠ {expected} (a draft: `--draft` lets it pass)"]
    assert not [f for f in pnpgen.check(root) if "translation" in f.check]  # without --lang: today's checks
    report = pnpgen.build(root, Options(lang="en"))
    assert "winds: 1 text has no en translation and prints in ja (`pnpgen check --lang en` lists them)" in report.notes
    assert lines(root / "output" / "winds" / "en" / "winds.pdf")[8:10] == ["2", "南風"]  # the original stands in
    assert not (root / "output" / "winds" / "winds.pdf").exists()  # --lang en builds the English edition only


def test_exports_follow_the_edition_into_its_folder(built):
    root, _ = built
    report = export(root, "png", ExportOptions(lang="all", dpi=30))
    folders = sorted({p.relative_to(root / "output").parent.as_posix() for p in report.written})
    assert folders == ["winds/en/png", "winds/png"] and len(report.written) == 2 * (5 * 2 + 6)
    tts = export(root, "tts", ExportOptions(lang="en", dpi=30))
    assert {p.relative_to(root / "output").parts[:3] for p in tts.written} == {("winds", "en", "tts")}


def test_the_command_line_takes_the_edition_and_says_what_is_wrong_with_one(built):
    root, _ = built
    runner = CliRunner()
    result = runner.invoke(main, ["build", str(root), "--lang", "fr"])
    assert result.exit_code == 1 and "error: --lang fr: not one of the project's languages; expected one of: ja, en " \
                                      "(or all)" in result.output
    result = runner.invoke(main, ["check", str(root), "--lang", "all"])
    assert result.exit_code == 0 and result.output.endswith("6 passed, 0 failed, 0 warnings\n")  # the English rulebook too


def test_an_xlsx_of_every_edition_has_a_column_a_language_and_reads_back_as_both_editions(built, tmp_path):
    import openpyxl

    from pnpgen.project.editions import edition
    from pnpgen.project.validate import load_project

    root, _ = built
    report = export(root, "xlsx", ExportOptions(lang="all"))
    assert [p.relative_to(root / "output").as_posix() for p in report.written] == ["winds/xlsx/winds.xlsx"]
    sheet = openpyxl.load_workbook(report.written[0])["winds"]
    # the columns of the YAML's first card, in its order, each translation beside its original
    assert [cell.value for cell in sheet[1]] == ["number", "copies", "name", "name@en", "effect", "effect@en"]
    assert [cell.value for cell in sheet[5]] == [4, 1, "北風", "North Wind", "4枚捨てる。", "Discard 4 cards."]
    again = shutil.copytree(root, tmp_path / "again", ignore=shutil.ignore_patterns("output"))
    shutil.copy(report.written[0], again / "winds.xlsx")
    text = (again / "cards.yaml").read_text(encoding="utf-8")
    start = text.index("        defaults: {effect:")
    text = text[:start] + "        cards: {from: winds.xlsx, sheet: winds}\n" + text[text.index("      - id: chips"):]
    (again / "cards.yaml").write_text(text, encoding="utf-8")
    for code in ("ja", "en"):
        read, first = (edition(load_project(path), code).games[0].components[0] for path in (again, root))
        assert [dict(c.fields) for c in read.cards] == [dict(c.fields) for c in first.cards]
        assert [c.copies for c in read.cards] == [c.copies for c in first.cards]
    sheet["D3"] = None  # a translator's blank: a missing translation at its cell
    sheet["G1"], sheet["G2"] = "name@de", "Ostwind"  # a language the project does not have: refused at its cell
    sheet.parent.save(again / "winds.xlsx")
    with pytest.raises(PnpError) as caught:
        load_project(again)
    assert [str(p) for p in caught.value.problems] == [
        "winds.xlsx:winds!G2: 'name@de': 'de' is not one of the project's languages (ja, en); add it to project: "
        "languages, or expected one of the project's languages (ja, en)"]
    sheet["G1"], sheet["G2"] = None, None
    sheet.parent.save(again / "winds.xlsx")
    assert [f"{f.location}: {f.detail}" for f in pnpgen.check(again, lang="en") if f.status == "fail"] == [
        "winds.xlsx:winds!C3: 'name' of card 2 of winds has no en text (the original: '南風'); expected a translation "
        "as {…, en: …} or beside it as name@en"]
