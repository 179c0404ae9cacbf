"""Turn edits in a project folder into rebuilds, and rebuilds into a summary of which cards changed."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from ..pipeline.build import Options, build_project
from ..store.recall import keep_reads
from ..errors import Location, PnpError
from ..faces.describe import shorten
from ..project.model import Card, Project
from ..project.source import find_source
from ..project.validate import load_project
from .notices import Saves, folders_of

WATCHED = ("templates", "fonts", "rules", "images", "documents", "data")  # data/: sheets, before a build read them
IGNORED_PARTS = {"output", ".pnpgen-cache", "__pycache__", ".git"}


def snapshot(root: Path, ignored: Path | None = None) -> dict[str, tuple[int, int]]:
    """relative path -> (mtime_ns, size) of every file a build can read; ignored is the output folder."""
    root = Path(root)
    ignored = ignored.resolve() if ignored is not None else None
    files = [*root.glob("*.y*ml"), *root.glob("games/**/*.y*ml")]
    for folder in WATCHED:
        if (root / folder).is_dir():
            files += [p for p in (root / folder).rglob("*") if p.is_file()]
    state = {}
    for path in files:
        if IGNORED_PARTS & set(path.relative_to(root).parts) or path.name.startswith("."):
            continue
        if ignored is not None and path.resolve().is_relative_to(ignored):
            continue  # -o inside templates/ (say): the build's own PDFs must not trigger the next build
        try:
            stat = path.stat()
        except OSError:
            continue
        state[path.relative_to(root).as_posix()] = (stat.st_mtime_ns, stat.st_size)
    return state


def look(root: Path, project: Project | None, ignored: Path | None = None) -> dict:
    """snapshot plus every file the last good model read from elsewhere (included YAML, the sheets of cards)."""
    state = snapshot(root, ignored)
    for file in project.files if project else ():
        try:
            name, stat = file.resolve().relative_to(root.resolve()).as_posix(), file.stat()
        except ValueError:
            name, stat = str(file), file.stat()
        except OSError:
            continue
        state.setdefault(name, (stat.st_mtime_ns, stat.st_size))
    return state


def build_first(root: Path, out: Path | None, build: Callable[[Callable[[Project], None]], Project | None]):
    """The first build's model and the state to watch from: the project's folders as they were before the build,
    the files the model read as they were when it read them (build tells its loaded callback), so that a save
    made at any moment after that is a change."""
    read: dict = {}
    before = snapshot(root, out)
    model = build(lambda project: read.update(look(root, project, out)))
    return model, {**read, **before}


def wait_for_change(state: dict, look_now: Callable[[], dict], saves: Saves) -> dict | None:
    """What look_now() sees once it differs from state and has stayed still, looking at each of saves' wakes: a
    save the file system told of has settled already, a change a look found alone is looked at again soon, in case
    an editor was still writing it. None once saves stop."""
    with saves:
        told, unsettled = saves.wait(), None
        while told is not None:
            current = look_now()
            if current == state:
                unsettled = None
            elif told or current == unsettled:
                return current
            else:
                unsettled = current
            told = saves.wait(soon=unsettled is not None)
    return None


def changed_files(before: dict, after: dict) -> list[str]:
    return sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))


def describe_changes(old: Project | None, new: Project) -> list[str]:
    """Cards added, removed and changed, component by component (cards are matched by position)."""
    if old is None:
        return []
    lines = []
    for game in new.games:
        before_game = old.game(game.id)
        for component in game.components:
            before = before_game.component(component.id) if before_game else None
            lines.extend(compare_cards(f"{game.id}/{component.id}", before.cards if before else (), component.cards))
        if before_game:
            gone = {c.id for c in before_game.components} - {c.id for c in game.components}
            lines.extend(f"{game.id}/{cid}: component removed" for cid in sorted(gone))
    return lines


def compare_cards(where: str, before: tuple[Card, ...], after: tuple[Card, ...]) -> list[str]:
    lines = []
    for index, (old, new) in enumerate(zip(before, after), 1):
        if old.fields != new.fields or old.copies != new.copies:
            lines.append(f"{where} card {index} changed: {field_changes(old, new)}")
    lines.extend(f"{where} card {i} added: {summary(c)}" for i, c in enumerate(after[len(before):], len(before) + 1))
    lines.extend(f"{where} card {i} removed: {summary(c)}" for i, c in enumerate(before[len(after):], len(after) + 1))
    return lines


def field_changes(old: Card, new: Card) -> str:
    parts = [f"{k}: {shorten(old.fields.get(k), 24)} → {shorten(new.fields.get(k), 24)}{cell(new, k)}"
             for k in dict.fromkeys([*old.fields, *new.fields]) if old.fields.get(k) != new.fields.get(k)]
    if old.copies != new.copies:
        parts.append(f"copies: {old.copies} → {new.copies}{cell(new, 'copies')}")
    return "; ".join(parts)


def cell(card: Card, name: str) -> str:
    """The sheet cell a changed value was saved in (YAML edits are found by the file name already)."""
    where = dict(card.cells).get(name)
    return f" ({where})" if where is not None and where.sheet is not None else ""


def summary(card: Card) -> str:
    return ", ".join(f"{k}={shorten(v, 24)}" for k, v in list(card.fields.items())[:3]) + f" ×{card.copies}"


def watch(path: str | Path, options: Options, echo: Callable[[str], None], *, interval: float = 0.5,
          stop: threading.Event | None = None) -> None:
    """Build now and again after every change, until stop is set (or Ctrl-C). Errors are shown, not fatal,
    but where there is no project at all there is nothing to watch: PnpError."""
    path = Path(path)
    if not find_source(path).is_file():
        raise PnpError("no project here; expected a folder holding cards.yaml or a path to a YAML file",
                       Location(str(find_source(path))))
    echo(f"watching {path} — Ctrl-C to stop")
    root = path if path.is_dir() else path.parent
    stop = stop or threading.Event()
    out = Path(options.out_dir) if options.out_dir else None  # -o inside templates/ (say) is not an edit
    memos: dict = {}  # what checking the card text read, for the next build: a save changes a sentence or two
    keep_reads()  # and the face records each build read
    model, state = build_first(root, out, lambda loaded: rebuild(path, options, None, echo, loaded, memos))
    while (current := wait_for_change(state, lambda: look(root, model, out),
                                      Saves(folders_of(root, state), stop, interval))) is not None:
        echo("changed: " + ", ".join(changed_files(state, current)))
        state = current
        model = rebuild(path, options, model, echo, memos=memos) or model


def rebuild(path: Path, options: Options, previous: Project | None, echo: Callable[[str], None],
            loaded: Callable[[Project], None] = lambda project: None, memos: dict | None = None) -> Project | None:
    """Build again; loaded(project) is told the model as soon as it is read, before the build runs; memos: see
    build_project."""
    started = time.perf_counter()
    try:
        project = load_project(path)
        loaded(project)
        for line in describe_changes(previous, project):
            echo(line)
        report = build_project(project, options, memos=memos)
    except PnpError as err:
        for problem in err.problems:
            echo(str(problem))
        echo("build failed; the last good PDFs are untouched — fix the problem and save again")
        return None
    except (OSError, RecursionError, MemoryError, ValueError, TypeError, LookupError, ArithmeticError) as err:
        # A kind of bad input no check knows yet must not end the session: say so in one line and keep watching.
        echo(f"build failed ({type(err).__name__}: {err}); the last good PDFs are untouched — please report this "
             "project to pnpgen, it deserves a clear message")
        return None
    echo(f"built in {time.perf_counter() - started:.2f} s: {len(report.written)} PDFs written, "
         f"{len(report.unchanged)} unchanged, {report.renders} faces rendered")
    return project
