"""Turn template sources and data expressions into sandboxed, autoescaping, strict Jinja2 objects."""
from __future__ import annotations

import functools
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.environment import TemplateExpression
from jinja2.loaders import split_template_path
from jinja2.parser import Parser
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from .limits import BoundedEnvironment
from .seeded_random import pick_repeatably
from ..files.reading import MAX_FILE_BYTES

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
        for folder in self.searchpath:  # where FileSystemLoader will look: refuse a huge file before it is read
            path = Path(folder, *split_template_path(template))
            if path.is_file() and path.stat().st_size > MAX_FILE_BYTES:
                raise SecurityError(f"template '{template}' is {path.stat().st_size / 1e6:,.0f} MB; expected a "
                                    f"template of at most {MAX_FILE_BYTES / 1e6:,.0f} MB")
        source, filename, uptodate = super().get_source(environment, template)
        if not Path(filename).resolve().is_relative_to(self.root):
            raise SecurityError(f"template '{template}' points outside the project folder; expected a template inside it")
        return source, filename, uptodate


class CompiledTemplates(jinja2.BytecodeCache):
    """The templates this process compiled, by name and file, each with the digest of its source: a build after a
    save (watch, serve) compiles only the templates whose source changed. In memory only: nothing compiled is
    ever read from a file."""

    KEPT = 256  # templates held at most; then it starts afresh

    def __init__(self):
        self.codes: dict[str, tuple[str, object]] = {}

    def load_bytecode(self, bucket) -> None:
        found = self.codes.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket) -> None:
        if len(self.codes) >= self.KEPT:
            self.codes.clear()
        self.codes[bucket.key] = (bucket.checksum, bucket.code)


_COMPILED = CompiledTemplates()


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
        bytecode_cache=_COMPILED if templates_dir else None,
    )
    env.filters["zen"] = to_full_width
    env.filters["random"] = pick_repeatably  # same project, same PDFs: chance is seeded by the card
    return env


_EXPRESSIONS = make_environment()


@functools.lru_cache(maxsize=1024)
def compile_expression(source: str):
    """Compile a data expression such as `card.number == 1` once; raises jinja2.TemplateSyntaxError."""
    try:
        return _EXPRESSIONS.compile_expression(source, undefined_to_none=False)
    except RecursionError:  # (((( … )))) thousands deep: Jinja's parser recurses once a level
        raise jinja2.TemplateSyntaxError("nested too deeply to read; expected an expression of ordinary depth", 1) from None


def parse_expression(source: str) -> nodes.Expr:
    """The syntax tree of a data expression, for reading what it reads; raises jinja2.TemplateSyntaxError."""
    parser = Parser(_EXPRESSIONS, source, state="variable")
    try:
        tree = parser.parse_expression()
    except RecursionError:
        raise jinja2.TemplateSyntaxError("nested too deeply to read; expected an expression of ordinary depth", 1) from None
    if not parser.stream.eos:
        raise jinja2.TemplateSyntaxError("chunk after expression", parser.stream.current.lineno)
    return tree


def compile_tree(tree: nodes.Expr):
    """A tree from parse_expression (changed or not) compiled as compile_expression compiles its source: the same
    sandbox, the same limits."""
    tree.set_environment(_EXPRESSIONS)
    body = [nodes.Assign(nodes.Name("result", "store"), tree, lineno=1)]
    return TemplateExpression(_EXPRESSIONS.from_string(nodes.Template(body, lineno=1)), False)
