"""Templates asking for chance (`|random`, `lipsum()`) still give the same PDFs for the same project."""
import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.errors import PnpError
from pnpgen.templating.sandbox import make_environment

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CHANCE = ('{{ text(["赤", "青", "緑", "黄", "白", "黒", "紫", "橙"]|random, SAFE + 2, 35, 20, 8, size=9) }}\n'
          '{{ text(lipsum(1, False, 5, 9), SAFE + 2, 80, W - 2*SAFE - 4, 20, size=6, min_size=4) }}\n')


def project_with_chance(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    front = project / "templates" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8") + CHANCE, encoding="utf-8")
    return project


def pdfs(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def test_a_template_using_random_and_lipsum_builds_the_same_pdfs_twice(tmp_path):
    project = project_with_chance(tmp_path)
    for run in ("one", "two"):
        pnpgen.build(project, Options(out_dir=tmp_path / run, cache=False, check=False))
    first = pdfs(tmp_path / "one")
    assert first and first == pdfs(tmp_path / "two")


def render(source: str, **context) -> str:
    return make_environment().from_string(source).render(**context)


def test_random_picks_by_card_the_same_each_time():
    colours = list("ABCDEFGHIJKLMNOP")
    picks = {render("{{ colours|random }}", card={"name": f"card {n}"}, colours=colours) for n in range(40)}
    assert len(picks) > 4  # different cards do not all get the same pick
    for n in range(10):
        assert len({render("{{ colours|random }}", card={"name": f"card {n}"}, colours=colours)
                    for _ in range(5)}) == 1
    assert render("{{ 'xyz'|random }}") in "xyz"
    assert render("{{ range(5)|random }}") in "01234"


def test_lipsum_is_the_same_text_for_the_same_arguments_and_stays_bounded():
    text = render("{{ lipsum(3, False, 20, 30) }}")
    assert text == render("{{ lipsum(3, False, 20, 30) }}")
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == 3 and all(20 <= len(p.split()) <= 30 for p in paragraphs)
    assert render("{{ lipsum(1) }}").startswith("<p>") and render("{{ lipsum(1) }}").endswith("</p>")
    with pytest.raises(PnpError, match="expected at most 100 paragraphs"):
        render("{{ lipsum(1000000) }}")
