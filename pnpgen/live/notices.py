"""Turn saves in a project's folders into wake-ups for the watcher: the file system's notices where it gives them
(watchfiles), and a wake every interval in any case, for the watcher looks at the files themselves to see what
changed."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Iterable

SETTLE_MS = 25  # a save is whole once its folders have been still this long: an editor writes in one burst
LONGEST_SAVE_MS = 20 * SETTLE_MS  # files still being written after this wake the watcher all the same (and again)
MOST_FOLDERS = 1000  # each folder given notices holds one of the user's file-system watches: the rest are looked at


def folders_of(root: Path, names: Iterable[str]) -> list[Path]:
    """The project folder and the folders holding the files named (relative to it) that are inside it: a folder a
    link takes elsewhere is not watched. At most MOST_FOLDERS, nearest the top first."""
    top = Path(root).resolve()
    folders = {top}
    for parent in {(Path(root) / name).parent for name in names}:
        try:
            real = parent.resolve(strict=True)
        except (OSError, RuntimeError):  # gone, or a loop of links
            continue
        if real.is_relative_to(top):
            folders.add(real)
    return sorted(folders, key=lambda folder: (len(folder.parts), str(folder)))[:MOST_FOLDERS]


class Saves:
    """The watcher's wake-ups: wait() returns True once files in the folders were saved and have then stayed still
    SETTLE_MS, False when a look is due instead (at once the first time, for what was saved before the notices
    began; then every interval, or after SETTLE_MS when asked soon, to see a change a look found stay still), and
    None once stop is set. Where the system gives no notices (or has none left) every wake is a look that is due."""

    def __init__(self, folders: Iterable[Path], stop: threading.Event, interval: float):
        self.stop, self.interval = stop, interval
        self.notices = open_notices(list(folders))
        self.started = False

    def wait(self, soon: bool = False) -> bool | None:
        if not self.started:
            self.started = True
            return None if self.stop.is_set() else False
        seconds = SETTLE_MS / 1000 if soon else self.interval
        if self.notices is None:
            return None if self.stop.wait(seconds) else False
        try:
            told = self.notices.watch(LONGEST_SAVE_MS, SETTLE_MS, max(1, round(seconds * 1000)), self.stop)
        except (OSError, RuntimeError):  # the notices failed (their folder removed, say): looks alone from now on
            self.close()
            return self.wait(soon)
        if told == "signal":  # Ctrl-C while the notices waited
            raise KeyboardInterrupt
        return None if told == "stop" else told != "timeout"

    def close(self) -> None:
        if self.notices is not None:
            self.notices.close()
            self.notices = None

    def __enter__(self) -> Saves:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_notices(folders: list[Path]):
    """watchfiles' notices of changes in the folders themselves (not their subfolders: a link there could lead
    anywhere), started now; None where the system gives none."""
    try:
        from watchfiles._rust_notify import RustNotify

        return RustNotify([str(folder) for folder in folders], False, False, 300, False, True)
    except (ImportError, OSError, RuntimeError):
        return None
