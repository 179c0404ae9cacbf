"""`pnpgen diff` on a git repository holding the bundled project: exactly the edited cards, fields and faces."""
from __future__ import annotations

import base64
import io
import json
import re
import subprocess
import sys

import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from diff.gitrepo import REPO, apply_edits, commit_all, copy_bundled, git
from pnpgen import build, Options
from pnpgen.diff.run import DiffOptions, diff
from pnpgen.errors import PnpError
from pnpgen.project.validate import load_project

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

EXPECTED = {
    # (component, status, index, fields that changed, sides whose face changed, files that alone explain it)
    ("battle-cards", "changed", 3, ("effect",), ("front",), ()),  # the text of the 2 ron card
    ("battle-cards", "removed", 8, (), ("front", "back"), ()),  # {number: 5, copies: 4}
    ("battle-cards", "changed", 11, ("number",), ("front",), ()),  # the 7s renumbered 6
    ("battle-cards", "added", 12, (), ("front", "back"), ()),
    ("score-chips", "changed", 1, (), ("front",), ("templates/three-times/chip.svg.j2",)),  # the colour
    ("battle-cards-box", "changed", 1, ("deck_cards",), (), ()),  # the deck's tuck box: 46 → 44 cards deep
}


@pytest.fixture(scope="module")
def result(edited_repo, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    return diff(edited_repo, DiffOptions(out_dir=out)), out


def summary(report) -> set:
    return {(c["component"], c["status"], c["index"], tuple(f["name"] for f in c["fields"]), tuple(c["faces"]),
             tuple(c["because"])) for c in report.json["cards"]}


def test_diff_names_exactly_the_edited_cards_fields_and_sections(result, edited_repo):
    report, _ = result
    assert summary(report) == EXPECTED
    assert {c["game"] for c in report.json["cards"]} == {"three-times-undress"}
    assert report.json["files"] == ["templates/three-times/chip.svg.j2"]
    fields = {(c["index"], f["name"]): f for c in report.json["cards"] for f in c["fields"] if c["component"] == "battle-cards"}
    assert (fields[11, "number"]["old"], fields[11, "number"]["new"]) == (7, 6)
    assert fields[3, "effect"]["new"].endswith("【仮】新しい効果。")
    # file:line of the value as written, in the file as it is now
    lines = (edited_repo / "games/three-times-undress.yaml").read_text(encoding="utf-8").splitlines()
    for field in fields.values():
        file, line, col = field["location"].rsplit(":", 2)
        assert file == "games/three-times-undress.yaml"
        assert lines[int(line) - 1][int(col) - 1:].startswith(("6", '":ron:')), field
    heading = "### 闘牌カード（{{ count('battle-cards')|zen }}枚）"
    rulebook = (edited_repo / "rules/three-times-undress.md").read_text(encoding="utf-8").splitlines()
    assert report.json["sections"] == [{"game": "three-times-undress", "file": "rules/three-times-undress.md",
                                        "line": rulebook.index(heading) + 1, "heading": heading, "status": "changed"}]
    text = "\n".join(report.lines)
    assert "number: 7 → 6" in text and "only because these changed: templates/three-times/chip.svg.j2" in text


def test_only_changed_faces_are_rasterised(result):
    report, _ = result
    # three changed faces (old and new), the added card's two faces, the removed card's two
    assert report.rasterised == 3 * 2 + 2 + 2


def figures(html: str) -> list[tuple[str, Image.Image]]:
    found = re.findall(r'<figure class="(old|new|overlay)"><img src="data:image/png;base64,([^"]+)"', html)
    return [(role, Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")) for role, data in found]


def test_html_holds_old_and_new_images_of_exactly_the_changed_faces(result):
    _, out = result
    html = (out / "changes.html").read_text(encoding="utf-8")
    assert "<script" not in html and "src=\"http" not in html and "url(" not in html  # self-contained, inert
    shown = figures(html)
    roles = [role for role, _ in shown]
    assert roles.count("old") == 3 + 2 and roles.count("new") == 3 + 2 and roles.count("overlay") == 3
    blocks = re.findall(r'<div class="faces" data-side="(\w+)">(.*?)</div>', html)
    assert len(blocks) == 3 + 2 + 2
    for side, block in blocks:
        pair = figures(block)
        if len(pair) == 3:  # a changed face: old and new differ, and the overlay marks pixels in red
            (_, old), (_, new), (_, overlay) = pair
            assert old.size == new.size and old.tobytes() != new.tobytes()
            red, green, _ = overlay.split()
            marked = ImageChops.multiply(red.point(lambda v: 255 if v > 200 else 0),
                                         green.point(lambda v: 255 if v < 120 else 0))
            assert marked.getbbox() is not None


def test_pdf_holds_the_same_report_as_printable_pages(result):
    _, out = result
    reader = PdfReader(out / "changes.pdf")
    text = "".join(page.extract_text() for page in reader.pages)
    assert "number: 7 → 6" in text and "templates/three-times/chip.svg.j2" in text
    images = sum(len(page.images) for page in reader.pages)
    assert images == 5 + 5 + 3
    assert all(round(float(page.mediabox.width)) == 595 for page in reader.pages)


def test_a_tag_names_the_same_state_and_nothing_changed_is_exit_0(edited_repo, tmp_path):
    tagged = diff(edited_repo, DiffOptions(out_dir=tmp_path, since="playtest-3"))
    assert summary(tagged) == EXPECTED
    command = [sys.executable, "-m", "pnpgen", "diff", str(edited_repo), "--since", "HEAD", "-o", str(tmp_path), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["revision"].startswith("HEAD (")


def test_no_change_reports_nothing(tmp_path):
    project = copy_bundled(tmp_path / "p")
    git(project, "init", "-q")
    commit_all(project)
    report = diff(project, DiffOptions(out_dir=tmp_path / "out"))
    assert report.json["cards"] == [] and report.json["sections"] == [] and report.rasterised == 0
    assert "no card and no rulebook section changed" in "\n".join(report.lines)


def test_without_git_last_build_gives_the_same_changes(tmp_path):
    project = copy_bundled(tmp_path / "p")
    out = tmp_path / "out"
    with pytest.raises(PnpError, match="nothing to compare with"):
        diff(project, DiffOptions(out_dir=out))
    build(project, Options(out_dir=out, only="components"))
    apply_edits(project)
    report = diff(project, DiffOptions(out_dir=out))  # the default: no git, so the last build
    assert summary(report) == EXPECTED
    assert report.json["revision"].startswith("the last build")


def test_bad_revisions_and_records_are_clear_errors(edited_repo, tmp_path):
    with pytest.raises(PnpError, match="no such revision"):
        diff(edited_repo, DiffOptions(out_dir=tmp_path, since="no-such-tag"))
    with pytest.raises(PnpError, match="no record of a previous"):
        diff(edited_repo, DiffOptions(out_dir=tmp_path, since="last-build"))
    plain = copy_bundled(tmp_path / "plain")
    with pytest.raises(PnpError, match="not in a git repository"):
        diff(plain, DiffOptions(out_dir=tmp_path, since="HEAD"))


def test_a_tampered_record_is_refused(tmp_path):
    project = copy_bundled(tmp_path / "p")
    out = tmp_path / "out"
    build(project, Options(out_dir=out, only="components"))
    index_path = out / ".pnpgen-build" / "index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    entry = index["files"]["cards.yaml"]
    (out / ".pnpgen-build" / "objects" / entry["sha256"]).write_text("project: {name: x}\n", encoding="utf-8")
    with pytest.raises(PnpError, match="altered after the build"):
        diff(project, DiffOptions(out_dir=out, since="last-build"))
    index["files"] = {"../outside.yaml": entry}
    index_path.write_text(json.dumps(index), encoding="utf-8")
    with pytest.raises(PnpError, match="no file of a project"):
        diff(project, DiffOptions(out_dir=out, since="last-build"))
    assert not (tmp_path / "outside.yaml").exists()


def test_an_icon_changes_exactly_the_faces_that_show_it(tmp_path):
    project = copy_bundled(tmp_path / "p")
    git(project, "init", "-q")
    commit_all(project)
    apply_edits(project, [("templates/icons/ron.svg", '<circle cx="50" cy="50" r="48" fill="#b3262d"/>',
                           '<circle cx="50" cy="50" r="48" fill="#2b4f8c"/>')])
    report = diff(project, DiffOptions(out_dir=tmp_path / "out"))
    loaded = load_project(project)
    shows_ron = {(g.id, c.id, index) for g in loaded.games for c in g.components
                 for index, card in enumerate(c.cards, 1)
                 if card.fields.get("ron") is True or any(":ron:" in str(v) for v in card.fields.values())}
    assert shows_ron  # the seal on ron cards, and :ron: in their effect text
    assert {(c["game"], c["component"], c["index"]) for c in report.json["cards"]} == shows_ron
    assert all(c["fields"] == [] and c["faces"] == ["front"] and c["because"] == ["templates/icons/ron.svg"]
               for c in report.json["cards"])
    assert report.json["sections"] == []


def test_a_revision_is_never_read_as_an_option(edited_repo, tmp_path):
    for since in ("--output=x", "-p", "HEAD --all"):
        with pytest.raises(PnpError, match="no such revision"):
            diff(edited_repo, DiffOptions(out_dir=tmp_path, since=since))
    assert not (tmp_path / "x").exists() and not (edited_repo / "x").exists()


def test_the_command_line_reports_problems_without_a_traceback(tmp_path):
    plain = copy_bundled(tmp_path / "plain")
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    for args, message in ((["diff", str(plain)], "nothing to compare with"),
                          (["build", str(plain), "--since", "HEAD"], "goes with --reprint"),
                          (["build", str(plain), "--reprint", "--since", "last-build"], "no record of a previous")):
        done = subprocess.run([sys.executable, "-m", "pnpgen", *args], capture_output=True, text=True, env=env)
        assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_changed_default_points_at_the_defaults(tmp_path):
    project = copy_bundled(tmp_path / "p")
    git(project, "init", "-q")
    commit_all(project)
    apply_edits(project, [("games/three-times-undress.yaml", 'gold: "#b48a3c"', 'gold: "#c49a4c"')])
    report = diff(project, DiffOptions(out_dir=tmp_path / "out", game="three-times-undress"))
    lines = (project / "games/three-times-undress.yaml").read_text(encoding="utf-8").splitlines()
    located = {f["location"] for c in report.json["cards"] for f in c["fields"]}
    assert len(located) == 1 and report.json["cards"]
    line, col = (int(n) for n in located.pop().rsplit(":", 2)[1:])
    assert lines[line - 1][col - 1:].startswith('"#c49a4c"')
    assert {tuple(f["name"] for f in c["fields"]) for c in report.json["cards"]} == {("gold",)}
