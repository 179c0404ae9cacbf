"""Turn icon files (templates/icons/NAME.svg) into SVG fragments scaled into a unit square."""
from __future__ import annotations

import functools
import math
import re
from pathlib import Path

from lxml import etree

from ..errors import Location, PnpError
from ..files.reading import MAX_FILE_BYTES, refuse_large, special_kind

NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def safe_parser() -> etree.XMLParser:
    """No entities, no network, no huge trees: SVG from a shared template cannot reach out or blow up."""
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True, load_dtd=False)


class IconSet:
    """The icons of a project, read on first use."""

    def __init__(self, templates_dir: Path):
        self.folder = templates_dir / "icons"

    @functools.cached_property
    def fragments(self) -> dict[str, str]:
        """name -> fragment drawn in the unit square (0,0)-(1,1)."""
        found: dict[str, str] = {}
        if self.folder.is_dir():
            root = self.folder.parent.parent.resolve()  # the project folder: templates/icons/..
            for path in sorted(self.folder.glob("*.svg")):
                if NAME.match(path.stem):
                    if not path.resolve().is_relative_to(root):
                        raise PnpError(f"templates/icons/{path.name} points outside the project folder; "
                                       "expected an icon inside it")
                    if special_kind(path):
                        raise PnpError(f"templates/icons/{path.name} is {special_kind(path)}, not a file; "
                                       "expected an SVG icon")
                    found[path.stem] = read_icon(path)
        return found

    def place(self, name: str, x: float, y: float, size: float) -> str:
        fragment = self.fragments.get(name)
        if fragment is None:
            known = ", ".join(self.fragments) or "none"
            raise PnpError(f"unknown icon '{name}'; expected a file templates/icons/{name}.svg (icons: {known})")
        return f'<g transform="translate({x:.4f},{y:.4f}) scale({size:.4f})">{fragment}</g>'


def read_icon(path: Path) -> str:
    shown = f"templates/icons/{path.name}"
    try:
        refuse_large(path, MAX_FILE_BYTES, Location(shown), "icon")
        root = etree.fromstring(path.read_bytes(), safe_parser())
    except etree.XMLSyntaxError as err:
        line, col = err.position if err.position else (0, 0)
        raise PnpError(f"icon is not valid SVG: {err.msg}", Location(shown, line, col)) from None
    if root.getroottree().docinfo.doctype:
        raise PnpError("an icon may not declare a DOCTYPE or entities; expected plain SVG", Location(shown, 1, 1))
    box = root.get("viewBox")
    try:
        vx, vy, vw, vh = (float(v) for v in re.split(r"[\s,]+", box.strip()))
    except (AttributeError, ValueError):
        vw = vh = 0.0
    if not (0 < vw < 1e6 and 0 < vh < 1e6 and math.isfinite(vx) and math.isfinite(vy)):
        raise PnpError("an icon needs a viewBox such as viewBox=\"0 0 24 24\" (a width and height above 0)",
                       Location(shown, root.sourceline or 0, 1))
    inner = "".join(etree.tostring(child, encoding="unicode") for child in root)
    inner = re.sub(r'\sxmlns(:\w+)?="[^"]*"', "", inner)
    scale = 1.0 / max(vw, vh)
    return f'<g transform="scale({scale:.6f}) translate({-vx:.4f},{-vy:.4f})">{inner}</g>'
