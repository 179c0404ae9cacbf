"""The package's imports flow one way: from the CLI down to the model, never up and never in a circle."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pnpgen"

# Highest first. A module may import modules of its own layer's package or of any layer below.
LAYERS = [
    {"cli", "entry", "__main__", "reference"},
    {"live"},
    {"export", "diff"},
    {"pipeline"},
    {"checks"},
    {"rules"},
    {"press"},
    {"faces"},
    {"project"},
    {"templating"},
    {"store", "digests", "units", "files", "errors", "_version"},
]


def unit_of(module: str) -> str:
    """The package or top-level module a dotted module name (relative to pnpgen) belongs to."""
    return module.split(".")[0]


def rank_of(unit: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if unit in layer:
            return rank
    raise AssertionError(f"pnpgen/{unit} is in no layer of tests/test_layers.py: place it")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every pnpgen module the file imports (at any depth, lazy imports included), relative to pnpgen."""
    here = module_name(path).split(".") if module_name(path) else []
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "pnpgen":
                target = node.module.split(".")[1:]
            else:
                continue
            if node.module is None or not target:  # `from . import x` or `from .. import x`: x may be a module
                for alias in node.names:
                    candidate = target + [alias.name]
                    found.add(".".join(candidate) if resolves(candidate) else ".".join(target))
            else:
                found.add(".".join(target))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pnpgen":
                    found.add(".".join(alias.name.split(".")[1:]))
    return {name for name in found if name}


def resolves(parts: list[str]) -> bool:
    return (PACKAGE.joinpath(*parts).with_suffix(".py")).is_file() or (PACKAGE.joinpath(*parts) / "__init__.py").is_file()


def modules() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py")) if module_name(p)}


def test_no_module_imports_a_layer_above_it():
    upward = []
    for module, imported in modules().items():
        for target in imported:
            if unit_of(target) != unit_of(module) and rank_of(unit_of(target)) < rank_of(unit_of(module)):
                upward.append(f"pnpgen.{module} imports pnpgen.{target}, a layer above it")
    assert upward == []


def test_there_are_no_import_circles():
    graph = modules()
    circles, state = [], {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if target not in graph:
                continue
            if state.get(target) == "open":
                circles.append(" → ".join(trail[trail.index(target):] + [target]))
            elif target not in state:
                visit(target, trail + [target])
        state[node] = "done"

    for module in graph:
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_every_module_stays_short_and_says_what_it_turns_into_what():
    long, silent = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > 320:
            long.append(f"{path.relative_to(PACKAGE)}: {len(lines)} lines")
        if not lines or not lines[0].startswith('"""') or len(lines[0]) < 12:
            silent.append(str(path.relative_to(PACKAGE)))
    assert long == [] and silent == []
