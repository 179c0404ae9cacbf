"""A process that builds again (watch, serve) compiles a template once for each source it has: a saved template is
compiled again, and two projects' templates of one name stay apart."""
from pathlib import Path

import jinja2
import pytest

from pnpgen.templating.sandbox import make_environment


def compiled_in(monkeypatch) -> list[str]:
    """The names of the templates compiled from now on."""
    names: list[str] = []
    real = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):
        names.append(name)
        return real(self, source, name, filename, *args, **kwargs)
    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def render(templates: Path, name: str = "front.svg.j2") -> str:
    """One build's rendering: each build makes its environment anew."""
    return make_environment(templates).get_template(name).render(card={"name": "剣"})


def test_a_template_is_compiled_once_until_its_source_changes(tmp_path, monkeypatch):
    templates = tmp_path / "project" / "templates"
    templates.mkdir(parents=True)
    (templates / "front.svg.j2").write_text("<text>{{ card.name }}</text>", encoding="utf-8")
    compiled = compiled_in(monkeypatch)
    assert render(templates) == render(templates) == "<text>剣</text>"
    assert compiled == ["front.svg.j2"]
    (templates / "front.svg.j2").write_text("<text>{{ card.name }}!</text>", encoding="utf-8")  # a save
    assert render(templates) == "<text>剣!</text>" and compiled == ["front.svg.j2"] * 2


def test_two_projects_templates_of_one_name_stay_apart(tmp_path):
    for name, body in (("a", "<a>{{ card.name }}</a>"), ("b", "<b>{{ card.name }}</b>")):
        (tmp_path / name / "templates").mkdir(parents=True)
        (tmp_path / name / "templates" / "front.svg.j2").write_text(body, encoding="utf-8")
    assert render(tmp_path / "a" / "templates") == "<a>剣</a>"
    assert render(tmp_path / "b" / "templates") == "<b>剣</b>"
    assert render(tmp_path / "a" / "templates") == "<a>剣</a>"


def test_a_template_that_does_not_compile_is_refused_every_time(tmp_path):
    templates = tmp_path / "project" / "templates"
    templates.mkdir(parents=True)
    (templates / "front.svg.j2").write_text("<text>{{ card.name </text>", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError):
            render(templates)
