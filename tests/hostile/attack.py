"""Turn a hostile project (a template, cards and files) into a folder, run a command on it, and judge the result.

Every attack is judged the same way: exit code 1 (or 0 when the attack is harmless), exactly the expected
message, no traceback, no file written when refused, nothing outside the project changed, nothing executed.
"""
from __future__ import annotations

import hashlib
import os
import time

from pathlib import Path

from click.testing import CliRunner

from pnpgen.cli import main
from test_hostile import CARDS, WHERE, assert_no_traceback  # noqa: F401  (the hostile suites import them from here)

RULES = CARDS.replace("    title: G\n", "    title: G\n    rulebook: rules/r.md\n")
PLAIN = '<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>'
SECONDS = 300  # a hang guard only: every refusal comes far within this, a loaded machine is slow, never wrong


def make_project(tmp_path: Path, front: str = PLAIN, cards: str = CARDS, files: dict | None = None) -> Path:
    """A project folder; files maps a relative path to text, bytes, or "FIFO" for a named pipe."""
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    (root / "cards.yaml").write_text(cards, encoding="utf-8")
    (root / "templates" / "front.svg.j2").write_text(front + "\n", encoding="utf-8")
    for name, content in (files or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == "FIFO":
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run(*args: str):
    """The CLI in this process; (result, seconds taken)."""
    start = time.monotonic()
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result, time.monotonic() - start


def build(root: Path, *args: str, out: Path | None = None):
    out = out or root.parent / "out"
    result, seconds = run("build", root, "-o", out, *args)
    assert seconds < SECONDS, f"took {seconds:.0f} s"
    return result, out


def assert_refused(result, out: Path, expected: str) -> None:
    """Exit 1, no traceback, exactly the expected located message (the first line of stderr), nothing written."""
    assert_no_traceback(result)
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[0] == expected, result.stderr
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def digests(folder: Path) -> dict[str, str]:
    """Every file under folder (links not followed) and its content hash: to show nothing there changed."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}
