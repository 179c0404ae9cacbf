"""A build whose sources, options and outputs are the last build's is answered from the manifest without loading
the project; any change to what a build reads, or to an output, goes the whole way again."""
import json
import os
import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.pipeline import build as pipeline
from pnpgen.project import validate
from pnpgen.pipeline.manifest import NAME

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RULES = "# 小さなゲームのルール\n\n## 準備\n\nカードは{{ count('deck') }}枚。\n"


@pytest.fixture()
def project(tmp_path):
    """The minimal project with its cards in an included file and a rulebook outside the usual folders."""
    target = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", target)
    cards = target / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    head, games = text.split("games:\n", 1)
    (target / "games").mkdir()
    (target / "games" / "tiny.yaml").write_text("games:\n" + games.replace(
        "    players:", "    rulebook: games/rules.md\n    players:"), encoding="utf-8")
    (target / "games" / "rules.md").write_text(RULES, encoding="utf-8")
    cards.write_text(head + "include:\n  - games/tiny.yaml\n", encoding="utf-8")
    return target


@pytest.fixture()
def loads(monkeypatch):
    """How many times a build loaded the project."""
    count = []
    real = validate.load_project

    def counting(path):
        count.append(path)
        return real(path)
    monkeypatch.setattr(validate, "load_project", counting)  # build() imports it when it loads
    return count


def build(project: Path, out: Path, cache_dir: Path, **options) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache_dir, **options))


def pdfs(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def settle(project: Path, out: Path, cache_dir: Path) -> pnpgen.Report:
    """Build until the record holds the digest (a build that finds more files than the record listed keeps none)."""
    build(project, out, cache_dir)
    return build(project, out, cache_dir)


def test_an_unchanged_project_is_answered_without_loading_it(project, tmp_path, loads):
    first = build(project, tmp_path / "out", tmp_path / "cache")
    assert len(first.written) == 3  # the deck, the print-and-play PDF, the rulebook
    second = build(project, tmp_path / "out", tmp_path / "cache")  # the record now lists the included files
    assert second.written == [] and sorted(second.unchanged) == sorted(first.written)
    loaded = len(loads)
    third = build(project, tmp_path / "out", tmp_path / "cache")
    assert len(loads) == loaded  # answered from the record
    assert (third.written, third.renders, third.faces) == ([], 0, 0)
    assert sorted(third.unchanged) == sorted(first.written)
    assert (third.pieces, third.notes) == (second.pieces, second.notes) and third.pieces == 6


def test_an_up_to_date_build_imports_no_loader_model_renderer_or_writer(project, tmp_path):
    """What answers from the record starts quickly: no YAML parser, Jinja2, lxml or reportlab is imported, nor the
    project model, for a build with nothing to do."""
    import subprocess
    import sys

    settle(project, tmp_path / "out", tmp_path / "cache")
    code = ("import runpy, sys; sys.argv = ['pnpgen', 'build', sys.argv[1], '-o', sys.argv[2]]\n"
            "try:\n    runpy.run_module('pnpgen', run_name='__main__')\n"
            "finally:\n    print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    ran = subprocess.run([sys.executable, "-c", code, str(project), str(tmp_path / "out")], capture_output=True,
                         text=True, env={**os.environ, "PNPGEN_CACHE": str(tmp_path / "cache")}, check=True)
    assert "wrote 0 PDFs, 3 unchanged" in ran.stdout
    loaded = set(ran.stderr.split())
    assert "pnpgen.pipeline.uptodate" in loaded
    assert not {"yaml", "jinja2", "lxml", "reportlab", "pnpgen.project.model", "pnpgen.project.validate"} & loaded


def saved_an_hour_ago(project: Path) -> None:
    for path in project.rglob("*"):
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns - 3600 * 10 ** 9))


def test_the_first_build_of_a_project_of_several_files_is_the_record_the_next_one_answers_from(project, tmp_path,
                                                                                              loads):
    """The first build does not know the included files and the rulebook before it loads: it takes the digest over
    them again as it ends, and the rebuild after it is answered from the record."""
    saved_an_hour_ago(project)
    first = build(project, tmp_path / "out", tmp_path / "cache")
    assert len(first.written) == 3 and len(loads) == 1
    second = build(project, tmp_path / "out", tmp_path / "cache")
    assert len(loads) == 1 and second.written == [] and sorted(second.unchanged) == sorted(first.written)
    edit = project / "games" / "tiny.yaml"
    edit.write_text(edit.read_text(encoding="utf-8").replace("{name: 盾,", "{name: 大盾,"), encoding="utf-8")
    assert len(build(project, tmp_path / "out", tmp_path / "cache").written) == 2 and len(loads) == 2


@pytest.mark.parametrize("when", ["saved as it was loaded", "swapped once loaded, its old time kept"])
def test_a_file_the_first_build_did_not_list_that_changed_as_it_ran_leaves_no_record_to_answer_from(
        project, tmp_path, loads, monkeypatch, when):
    saved_an_hour_ago(project)
    included = project / "games" / "tiny.yaml"
    old = included.stat()

    def change() -> None:
        text = included.read_text(encoding="utf-8")
        included.write_text(text.replace("{name: 盾,", "{name: 大盾,"), encoding="utf-8")
        if when != "saved as it was loaded":
            os.utime(included, ns=(old.st_atime_ns, old.st_mtime_ns))
    if when == "saved as it was loaded":  # after the loader read it, before the build took what it read
        real_load = validate.load_project
        monkeypatch.setattr(validate, "load_project", lambda path: [real_load(path), change()][0])
    else:
        real_build = pipeline.build_project
        monkeypatch.setattr(pipeline, "build_project", lambda *args, **kw: [change(), real_build(*args, **kw)][1])
    build(project, tmp_path / "out", tmp_path / "cache")  # built from the file as it was
    monkeypatch.undo()
    again = build(project, tmp_path / "out", tmp_path / "cache")
    assert len(again.written) == 2  # built again from the file as it is: the deck's PDFs


@pytest.mark.parametrize("change", ["card", "included file", "template", "icon", "image", "rulebook", "document",
                                    "font", "option", "output"])
def test_any_change_to_what_a_build_reads_builds_again(project, tmp_path, loads, change):
    out, cache = tmp_path / "out", tmp_path / "cache"
    before = settle(project, out, cache)
    loaded = len(loads)
    options = {}
    edits = {"card": "cards.yaml", "included file": "games/tiny.yaml", "template": "templates/front.svg.j2",
             "icon": "templates/icons/star.svg", "rulebook": "games/rules.md", "document": "documents/rules.txt"}
    if change in edits:
        path = project / edits[change]
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    elif change in ("image", "font"):
        folder = project / ("images" if change == "image" else "fonts")
        folder.mkdir()
        (folder / "new.bin").write_bytes(b"\x00" * 10)
    elif change == "option":
        options = {"paper": "letter"}
    else:
        (out / "tiny" / "deck.pdf").write_bytes(b"%PDF-1.4 damaged")
    again = build(project, out, cache, **options)
    assert len(loads) == loaded + 1
    if change == "output":
        assert again.written == [out / "tiny" / "deck.pdf"]
    if change == "option":
        assert len(again.written) == 3
    assert len(again.written) + len(again.unchanged) == len(before.unchanged)


def test_outputs_another_build_replaced_are_made_again(project, tmp_path, loads):
    """A letter build of the loaded project (as watch makes) replaces the A4 PDFs but keeps the A4 build's
    record, which still matches the sources: the next A4 build must not take its word for the PDFs."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    settle(project, out, cache)
    a4 = pdfs(out)
    pipeline.build_project(pnpgen.load_project(project), Options(out_dir=out, cache_dir=cache, paper="letter"))
    assert pdfs(out) != a4
    loaded = len(loads)
    again = build(project, out, cache)
    assert len(loads) == loaded + 1 and len(again.written) == 3 and pdfs(out) == a4


def test_an_edited_output_record_is_read_as_no_record(project, tmp_path, loads):
    out, cache = tmp_path / "out", tmp_path / "cache"
    settle(project, out, cache)
    manifest = json.loads((out / NAME).read_text(encoding="utf-8"))
    for damage in ({"outputs": {"../../elsewhere.pdf": "x"}}, {"pieces": "six"}, {"notes": [1]}, "garbage"):
        record = manifest["/last-build"]
        edited = dict(record, **damage) if isinstance(damage, dict) else damage
        (out / NAME).write_text(json.dumps({**manifest, "/last-build": edited}), encoding="utf-8")
        loaded = len(loads)
        report = build(project, out, cache)
        assert len(loads) == loaded + 1 and report.written == []
        assert all(path.is_relative_to(out) for path in report.unchanged)
        (out / NAME).write_text(json.dumps(manifest), encoding="utf-8")


def test_leftover_notes_and_clean_work_from_the_record(project, tmp_path, loads):
    out, cache = tmp_path / "out", tmp_path / "cache"
    settle(project, out, cache)
    (out / "tiny" / "gone.pdf").write_bytes(b"%PDF-1.4 from an older build")
    manifest = json.loads((out / NAME).read_text(encoding="utf-8"))
    manifest["tiny/gone.pdf"] = {"digest": "old", "size": 28}
    (out / NAME).write_text(json.dumps(manifest), encoding="utf-8")
    loaded = len(loads)
    noted = build(project, out, cache)
    assert len(loads) == loaded and any("tiny/gone.pdf is left" in note for note in noted.notes)
    cleaned = build(project, out, cache, clean=True)
    assert any("removed tiny/gone.pdf" in note for note in cleaned.notes) and not (out / "tiny" / "gone.pdf").exists()
    assert "tiny/gone.pdf" not in json.loads((out / NAME).read_text(encoding="utf-8"))


def test_without_the_cache_nothing_is_answered_from_the_record(project, tmp_path, loads):
    out, cache = tmp_path / "out", tmp_path / "cache"
    settle(project, out, cache)
    loaded = len(loads)
    report = build(project, out, cache, cache=False)
    assert len(loads) == loaded + 1 and len(report.written) == 3
