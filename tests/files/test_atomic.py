"""A file is replaced whole or not at all, and an unwritable folder is a clear PnpError."""
from pathlib import Path

import pytest

from pnpgen.files.atomic import write_atomically
from pnpgen.errors import PnpError


def test_writes_and_replaces(tmp_path: Path):
    target = tmp_path / "out" / "deck.pdf"
    write_atomically(target, b"first")
    write_atomically(target, b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in target.parent.iterdir()] == ["deck.pdf"]


def test_chunks_are_written_one_after_the_other(tmp_path: Path):
    target = tmp_path / "pack"
    write_atomically(target, (bytes([n]) * 1000 for n in range(5)), durable=False)
    assert target.read_bytes() == b"".join(bytes([n]) * 1000 for n in range(5))


def test_an_interrupt_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path, monkeypatch):
    target = tmp_path / "deck.pdf"
    write_atomically(target, b"good")

    def interrupted(*_args):
        raise KeyboardInterrupt  # Ctrl-C after the new bytes are on disk, before the rename

    monkeypatch.setattr("pnpgen.files.atomic.os.replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, b"bad")
    assert target.read_bytes() == b"good"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]


def test_an_unusable_folder_is_a_located_message(tmp_path: Path):
    blocker = tmp_path / "output"
    blocker.write_text("a file where the output folder should be")
    with pytest.raises(PnpError) as caught:
        write_atomically(blocker / "game" / "deck.pdf", b"x", "PDF")
    message = str(caught.value)
    assert "cannot write the PDF here" in message and "expected a writable folder" in message


def test_a_folder_without_write_permission_is_a_clear_message(tmp_path: Path, monkeypatch):
    """What a read-only output folder gives (simulated: as root, permissions do not bind)."""
    import errno
    import os

    target = tmp_path / "out" / "deck.pdf"
    write_atomically(target, b"old")

    def refused(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr("pnpgen.files.atomic.os.open", refused)
    with pytest.raises(PnpError) as caught:
        write_atomically(target, b"new", "PDF")
    assert str(caught.value) == f"{target.parent}: cannot write the PDF here (Permission denied); expected a writable folder"
    assert target.read_bytes() == b"old"
