"""A Latin edition's render keys hold Pyphen's version and its dictionary's content, so that an upgrade of either fits
the edition's text again; an edition that takes no hyphens keeps the keys it had."""
from __future__ import annotations

import shutil
from pathlib import Path

import pyphen
import pytest

from pnpgen.faces.hyphenate import hyphenation_inputs
from pnpgen.faces.render import Renderer
from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.project.editions import edition
from pnpgen.project.validate import load_project
from pnpgen.store.cache import Cache

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture()
def fresh_inputs():
    """hyphenation_inputs read afresh in the test, and again after it (its answers are kept for a whole run)."""
    hyphenation_inputs.cache_clear()
    yield
    hyphenation_inputs.cache_clear()


def render_keys(root: Path) -> dict[str, str]:
    """The render key of the first card's front in each edition of the project at root, as a new build makes it."""
    project = load_project(root)
    keys = {}
    for language in ("ja", "en"):
        chosen = edition(project, language)
        game = chosen.games[0]
        component = game.components[0]
        renderer = Renderer(chosen, open_fontbook(chosen), Cache(None))
        keys[language] = renderer.render_key(game, component, component.cards[0], "front", component.front)
    return keys


def test_a_language_that_takes_no_hyphens_has_no_hyphenation_inputs(fresh_inputs):
    assert hyphenation_inputs(None) == hyphenation_inputs("ja") == hyphenation_inputs("zh") == ()
    found, = hyphenation_inputs("en")
    assert found.startswith(f"pyphen {pyphen.__version__} en_US ")


def test_a_new_pyphen_or_dictionary_changes_the_english_render_keys_only(tmp_path, monkeypatch, fresh_inputs):
    root = shutil.copytree(FIXTURES / "two-editions", tmp_path / "p")
    before = render_keys(root)
    monkeypatch.setattr(pyphen, "__version__", pyphen.__version__ + ".1")
    hyphenation_inputs.cache_clear()
    upgraded = render_keys(root)
    assert upgraded["ja"] == before["ja"] and upgraded["en"] != before["en"]
    monkeypatch.undo()
    dictionary = tmp_path / "hyph_en_US.dic"
    dictionary.write_bytes(pyphen.LANGUAGES["en_US"].read_bytes() + b"\nex1ample\n")
    monkeypatch.setitem(pyphen.LANGUAGES, "en_US", dictionary)
    hyphenation_inputs.cache_clear()
    edited = render_keys(root)
    assert edited["ja"] == before["ja"] and edited["en"] not in (before["en"], upgraded["en"])
