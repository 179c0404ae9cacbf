"""The package's imports flow one way: from the CLI down to the model, never up, never in a circle, never through the root."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pnpgen"
ROOT = "__init__"  # the package root, pnpgen/__init__.py: the library's face, which nothing inside may import

# Highest first. A module may import modules of its own layer's package or of any layer below.
LAYERS = [
    {ROOT, "cli", "entry", "__main__", "reference"},
    {"live"},
    {"export", "diff", "prepress"},
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
    """The package or top-level module a dotted module name (relative to pnpgen, "" for the root) belongs to."""
    return module.split(".")[0] if module else ROOT


def rank_of(unit: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if unit in layer:
            return rank
    raise AssertionError(f"pnpgen/{unit} is in no layer of tests/test_layers.py: place it")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def resolves(parts: list[str]) -> bool:
    return (PACKAGE.joinpath(*parts).with_suffix(".py")).is_file() or (PACKAGE.joinpath(*parts) / "__init__.py").is_file()


def absolute(name: str, package: list[str], level: int) -> list[str] | None:
    """An imported module's name relative to pnpgen ([] for the root), None for a module of another package."""
    if level:
        base = package[:len(package) - (level - 1)] if level > 1 else package
        return base + (name.split(".") if name else [])
    if name.split(".")[0] == "pnpgen":
        return name.split(".")[1:]
    return None


def imported_by_call(node: ast.Call, package: list[str], constants: dict[str, list[str]]) -> list[list[str]]:
    """The modules an importlib.import_module(...) or __import__(...) call can load: a literal name, or each
    string of the mapping its name is looked up in (as the root's lazy exports are)."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in ("import_module", "__import__") or not node.args:
        return []
    relative = len(node.args) > 1 or any(k.arg == "package" for k in node.keywords)
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        names = [first.value]
    else:
        looked_up = [n.value.id for n in ast.walk(first) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)]
        names = [value for table in looked_up for value in constants.get(table, [])]
        if not names:
            raise AssertionError(f"an import whose module cannot be read: {ast.unparse(node)}; import it by name instead")
        names = ["." + value if relative and not value.startswith(".") else value for value in names]
    found = []
    for text in names:
        level = len(text) - len(text.lstrip("."))
        target = absolute(text.lstrip("."), package, level)
        if target is not None:
            found.append(target)
    return found


def string_tables(tree: ast.AST) -> dict[str, list[str]]:
    """Module-level names bound to a dict, list or tuple literal of strings: the values a dynamic import may take."""
    tables = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            items = value.values if isinstance(value, ast.Dict) else value.elts if isinstance(value, (ast.List, ast.Tuple)) else []
            strings = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
            if strings:
                tables[node.targets[0].id] = strings
    return tables


def imports_of(path: Path, name: str | None = None) -> set[str]:
    """Every pnpgen module the file (module `name`, by default the one its path says) imports, at any depth:
    function-level imports, `from . import x`, the package root itself ("" when a module imports a name of
    pnpgen/__init__.py) and importlib calls."""
    name = module_name(path) if name is None else name
    here = name.split(".") if name else []
    package = here if path.name == "__init__.py" else here[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = string_tables(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = absolute(node.module or "", package, node.level)
            if target is None:
                continue
            for alias in node.names:  # `from X import y`: y is a module of X, or a name X defines
                found.add(".".join(target + [alias.name]) if resolves(target + [alias.name]) else ".".join(target))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                target = absolute(alias.name, package, 0)
                if target is not None:
                    found.add(".".join(target))
        elif isinstance(node, ast.Call):
            found.update(".".join(target) for target in imported_by_call(node, package, constants))
    found.discard(name)
    return found


def modules() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_the_reader_sees_every_kind_of_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Probe."""\nimport importlib\nfrom . import impose\nfrom .. import Options\n'
                     'def f():\n    from ..pipeline import build\n    importlib.import_module("pnpgen.live.serve")\n',
                     encoding="utf-8")
    assert imports_of(probe, "press.probe") >= {"press.impose", "", "pipeline.build", "live.serve"}
    assert {"pipeline.build", "checks.findings", "errors"} <= modules()[""]  # the root's lazy exports are seen


def test_no_module_imports_the_package_root():
    assert [f"pnpgen.{module} imports the package root" for module, imported in modules().items()
            if module and "" in imported] == []


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
        if len(lines) > 300:
            long.append(f"{path.relative_to(PACKAGE)}: {len(lines)} lines")
        if not lines or not lines[0].startswith('"""') or len(lines[0]) < 12:
            silent.append(str(path.relative_to(PACKAGE)))
    assert long == [] and silent == []
