"""Turn a project and REF into a settled comparison: both states loaded, every change found, changed faces pictured.

Both states are loaded with the same validation, and rendered in the same sandbox, as any build; the old
state lives in a temporary folder that is gone when the comparison closes. Both render with today's
revision stamp, so the stamp itself is never a change.
"""
from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..store.cache import Cache, default_cache_dir
from ..digests import digest
from ..errors import PnpError
from ..faces.convert import Converter
from ..faces.fonts import FontBook
from ..faces.inputs import inputs_digest
from ..faces.render import Renderer
from ..pipeline.prepare import open_fontbook, select_games
from ..project.model import Project
from ..project.revision import Stamp
from ..project.validate import load_project
from .compare import CardChange, Side, compare_games, name_state
from .pictures import Drawer, Picture, draw_pictures, settle
from .revisions import choose_since, open_old_project
from .sections import SectionChange, compare_rulebooks

INPUT_FOLDERS = ("templates", "images", "fonts")


@dataclass
class Comparison:
    since: str  # as the user gave it
    label: str  # "HEAD (3f2a1c9)", or the revision the last build printed
    project: Project
    cards: list[CardChange] = field(default_factory=list)
    sections: list[SectionChange] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # templates, images and fonts that changed
    pictures: dict[tuple[str, str], Picture] = field(default_factory=dict)
    renderer: Renderer | None = None  # today's side, for a reprint
    converter: Converter | None = None
    fontbook: FontBook | None = None

    @property
    def rasterised(self) -> int:
        return sum((p.old is not None) + (p.new is not None) for p in self.pictures.values())


@contextlib.contextmanager
def compare_project(project: Project, since: str | None, game: str | None, out_dir: Path, *, cache: bool = True,
                    cache_dir: Path | None = None, stamp: Stamp | None = None) -> Iterator[Comparison]:
    """Compare the project with its state at since (default: the last commit, else the last build)."""
    games = select_games(project, game)
    since = since or choose_since(project.root, out_dir)
    disk = Cache(cache_dir or default_cache_dir()) if cache else None
    fontbook = open_fontbook(project)
    renderer = Renderer(project, fontbook, disk, inputs_digest(project), stamp)
    converter = Converter(fontbook, project.root, disk)
    with open_old_project(project.root, since, out_dir) as old_root:
        folder, label, same = old_root
        old = load_old(folder, project, label)
        now_inputs, old_inputs = hash_inputs(project.root, same), hash_inputs(folder, same)
        files = sorted(n for n in set(now_inputs) | set(old_inputs) if now_inputs.get(n) != old_inputs.get(n))
        # The same inputs render the same faces: share the build's cache entries; else key the old faces by content.
        inputs = renderer.inputs if not files else digest("old state", sorted(old_inputs.items()), old.default_font)
        old_fontbook = open_fontbook(old)
        old_renderer = Renderer(old, old_fontbook, disk, inputs, renderer.stamp)
        # The face cache keeps image names and font selectors, resolved by each side's own converter: the old
        # side shares it (its renderer hands over faces the cache holds), and draws its own images and fonts.
        old_converter = Converter(old_fontbook, old.root, disk)
        result = Comparison(since, label, project, files=files, renderer=renderer, converter=converter,
                            fontbook=fontbook)
        cards = compare_games(Side(old, old_renderer.render, label), Side(project, renderer.render), games, files)
        for now in games:
            result.sections += compare_rulebooks(folder, old.game(now.id), project.root, now)
        result.pictures = draw_pictures(cards, Drawer(old_converter, old_fontbook, disk, old_renderer.inputs),
                                        Drawer(converter, fontbook, disk, renderer.inputs))
        result.cards = settle(cards, result.pictures)
        yield result


def load_old(folder: Path, project: Project, label: str) -> Project:
    source = folder / project.source.relative_to(project.root)
    try:
        return load_project(source if source.exists() else folder)
    except PnpError as err:
        raise name_state(err, label) from None


def hash_inputs(root: Path, same: set[str]) -> dict[str, str]:
    """relative path -> content hash of every template, icon, image and project font (not read for the files
    already proven the same on both sides)."""
    hashes = {}
    for name in INPUT_FOLDERS:
        folder = root / name
        if folder.is_dir():
            for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
                relative = path.relative_to(root).as_posix()
                hashes[relative] = "same" if relative in same else hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes
