"""watch rebuilds after an edit and says which cards changed; a broken edit is reported, not fatal."""
import os
import shutil
import threading
from pathlib import Path

from echoed import Lines
from pnpgen import Options
from pnpgen.project.validate import load_project
from pnpgen.live.watch import describe_changes, snapshot, watch

FIXTURES = Path(__file__).parents[1] / "fixtures"


def wait_for(lines: Lines, text: str, start: int = 0) -> bool:
    """Whether a line from index start on contains text (waiting for the watcher to echo it)."""
    return lines.wait_for(text, start)


def edit(path: Path, old: str, new: str) -> None:
    """Save as an editor that writes the new text beside the file and renames it over it: the watcher sees all of
    the save or none of it. (An in-place save that a loaded machine stalls between truncating and writing can be
    seen as an empty file first, and the first rebuild after it would not be the one a test waits for.)"""
    text = path.read_text(encoding="utf-8")
    assert old in text
    saving = path.with_name(f".{path.name}.saving")  # a dotfile: no watched file
    saving.write_text(text.replace(old, new), encoding="utf-8")
    os.replace(saving, path)


def test_watch_picks_up_edits(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    out = tmp_path / "out"
    lines = Lines()
    stop = threading.Event()
    worker = threading.Thread(target=watch, args=(project, Options(out_dir=out, cache_dir=tmp_path / "cache"), lines.append),
                              kwargs={"interval": 0.1, "stop": stop})
    worker.start()
    try:
        assert wait_for(lines, "built in"), lines
        first = (out / "tiny" / "deck.pdf").read_bytes()
        seen = len(lines)
        edit(project / "cards.yaml", "name: 盾", "name: 大盾")
        assert wait_for(lines, "changed: cards.yaml", seen), lines
        assert wait_for(lines, "tiny/deck card 2 changed: name: 盾 → 大盾", seen), lines
        assert wait_for(lines, "2 PDFs written", seen), lines
        assert (out / "tiny" / "deck.pdf").read_bytes() != first
        good = (out / "tiny" / "deck.pdf").read_bytes()
        seen = len(lines)
        edit(project / "templates" / "front.svg.j2", "card.effect", "card.efect")
        assert wait_for(lines, "build failed", seen), lines
        assert any("no field 'efect'" in line for line in lines)
        assert (out / "tiny" / "deck.pdf").read_bytes() == good
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()


def test_describe_changes_lists_added_removed_and_changed_cards(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    before = load_project(project)
    edit(project / "cards.yaml", '- {name: 盾, number: 2, effect: "相手のカードを１枚捨てる。:star:", copies: 2}',
         '- {name: 盾, number: 2, effect: "相手のカードを１枚捨てる。:star:", copies: 3}')
    edit(project / "cards.yaml", "          - {name: 弓, number: 3, tbd: [effect], effect: \"（未定）\"}\n", "")
    after = load_project(project)
    assert describe_changes(before, after) == [
        "tiny/deck card 2 changed: copies: 2 → 3",
        "tiny/deck card 3 removed: effect=（未定）, name=弓, number=3 ×1",
    ]


def test_snapshot_ignores_output_and_hidden_files(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    (project / "output").mkdir()
    (project / "output" / "x.yaml").write_text("x")
    (project / "templates" / ".swp").write_text("x")
    assert set(snapshot(project)) == {"cards.yaml", "templates/front.svg.j2", "templates/back.svg.j2", "templates/icons/star.svg",
                                      "documents/rules.txt"}  # the checker reads the documents, so a save there rechecks


def test_watch_rebuilds_when_a_sheet_of_cards_is_saved(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    (project / "tables").mkdir()  # not one of the folders watch always looks at: the model says it is read
    sheet = project / "tables" / "deck.csv"
    sheet.write_text("name,number,copies\n剣,1,3\n盾,2,2\n弓,3,1\n", encoding="utf-8")
    text = (project / "cards.yaml").read_text(encoding="utf-8")
    start, end = text.index("        cards:\n"), text.index("    expectations:")
    (project / "cards.yaml").write_text(text[:start] + "        cards: {from: tables/deck.csv}\n" + text[end:], encoding="utf-8")
    out = tmp_path / "out"
    lines = Lines()
    stop = threading.Event()
    worker = threading.Thread(target=watch, args=(project, Options(out_dir=out, cache_dir=tmp_path / "cache"), lines.append),
                              kwargs={"interval": 0.1, "stop": stop})
    worker.start()
    try:
        assert wait_for(lines, "built in"), lines
        seen = len(lines)
        edit(sheet, "盾,2,2", "大盾,2,2")
        assert wait_for(lines, "changed: tables/deck.csv", seen), lines
        assert wait_for(lines, "tiny/deck card 2 changed: name: 盾 → 大盾 (tables/deck.csv:A3)", seen), lines
        assert wait_for(lines, "PDFs written", seen), lines
        seen = len(lines)
        edit(sheet, "剣,1,3\n大盾,2,2", "剣,1,2\n大盾,2,3")  # the expectation holds the total at 6
        assert wait_for(lines, "tiny/deck card 2 changed: copies: 2 → 3 (tables/deck.csv:C3)", seen), lines
        assert wait_for(lines, "PDFs written", seen), lines
        seen = len(lines)
        edit(sheet, "大盾,2,3", "大盾,2,two")
        assert wait_for(lines, "build failed", seen), lines
        assert 'tables/deck.csv:C3: copies must be a whole number ≥ 0, got "two"' in lines[seen:], lines
        seen = len(lines)
        edit(sheet, "大盾,2,two", "大盾,2,3")
        assert wait_for(lines, "built in", seen), lines
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()


def test_a_sheet_saved_the_moment_the_first_build_ends_is_seen(tmp_path):
    """The files the model read are looked at before the build runs: a save made while "built in" is being
    printed (here by the echo itself, in the watcher's own thread, so the order is fixed) is a change."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    (project / "tables").mkdir()
    sheet = project / "tables" / "deck.csv"
    sheet.write_text("name,number,copies\n剣,1,3\n盾,2,2\n弓,3,1\n", encoding="utf-8")
    text = (project / "cards.yaml").read_text(encoding="utf-8")
    start, end = text.index("        cards:\n"), text.index("    expectations:")
    (project / "cards.yaml").write_text(text[:start] + "        cards: {from: tables/deck.csv}\n" + text[end:], encoding="utf-8")
    lines = Lines()

    def echo(line: str) -> None:
        lines.append(line)
        if line.startswith("built in") and len(lines) == 2:
            edit(sheet, "盾,2,2", "大盾,2,2")

    stop = threading.Event()
    worker = threading.Thread(target=watch, args=(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "c"),
                                                  echo), kwargs={"interval": 0.1, "stop": stop})
    worker.start()
    try:
        assert wait_for(lines, "tiny/deck card 2 changed: name: 盾 → 大盾 (tables/deck.csv:A3)"), lines
    finally:
        stop.set()
        worker.join()
