"""Turn output digests into decisions: which files of a previous build are still exactly right."""
from __future__ import annotations

import json
import re
import stat
from pathlib import Path

from ..files.atomic import write_atomically

NAME = ".pnpgen-manifest.json"
LAST_BUILD = "/last-build"  # no output's key: keys are relative paths
# What a build writes: a PDF in a game's folder (an edition's: in its language's folder there). The manifest lies in
# the output folder, which a downloaded project may ship: a key like ../../x must never reach `--clean`'s unlink.
OUTPUT_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*/(?:[a-z]{2}/)?[A-Za-z0-9_][A-Za-z0-9_.-]*\.pdf")


class Manifest:
    """output path (relative to the output folder) -> the digest of its inputs and the size written; and
    what the last build read and made as a whole (uptodate.LastBuild)."""

    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir)
        self.entries: dict[str, dict] = {}
        self.last_build: dict = {}
        try:
            loaded = json.loads((self.out_dir / NAME).read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self.last_build = loaded.get(LAST_BUILD) if isinstance(loaded.get(LAST_BUILD), dict) else {}
                self.entries = {k: v for k, v in loaded.items() if isinstance(v, dict) and OUTPUT_KEY.fullmatch(k)}
        except (OSError, ValueError):
            pass

    def key(self, target: Path) -> str:
        return Path(target).relative_to(self.out_dir).as_posix()

    def is_current(self, target: Path, digest: str) -> bool:
        """The file exists, untouched since a build with the same inputs wrote it."""
        try:
            size = Path(target).stat().st_size
        except OSError:
            return False
        return self.entries.get(self.key(target)) == {"digest": digest, "size": size}

    def record(self, target: Path, digest: str, size: int) -> None:
        """size: of the file as written (another build may be replacing it at this very moment)."""
        self.entries[self.key(target)] = {"digest": digest, "size": size}

    def save(self) -> None:
        saved = {**self.entries, **({LAST_BUILD: self.last_build} if self.last_build else {})}
        data = json.dumps(saved, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")
        # Not synced to disk: a manifest lost in a crash reads as none, and the next build writes every PDF
        write_atomically(self.out_dir / NAME, data, "build manifest", durable=False)

    def tidy(self, possible: set[str], game: str | None, clean: bool) -> tuple[list[str], bool]:
        """Notes on the files an earlier build wrote here that this project no longer makes (a removed component or
        game): keys not in possible whose file still exists, in game's folder (None: every folder). With clean they
        are deleted. Return the notes and whether any file was deleted."""
        notes = []
        for key in sorted(set(self.entries) - possible):
            if game is not None and key.split("/", 1)[0] != game or not is_plain_file(self.out_dir / key):
                continue
            if clean:
                self.remove(key)
                notes.append(f"removed {key}: left from an earlier build, no longer made by this project")
            else:
                notes.append(f"{key} is left from an earlier build: this project no longer makes it (its "
                             "component or game is gone); `pnpgen build --clean` removes it")
        return notes, clean and bool(notes)

    def remove(self, key: str) -> None:
        """Delete a file this manifest recorded, and its folder once empty."""
        target = self.out_dir / key
        target.unlink(missing_ok=True)
        self.entries.pop(key, None)
        if target.parent != self.out_dir and not any(target.parent.iterdir()):
            target.parent.rmdir()


def is_plain_file(path: Path) -> bool:
    """A file, never a link to elsewhere."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False
