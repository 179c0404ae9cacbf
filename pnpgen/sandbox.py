"""Turn template sources and data expressions into sandboxed, autoescaping, strict Jinja2 objects."""
from __future__ import annotations

import functools
from pathlib import Path

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

_ZEN = str.maketrans("0123456789-+", "０１２３４５６７８９－＋")


def to_full_width(value: object) -> str:
    """7 -> ７: digits as Japanese typesetting writes them."""
    return str(value).translate(_ZEN)


def make_environment(templates_dir: Path | None = None) -> ImmutableSandboxedEnvironment:
    """A Jinja environment that cannot reach Python internals or files outside templates/."""
    loader = jinja2.FileSystemLoader(str(templates_dir)) if templates_dir else None
    env = ImmutableSandboxedEnvironment(
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
