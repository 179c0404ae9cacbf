"""A rulebook is typeset again only when what typesetting it reads changes: its expanded Markdown, what it marks
as assumed, the pieces it pictures. A save elsewhere in the game's data leaves it as it is, and every rebuild
writes the bytes a clean build of the same project writes."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options

pytestmark = pytest.mark.long  # whole builds, three a test: the file starts first

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules_check"
RULEBOOK = Path("counted") / "rulebook.pdf"


def build(project: Path, out: Path, cache: Path):
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache, check=False))


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "project")
    build(tmp_path / "project", tmp_path / "out", tmp_path / "cache")
    return tmp_path / "project"


def save(project: Path, old: str, new: str) -> None:
    path = project / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def rebuild_as_clean(project: Path, tmp_path: Path):
    """The rebuild's report, once its PDFs are the very bytes a clean build (no cache, no earlier output) writes."""
    report = build(project, tmp_path / "out", tmp_path / "cache")
    build(project, tmp_path / "clean", tmp_path / "clean-cache")
    for clean in (tmp_path / "clean").rglob("*.pdf"):
        assert (tmp_path / "out" / clean.relative_to(tmp_path / "clean")).read_bytes() == clean.read_bytes(), clean
    return report


def test_a_card_the_rulebook_neither_counts_nor_pictures_leaves_it_as_it_is(project, tmp_path):
    save(project, "{color: 金, number: 9, copies: 2}", "{color: 銀, number: 9, copies: 2}")
    report = rebuild_as_clean(project, tmp_path)
    assert tmp_path / "out" / RULEBOOK in report.unchanged
    assert tmp_path / "out" / "counted" / "special.pdf" in report.written


@pytest.mark.parametrize("old, new", [
    ("number: {from: 1, to: 3}", "number: {from: 1, to: 4}"),  # the deck's count, which the rulebook prints
    ("color: [赤, 青]", "color: [紅, 青]"),  # the first deck card, which it pictures
])
def test_what_the_rulebook_prints_or_pictures_sets_it_again(project, tmp_path, old, new):
    save(project, old, new)
    assert tmp_path / "out" / RULEBOOK in rebuild_as_clean(project, tmp_path).written


def test_a_rulebook_that_does_not_expand_says_where_as_before(project, tmp_path):
    with open(project / "rules" / "rules.md", "a", encoding="utf-8") as rules:
        rules.write("\n{{ nosuch(1) }}\n")
    with pytest.raises(pnpgen.PnpError) as raised:
        build(project, tmp_path / "out", tmp_path / "cache")
    assert "rules/rules.md:" in str(raised.value.problems[0]) and "'nosuch' is undefined" in str(raised.value)


def count_expansions(monkeypatch) -> list:
    from pnpgen.rules import expand

    calls, real = [], expand.expand_markdown
    monkeypatch.setattr(expand, "expand_markdown", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    return calls


def test_a_build_whose_rulebook_files_are_as_before_reads_the_digest_kept(project, tmp_path, monkeypatch):
    (tmp_path / "out" / "counted" / "tokens.pdf").unlink()  # a build that plans the rulebook, its files unchanged
    calls = count_expansions(monkeypatch)
    report = build(project, tmp_path / "out", tmp_path / "cache")
    assert calls == [] and tmp_path / "out" / RULEBOOK in report.unchanged


def test_a_kept_digest_that_is_not_one_is_worked_out_again(project, tmp_path, monkeypatch):
    import sqlite3

    from pnpgen.store.records import checksum

    (path,) = sorted((tmp_path / "cache").rglob("*.sqlite"))
    with sqlite3.connect(path) as db:
        keys = [key for (key,) in db.execute("SELECT key FROM records WHERE kind = ?", (b"D",))]
        db.executemany("UPDATE records SET payload = ?, checksum = ? WHERE kind = ? AND key = ?",
                       [(b"z" * 64, checksum(b"D", key, b"z" * 64), b"D", key) for key in keys])
    assert keys
    (tmp_path / "out" / "counted" / "tokens.pdf").unlink()
    calls = count_expansions(monkeypatch)
    report = build(project, tmp_path / "out", tmp_path / "cache")
    assert calls and tmp_path / "out" / RULEBOOK in report.unchanged


def test_games_of_one_file_that_share_a_rulebook_are_told_apart(project, tmp_path):
    """Two games defined in one file, the same rulebook source: each rulebook follows its own game's data."""
    text = (project / "cards.yaml").read_text(encoding="utf-8")
    game = text[text.index("  - id: counted"):]
    (project / "cards.yaml").write_text(text + game.replace("id: counted", "id: recounted", 1), encoding="utf-8")
    build(project, tmp_path / "out", tmp_path / "cache")
    last = text + game.replace("id: counted", "id: recounted", 1).replace("to: 3}", "to: 4}", 1)
    (project / "cards.yaml").write_text(last, encoding="utf-8")
    report = rebuild_as_clean(project, tmp_path)
    assert tmp_path / "out" / "recounted" / "rulebook.pdf" in report.written
    assert tmp_path / "out" / RULEBOOK in report.unchanged
