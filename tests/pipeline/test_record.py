"""Remember a build's sources beside its outputs: what is no longer a source goes, another build's file being written stays."""
from __future__ import annotations

from pathlib import Path

from pnpgen.pipeline.record import FOLDER, read_index, record_sources


def test_a_stale_object_goes_and_a_record_being_written_by_another_build_stays(tmp_path: Path):
    root, out = tmp_path / "project", tmp_path / "output"
    root.mkdir()
    (root / "cards.yaml").write_text("games: []\n", encoding="utf-8")
    record_sources(root, [], out, "")
    objects = out / FOLDER / "objects"
    [first] = list(objects.iterdir())
    writing = objects / f".{first.name}.0123456789abcdef.tmp"  # as write_atomically names its temporary file
    writing.write_bytes(b"half written")
    (root / "cards.yaml").write_text("games: [] # edited\n", encoding="utf-8")
    record_sources(root, [], out, "")
    assert not first.exists() and writing.exists()
    assert [entry["sha256"] for entry in read_index(out)["files"].values()] == [p.name for p in objects.iterdir()
                                                                                 if not p.name.startswith(".")]
