"""A hostile project of many distinct faces, each under a render's own limits, is stopped by the run's budget in
build, check, export and serve, helpers' faces counted too; the bundled project spends a sliver of it."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import pnpgen
from pnpgen import Options
from pnpgen.cli import main
from pnpgen.live.gallery import Gallery
from pnpgen.live.state import Live
from pnpgen.templating import run_budget
from pnpgen.templating.limits import MAX_STEPS as FACE_STEPS
from pnpgen.templating.run_budget import whole_run

ROOT = Path(__file__).resolve().parents[2]
# Nearly a render's whole budget of steps for every face: 19 loops of 100,000 (the sandbox's largest range).
HEAVY = "{% for i in range(19) %}{% for j in range(100000) %}{% endfor %}{% endfor %}<g id=\"c{{ card.n }}\"/>"
LIGHT = "{% for i in range(50) %}<g/>{% endfor %}<g id=\"c{{ card.n }}\"/>"
CARDS = """games:
  - id: g
    title: G
    rulebook: rules/r.md
    components:
      - id: deck
        front: front.svg.j2
        cards:
{cards}
"""


def make_project(tmp_path: Path, front: str, cards: int, rules: str = "# R\n") -> Path:
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True, exist_ok=True)
    (root / "rules").mkdir(exist_ok=True)
    (root / "cards.yaml").write_text(CARDS.format(cards="\n".join(f"          - {{n: {n}}}" for n in range(cards))),
                                     encoding="utf-8")
    (root / "templates" / "front.svg.j2").write_text(front, encoding="utf-8")
    (root / "rules" / "r.md").write_text(rules, encoding="utf-8")
    return root


def run(monkeypatch, limits: str, *args):
    monkeypatch.setenv(run_budget.LIMITS_VARIABLE, limits)
    return CliRunner().invoke(main, [str(a) for a in args])


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def steps_stop(run: str, limit: str, spent: str, where: str = "cards.yaml:6:9",
               spender: str = "templates/front.svg.j2 for component g/deck") -> str:
    """The message of a run stopped by its steps, as the CLI prints it."""
    return (f"{where}: the {run} used more than {limit} template steps in all (loop iterations and calls; the limit "
            f"for one run); most went to {spender} ({spent}); expected templates that do bounded work\n")


def test_a_build_of_many_faces_each_near_a_renders_limit_stops_and_leaves_the_previous_pdfs(tmp_path, monkeypatch):
    root = make_project(tmp_path, LIGHT, 20)
    first = run(monkeypatch, "", "build", root, "-o", tmp_path / "out")
    assert first.exit_code == 0, first.output
    before = files_of(tmp_path / "out")
    assert "g/deck.pdf" in before
    (root / "templates" / "front.svg.j2").write_text(HEAVY, encoding="utf-8")
    result = run(monkeypatch, "steps=5000000", "build", root, "-o", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == steps_stop("build", "5,000,000", "5,700,117 steps over 3 faces")
    assert "Traceback" not in result.output
    assert 5_700_117 / 3 < FACE_STEPS  # every face stayed within a render's own limit
    assert files_of(tmp_path / "out") == before  # nothing replaced, nothing half-written left beside it


def test_the_faces_a_helper_process_renders_count_in_the_builds_budget(tmp_path, monkeypatch):
    root = make_project(tmp_path, LIGHT, 400)  # enough distinct cards for a helper to render half of them
    # Either process alone spends about half of the 400 faces' 20,400 steps: only the two together are past 15,000.
    result = run(monkeypatch, "steps=15000", "build", root, "-o", tmp_path / "out", "--no-check")
    assert result.exit_code == 1
    assert result.stderr == steps_stop("build", "15,000", "20,400 steps over 400 faces")
    assert files_of(tmp_path / "out") == {}  # no PDF, and no part of one left beside where it would go


def test_the_pdfs_a_build_writes_count_in_its_output(tmp_path, monkeypatch):
    root = make_project(tmp_path, LIGHT, 3)
    result = run(monkeypatch, "output=1000", "build", root, "-o", tmp_path / "out", "--only", "components")
    assert result.exit_code == 1
    assert result.stderr == (
        "cards.yaml:6:9: the build wrote more than 1,000 characters of SVG and PDF in all (the limit for one run); "
        "most went to the PDF of component g/deck (1,727 characters); expected faces of ordinary size\n")
    assert files_of(tmp_path / "out") == {}  # no PDF, and no part of one left beside where it would go


def test_export_stops_at_the_same_budget(tmp_path, monkeypatch):
    root = make_project(tmp_path, HEAVY, 5)
    result = run(monkeypatch, "steps=3000000", "export", "png", root, "-o", tmp_path / "out", "--dpi", "30")
    assert result.exit_code == 1
    assert result.stderr == steps_stop("export", "3,000,000", "3,800,078 steps over 2 faces")
    assert files_of(tmp_path / "out") == {}  # no image written


def test_check_stops_at_the_same_budget_in_the_rulebooks_expressions(tmp_path, monkeypatch):
    rules = "# R\n{% for i in range(100000) %}{% endfor %}{% for i in range(100000) %}{% endfor %}\n"
    root = make_project(tmp_path, LIGHT, 2, rules)
    result = run(monkeypatch, "steps=150000", "check", root)
    assert result.exit_code == 1
    assert result.stderr == steps_stop("check", "150,000", "200,002 steps over 1 rulebook", "rules/r.md",
                                       "rules/r.md, the rulebook of game g")


def test_serve_shows_the_budget_stopping_a_rebuild(tmp_path, monkeypatch):
    root = make_project(tmp_path, HEAVY, 5)
    monkeypatch.setenv(run_budget.LIMITS_VARIABLE, "steps=3000000")
    live = Live()
    assert Gallery(Options(out_dir=tmp_path / "out")).rebuild(root, live, []) is None
    assert live.state["error"] == [steps_stop("preview", "3,000,000", "3,800,078 steps over 2 faces").rstrip()]


def test_the_bundled_project_spends_a_sliver_of_the_default_budget(tmp_path, monkeypatch):
    monkeypatch.delenv(run_budget.LIMITS_VARIABLE, raising=False)
    with whole_run("build") as run:
        pnpgen.build(ROOT, Options(out_dir=tmp_path / "out", cache=False))
    assert (tmp_path / "out" / "otogi-taisen" / "rulebook.pdf").is_file()
    assert 0 < run.steps * 1000 < run.limits.steps  # a real deck far larger still stays far inside
    assert 0 < run.output * 1000 < run.limits.output
    assert run.limits == run_budget.Limits()
