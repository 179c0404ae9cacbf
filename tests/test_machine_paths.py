"""No file of the project names a folder of the machine it was written on: files are named relative to the project."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Spelled in pieces so that this file does not match itself.
MACHINE = re.compile("(?<![\\w.])/(?:" + "|".join(["wo" + "rk", "t" + "mp", "ro" + "ot", "ho" + "me", "Us" + "ers"]) + ")/")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    paths = [REPO / name for name in listed.decode().split("\0") if name]
    return [p for p in paths if p.is_file() and p.suffix in {".py", ".md", ".yaml", ".yml", ".j2", ".toml", ".txt",
                                                              ".css", ".js", ".html", ".cfg", ""}]


def test_no_file_names_a_machine_folder():
    found = []
    for path in tracked_text_files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if MACHINE.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert found == []
