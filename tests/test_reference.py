"""The documentation's reference pages (YAML keys, CLI, template helpers) are exactly what the code generates."""
from pathlib import Path

import jinja2
import pytest

from pnpgen import reference
from pnpgen.faces.fonts import FontBook
from pnpgen.faces.render import Renderer
from pnpgen.project.validate import load_project

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("page", sorted(reference.PAGES))
def test_the_reference_page_is_what_the_code_generates(page):
    begin, end, render = reference.PAGES[page]
    text = (REPO / page).read_text(encoding="utf-8")
    start, stop = text.index(begin), text.index(end) + len(end)
    assert text[start:stop] == getattr(reference, render)(), f"run `python -m pnpgen.reference` to update {page}"


def test_every_helper_a_face_template_can_call_is_documented(tmp_path):
    renderer = Renderer(load_project(REPO), FontBook([], cache_dir=tmp_path))
    own = set(renderer.env.globals) - set(jinja2.Environment().globals)
    assert own == set(reference.HELPERS) - {"assumed"}  # assumed() is given with each face's context
    filters = {f for f in set(renderer.env.filters) - set(jinja2.Environment().filters) if not f.startswith("pnpgen_")}
    documented = " ".join(reference.FILTERS)
    assert [f for f in sorted(filters) if f"`{f}`" not in documented] == []
