"""The documentation (how-to/rulebooks.md, reference/templates.md) documents every name a rulebook template sees,
every filter pnpgen adds, the picture syntax, and that faces are clipped at the bleed."""
from __future__ import annotations

from pathlib import Path

import jinja2

from pnpgen.templating.sandbox import make_environment
from pnpgen.project.validate import load_project
from pnpgen.rules.context import make_context

REPO = Path(__file__).resolve().parents[2]
README = "\n".join((REPO / "docs" / page).read_text(encoding="utf-8")
                   for page in ("how-to/rulebooks.md", "reference/templates.md"))


def test_every_rulebook_name_and_filter_is_in_the_readme():
    game = load_project(REPO).games[0]
    names = set(make_context(game))
    # pnpgen_* filters are the work bounds the sandbox inserts itself, never written by a designer
    own_filters = {f for f in set(make_environment().filters) - set(jinja2.Environment().filters) if not f.startswith("pnpgen_")}
    assert own_filters  # zen at least
    missing = [n for n in sorted(names | {f"filter `{f}`" for f in own_filters})
               if (f"`{n}" not in README if not n.startswith("filter") else n not in README)]
    assert missing == []


def test_the_readme_gives_the_picture_syntax_and_the_clipping():
    for form in ("component:ID", "component:ID#N", "component:ID?field=value", "/back"):
        assert form in README
    assert "clipped at its bleed" in README
