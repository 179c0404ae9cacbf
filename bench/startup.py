"""Turn the `python -X importtime` report of a process into what its start-up loads: totals, the largest imports.

Each report line is "import time: SELF | CUMULATIVE | NAME" in microseconds, NAME indented two spaces a level, and a
module's line comes after the lines of the modules it imported.
"""
from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

SHOWN = 10


class Import(NamedTuple):
    name: str
    own_ms: float
    cumulative_ms: float
    importer: str  # the module whose import brought this one in ("" at the top)


def read_imports(report: str) -> list[Import]:
    """Every import of the report with the module that imported it."""
    waiting: dict[int, list[tuple[str, float, float]]] = defaultdict(list)  # depth -> lines awaiting their importer
    found: list[Import] = []
    for line in report.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        name = name.strip()
        for child, child_own, child_cumulative in waiting.pop(depth + 1, []):
            found.append(Import(child, child_own, child_cumulative, name))
        waiting[depth].append((name, int(own) / 1000, int(cumulative) / 1000))
    for lines in waiting.values():
        found.extend(Import(name, own, cumulative, "") for name, own, cumulative in lines)
    return found


def package_of(name: str) -> str:
    """pnpgen's stage packages apart (pnpgen.faces, pnpgen.press, …); any other package as a whole."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "pnpgen" and len(parts) > 1 else parts[0]


def print_imports(report: str, bare_report: str) -> None:
    """The import time in all (beside the bare interpreter's), the largest packages by their own time, and the
    other packages' imports pnpgen starts (the outermost), largest first, each with the module that asked for it."""
    imports = read_imports(report)
    total = sum(found.own_ms for found in imports)
    bare = sum(found.own_ms for found in read_imports(bare_report))
    print(f"  {total:.0f} ms importing {len(imports)} modules (the bare interpreter: {bare:.0f} ms); "
          f"under -X importtime, so compare the shares")
    by_package: dict[str, float] = defaultdict(float)
    for found in imports:
        by_package[package_of(found.name)] += found.own_ms
    largest = sorted(by_package.items(), key=lambda item: -item[1])[:SHOWN]
    print("  packages by their own import time:")
    for row in range(0, len(largest), 5):
        print("    " + ", ".join(f"{name} {ms:.0f} ms ({ms / total:.0%})" for name, ms in largest[row:row + 5]))
    outer = [found for found in imports
             if package_of(found.name) != package_of(found.importer) and found.importer.startswith("pnpgen")
             and not found.name.startswith("pnpgen")]
    print("  other packages pnpgen's modules import, largest first (cumulative ms, imported by):")
    for found in sorted(outer, key=lambda found: -found.cumulative_ms)[:SHOWN]:
        print(f"    {found.cumulative_ms:7.0f}  {found.name:28} {found.importer}")
