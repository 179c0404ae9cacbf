"""Turn font files (TTF, CFF OTF, variable, TTC) into the registered Fonts that SVG families map to."""
from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path
from typing import Sequence

from ..files.reading import special_kind
from ..errors import Location, PnpError, Problem
from .font import Face, Font, register_font
from .font_folders import BUNDLED_FONTS, font_dirs
from .sfnt import read_styles

FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
GENERIC_FAMILIES = frozenset("sans-serif serif monospace system-ui cursive fantasy emoji math fangsong "
                             "ui-sans-serif ui-serif ui-monospace ui-rounded".split())
_KEYWORD_WEIGHTS = {"normal": 400, "regular": 400, "lighter": 300, "bold": 700, "bolder": 700}

_lock = threading.RLock()
_scanned: dict[tuple, list["Face"]] = {}  # (path, mtime_ns, size) -> faces found in the file
_fonts_by_key: dict[tuple, Font] = {}  # identity of a face's file -> its registered font


class FontBook:
    """The fonts of one build: the families found in `dirs`, resolved and registered on demand."""

    def __init__(self, dirs: Sequence[Path], cache_dir: Path | None = None,
                 default_family: str = "Noto Sans JP", inside: Path | None = None):
        """inside: when given, every font outside the bundled folder must really (links resolved) lie in it."""
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.default_family = default_family
        self._families: dict[str, list[Face]] = {}  # lower-case family -> faces, first dir wins
        self._registered: dict[Face, Font] = {}
        self._found: dict[tuple, Face] = {}  # what find_face was asked -> the face it gave
        problems = []
        paths = [p for d in map(Path, dirs) if d.is_dir() for p in sorted(d.iterdir())
                 if p.suffix.lower() in FONT_SUFFIXES]
        for path in paths:
            refused = ("is a folder; expected a font file" if path.is_dir()
                       else f"is {special_kind(path)}, not a file; expected a font file" if special_kind(path)
                       else "points outside the project folder; expected a font file inside it"
                       if inside is not None and not confined(path, Path(inside)) else None)
            if refused:
                problems.append(Problem(Location(shown_path(path)), refused))
                continue
            try:
                for face in scan_font(path):
                    faces = self._families.setdefault(face.family.lower(), [])
                    if not any(f.weight == face.weight and f.italic == face.italic for f in faces):
                        faces.append(face)
            except PnpError as error:
                problems.extend(error.problems)
        if problems:
            raise PnpError(problems)

    def families(self) -> dict[str, list[int]]:
        return {faces[0].family: sorted({f.weight for f in faces}) for faces in self._families.values()}

    def find_family(self, family: str | None) -> str | None:
        """The family a font-family value maps to (generic names map to the default), or None."""
        for entry in ([] if family is None else family.split(",")):
            name = entry.strip().strip("'\"").strip()
            if name.lower() in GENERIC_FAMILIES:
                name = self.default_family
            if name.lower() in self._families:
                return self._families[name.lower()][0].family
        return None

    def find_face(self, family: str | None, weight: str | int = "normal", style: str = "normal") -> Face:
        """The face for an SVG/CSS family, weight and style, without registering it. None and generic families
        map to the default family; in a comma list the first known entry wins. 'bold', 'bolder' and numbers
        >= 600 are bold; the nearest weight on the same side of 600 is picked. Unknown family -> PnpError."""
        # Every text() of a template asks alike: each question is answered once. The weight's type is part of it,
        # for True, which is no weight, equals 1.
        asked = (family, type(weight), weight, style)
        try:
            found = self._found.get(asked)
        except TypeError:  # an unhashable weight: pick_face says what is wrong with it
            return self.pick_face(family, weight, style)
        if found is None:
            found = self._found[asked] = self.pick_face(family, weight, style)
        return found

    def pick_face(self, family: str | None, weight: str | int, style: str) -> Face:
        target = parse_weight(weight)
        if family is None or not family.strip():
            family = self.default_family
        found = self.find_family(family)
        if found is None:
            known = ", ".join(sorted(f[0].family for f in self._families.values())) or "(no fonts found)"
            entries = [e.strip().strip("'\"").lower() for e in family.split(",")]
            if any(e in GENERIC_FAMILIES for e in entries):
                raise PnpError(f"the default font family '{self.default_family}' is not among the fonts "
                               f"found: expected one of {known}")
            raise PnpError(f"unknown font family '{family}': expected one of {known}, "
                           "or a generic family (sans-serif, serif, monospace, system-ui)")
        faces = self._families[found.lower()]
        italic = style.strip().lower() in ("italic", "oblique")
        faces = [f for f in faces if f.italic == italic] or faces
        bold = target >= 600
        faces = [f for f in faces if (f.weight >= 600) == bold] or faces
        return min(faces, key=lambda f: (abs(f.weight - target), -f.weight if bold else f.weight))

    def resolve(self, family: str | None, weight: str | int = "normal", style: str = "normal") -> str:
        """The registered name (font_named gives its Font) of find_face's face, registered on first use."""
        return self.register(self.find_face(family, weight, style)).name

    def register(self, face: Face) -> Font:
        """The face's font, registered once per process."""
        if face not in self._registered:
            self._registered[face] = register_face(face, self.cache_dir)
        return self._registered[face]


def register_face(face: Face, cache_dir: Path | None) -> Font:
    """A face's font, registered once per process, converted first if it needs to be."""
    stat = face.path.stat()
    key = (str(face.path.resolve()), stat.st_mtime_ns, stat.st_size, face.index,
           face.weight if face.variable else None)
    with _lock:
        if key in _fonts_by_key:
            return _fonts_by_key[key]
        path, index = face.path, face.index
        if face.cff or face.variable:
            from .font_convert import convert_face, process_cache_dir  # fontTools: only for a font that needs it

            path, index = convert_face(face, cache_dir or process_cache_dir()), 0
        name = face.base_name
        if any(font.name == name for font in _fonts_by_key.values()):  # another file of this family and weight
            name += "-" + hashlib.sha256(face.path.read_bytes()).hexdigest()[:8]
        _fonts_by_key[key] = register_font(name, path, index, str(face.path))
        return _fonts_by_key[key]


def parse_weight(weight: str | int) -> int:
    """A CSS font-weight (normal, bold, bolder, lighter, 1-1000) as a number."""
    text = str(weight).strip().lower()
    if text in _KEYWORD_WEIGHTS and not isinstance(weight, bool):
        return _KEYWORD_WEIGHTS[text]
    number = float(text) if re.fullmatch(r"\d+(\.\d*)?", text) and not isinstance(weight, bool) else -1.0
    if not 1 <= number <= 1000:
        raise PnpError(f"font-weight '{weight}' is not a weight: expected normal, bold or a number 1-1000")
    return round(number)


def scan_font(path: Path) -> list[Face]:
    """The faces a font file offers, read once per file version."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    with _lock:
        if key not in _scanned:
            styles = read_styles(path, collection=path.suffix.lower() in (".ttc", ".otc"))
            _scanned[key] = [Face(style.family, weight, style.italic, path, index, style.cff, bool(style.weights))
                             for index, style in enumerate(styles) for weight in style.weights or (style.weight,)]
        return _scanned[key]


def shown_path(path: Path) -> str:
    """fonts/X.ttf for a project font: messages name files as the designer sees them."""
    return f"{path.parent.name}/{path.name}"


def confined(path: Path, root: Path) -> bool:
    """A bundled font, or a file that is inside root once links are resolved."""
    real = path.resolve()
    return real.is_relative_to(BUNDLED_FONTS.resolve()) or real.is_relative_to(root.resolve())
