"""Rendering ahead looks each card up once a build: laying out finds the faces it settled on, the helper's too."""
import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.pipeline import prerender, build as pipeline
from pnpgen.store.pack import FacePack
from pnpgen.faces import render, stored
from pnpgen.faces.stored import StoredForms

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def many_cards(tmp_path: Path, count: int) -> Path:
    project = tmp_path / "many"
    shutil.copytree(FIXTURES / "minimal", project)
    cards = "\n".join(f"          - {{name: カード{n}, number: {n % 9 + 1}, effect: 効果{n}}}" for n in range(count))
    text = (project / "cards.yaml").read_text(encoding="utf-8")
    start, end = text.index("        cards:\n"), text.index("    expectations:")
    (project / "cards.yaml").write_text(text[:start] + "        cards:\n" + cards + "\n" + text[end:], encoding="utf-8")
    return project


def pdf_bytes(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


@pytest.fixture()
def counted(monkeypatch):
    """Pack lookups (of a render key's face) and form records read to check them, made by this process, by phase
    (rendering ahead, laying out)."""
    counts = {"phase": "before", "ahead": [0, 0], "layout": [0, 0]}

    def count(position, function, only=lambda *args: True):
        def wrapped(*args, **kwargs):
            if counts["phase"] in ("ahead", "layout") and only(*args):
                counts[counts["phase"]][position] += 1
            return function(*args, **kwargs)
        return wrapped

    def phase(name, function):
        def wrapped(*args, **kwargs):
            counts["phase"] = name
            try:
                return function(*args, **kwargs)
            finally:
                counts["phase"] = "after"
        return wrapped

    monkeypatch.setattr(FacePack, "get", count(0, FacePack.get, lambda pack, kind, key: kind == b"R"))
    monkeypatch.setattr(StoredForms, "check", count(1, StoredForms.check, lambda stored, key, data, done: not done))
    monkeypatch.setattr(prerender, "render_ahead", phase("ahead", prerender.render_ahead))
    monkeypatch.setattr(pipeline, "plan_components", phase("layout", pipeline.plan_components))
    return counts


@pytest.mark.parametrize("parallel", [True, False])
def test_laying_out_looks_up_no_card_again(tmp_path, monkeypatch, counted, parallel):
    monkeypatch.setattr(prerender, "PARALLEL_CARDS", 200 if parallel else 10 ** 9)
    monkeypatch.setattr(render, "MEMO", 16)  # as in a deck far larger than the renderer's memos
    project = many_cards(tmp_path, 240)
    cold = pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False))
    assert (cold.renders, cold.faces) == (241, 241)  # 240 fronts, one shared back
    # Every face, the helper's too, was settled while rendering ahead; a deck too small for a helper is rendered
    # as it is laid out, but for its first card (each front looked up once as it renders; the back read no field,
    # so its face, rendered for the first card, is every card's).
    assert counted["layout"] == ([0, 0] if parallel else [239, 239])
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("カード7,", "変えたカード,"), encoding="utf-8")
    counted["ahead"], counted["layout"] = [0, 0], [0, 0]
    monkeypatch.setattr(stored, "_CHECKED", {})  # as in a new process (watch keeps what its builds checked)
    tweak = pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False))
    assert (tweak.renders, tweak.faces) == (1, 1)  # the changed card's front; its back is the deck's
    # Each side's fieldless face looked for once (the back's is found), then each card's front once, the changed
    # card's again as it renders. A new build checks each face it reads from the pack once (the 239 fronts that
    # stay, the back, and the one the changed card renders to, which the pack has not got), none again.
    assert counted["ahead"] == [2 + 240 + 1, 241]
    assert counted["layout"] == [0, 0]
    pnpgen.build(project, Options(out_dir=tmp_path / "clean", cache=False, check=False))
    assert pdf_bytes(tmp_path / "out") == pdf_bytes(tmp_path / "clean")


def test_progress_counts_the_faces_rendered_not_the_components(tmp_path):
    project = many_cards(tmp_path, prerender.PARALLEL_CARDS + 50)
    heard = []
    pnpgen.build(project, Options(out_dir=tmp_path / "out", check=False, cache_dir=tmp_path / "cache"),
                 progress=lambda phase, done, total, label: heard.append((phase, done, total)))
    rendering = [(done, total) for phase, done, total in heard if phase == "rendering"]
    faces = {total for _, total in rendering}
    if prerender.can_fork():
        assert faces == {2 * (prerender.PARALLEL_CARDS + 50)}  # every card's front and back
        assert rendering[-1][0] == rendering[-1][1] and len(rendering) > 5
        assert [done for done, _ in rendering] == sorted(done for done, _ in rendering)
    assert {total for phase, _, total in heard if phase == "laying out"} == {1}  # the fixture's one component


def test_cards_are_dealt_in_turn_across_components():
    shares = prerender.take_turns([("g", "a", [0, 1, 2, 3]), ("g", "b", [10, 11, 12])], 3)
    assert shares == [[("g", "a", [0, 3]), ("g", "b", [12])],  # the seventh card is this process's third
                      [("g", "a", [1]), ("g", "b", [10])],
                      [("g", "a", [2]), ("g", "b", [11])]]


@pytest.mark.parametrize("cores", [1, 3])
def test_each_core_renders_a_share(tmp_path, monkeypatch, counted, cores):
    """Three cores: two helpers, each handing back its share; one core: no helper, every card rendered as it is
    laid out. The PDFs are those of a build without a cache either way."""
    monkeypatch.setattr(prerender, "usable_cores", lambda: cores)
    monkeypatch.setattr(prerender, "PARALLEL_CARDS", 200)
    forks, fork = [], prerender.Background
    monkeypatch.setattr(prerender, "Background", lambda job: forks.append(job) or fork(job))
    project = many_cards(tmp_path, 301)
    cold = pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", check=False))
    assert (cold.renders, cold.faces) == (302, 302)  # 301 fronts, one shared back
    if prerender.can_fork():
        assert len(forks) == cores - 1
        assert counted["layout"] == ([0, 0] if cores > 1 else [300, 300])
    pnpgen.build(project, Options(out_dir=tmp_path / "clean", cache=False, check=False))
    assert pdf_bytes(tmp_path / "out") == pdf_bytes(tmp_path / "clean")
