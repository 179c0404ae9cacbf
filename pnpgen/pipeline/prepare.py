"""Turn a loaded project and a build's options into what a build starts from: its games, checked; its fonts;
a progress counter."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable

from ..store.cache import Cache, claim_folder, default_cache_dir, write_quietly
from ..checks.checker import check_project
from ..checks.findings import failures
from ..digests import digest
from ..errors import PnpError, Problem
from ..faces.fonts import FontBook, font_dirs
from ..project.assumptions import count_assumptions
from ..project.model import Game, Project


def select_games(project: Project, game_id: str | None) -> tuple[Game, ...]:
    if game_id is None:
        return project.games
    game = project.game(game_id)
    if game is None:
        known = ", ".join(g.id for g in project.games)
        raise PnpError(f"--game {game_id}: no such game in {project.source.name}; expected one of: {known}")
    return (game,)


def open_fontbook(project: Project, options=None) -> FontBook:
    """The project's fonts; converted ones are kept in the user's cache folder, never in the project (whose
    files anyone could have written), or for this process only when options turn the cache off."""
    folder = Path(options.cache_dir or default_cache_dir()) if options is not None else default_cache_dir()
    cached = (options is None or options.cache) and claim_folder(folder) == ""  # a refused folder: Cache notes why
    return FontBook(font_dirs(project.root), cache_dir=folder / "fonts" if cached else None,
                    default_family=project.default_font, inside=project.root)


def refuse_failed_checks(project: Project, games, memos: dict | None = None, cache: Cache | None = None) -> None:
    """memos: see check_project; without them, what reading the card text gave is kept in the cache's folder."""
    failed = failures(check_kept(project, games, cache, memos=memos))
    if failed:
        raise PnpError([f.as_problem() for f in failed] + [Problem(None, "the build stopped because checks failed; fix "
                       "the data or run `pnpgen check` for details (`pnpgen build --no-check` builds anyway)")])


def check_kept(project: Project, games, cache: Cache | None, strict: bool = False, memos: dict | None = None):
    """check_project's findings, reading the card text as the cache's folder keeps it read (None, or one refused:
    not kept); kept there again when it changed, unless memos are given: those of a process that checks again
    (watch), which start from what the folder keeps and are then its own."""
    from ..checks.kept_claims import decode_memos, encode_memos, reading_digest
    from ..checks.prose import SentenceMemo

    keeps = memos is None
    memos = {} if memos is None else memos
    chosen = [game for game in (games if games is not None else project.games) if game.id not in memos]
    place = None
    if chosen and cache is not None:
        place = cache.path("claims", digest("claims", str(project.root.resolve()), reading_digest()), ".jsonl")
        kept = {}
        if place is not None:  # None: no cache folder of the user's own
            with contextlib.suppress(OSError):  # no file yet
                kept = decode_memos(place.read_bytes())
        for game in chosen:
            memo = memos[game.id] = kept.get(game.id) or SentenceMemo(kept=True)
            memo.splits = not keeps  # a process that checks again keeps how each text splits too
    findings = check_project(project, games, strict, memos=memos)
    if keeps and place is not None and any(memo.changed for memo in memos.values()):
        write_quietly(place, encode_memos(memos))
    return findings


def counter(phase: str, total: int, progress, share: int | None = None, every: int = 1) -> Callable[[str], None]:
    """tick(label), called as this process does each of its share (default: all) of total: progress hears of
    every `every`th and the last, scaled to the total (a helper process does the rest as fast)."""
    share = share or total
    done = [0]

    def tick(label: str) -> None:
        done[0] += 1
        if progress and (done[0] % every == 0 or done[0] == share):
            progress(phase, min(total, round(done[0] * total / share)), total, label)
    return tick


def note_final(games) -> list[str]:
    """What a final build leaves unsaid: how many numbers of each game the data still only assumes."""
    notes = []
    for game in games:
        assumed = count_assumptions(game)
        if assumed:
            notes.append(f"{game.id}: --final prints the rulebook without its 「仮」 marks, but the data still assumes "
                         f"{assumed} {'number' if assumed == 1 else 'numbers'} the documents do not state "
                         "(`pnpgen check` lists them)")
    return notes


def refuse_empty_rules(games, options) -> None:
    """`--only rules` where no game has a rulebook or rules sheet would write nothing and say it succeeded."""
    if options.only == "rules" and not any(game.rulebook or game.rules_sheet for game in games):
        named = " and ".join(game.id for game in games) or "the project"
        raise PnpError(f"--only rules: {named} has no rulebook or rules sheet; "
                       "expected `rulebook: rules/<name>.md` (or `rules_sheet:`) in a game, or --only components")
