"""Turn template sources and data expressions into sandboxed, autoescaping, strict Jinja2 objects."""
from __future__ import annotations

import functools
from pathlib import Path

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from .bounds import BoundedEnvironment

_ZEN = str.maketrans("0123456789-+", "０１２３４５６７８９－＋")


def to_full_width(value: object) -> str:
    """7 -> ７: digits as Japanese typesetting writes them."""
    return str(value).translate(_ZEN)


class ProjectLoader(jinja2.FileSystemLoader):
    """Loads templates from templates/, refusing any that a link leads outside the project folder."""

    def __init__(self, templates_dir: Path, project_root: Path):
        super().__init__(str(templates_dir))
        self.root = Path(project_root).resolve()

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        if not Path(filename).resolve().is_relative_to(self.root):
            raise SecurityError(f"template '{template}' points outside the project folder; expected a template inside it")
        return source, filename, uptodate


def make_environment(templates_dir: Path | None = None) -> ImmutableSandboxedEnvironment:
    """A Jinja environment that cannot reach Python internals or files outside the project's templates/."""
    loader = ProjectLoader(templates_dir, Path(templates_dir).parent) if templates_dir else None
    env = BoundedEnvironment(
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=False,
        cache_size=400,
    )
    env.filters["zen"] = to_full_width
    return env


_EXPRESSIONS = make_environment()


@functools.lru_cache(maxsize=1024)
def compile_expression(source: str):
    """Compile a data expression such as `card.number == 1` once; raises jinja2.TemplateSyntaxError."""
    return _EXPRESSIONS.compile_expression(source, undefined_to_none=False)
