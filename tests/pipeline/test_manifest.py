"""The build manifest lies in the output folder, which a downloaded project may ship: its keys are trusted
only as names of PDFs in a game's folder, so `--clean` never deletes anything else."""
import json

from pnpgen.pipeline.manifest import NAME, Manifest


def test_clean_removes_only_pdfs_a_build_could_have_written_inside_the_output_folder(tmp_path):
    out = tmp_path / "output"
    (out / "g").mkdir(parents=True)
    precious = tmp_path / "precious.pdf"
    precious.write_bytes(b"%PDF keep me")
    (out / "g" / "gone.pdf").write_bytes(b"%PDF old")
    (out / "g" / "link.pdf").symlink_to(precious)
    entry = {"digest": "x", "size": 1}
    (out / NAME).write_text(json.dumps({"../precious.pdf": entry, "g/../../precious.pdf": entry,
                                        str(precious): entry, "g/link.pdf": entry, "g/gone.pdf": entry}))
    manifest = Manifest(out)
    assert set(manifest.entries) == {"g/link.pdf", "g/gone.pdf"}
    notes, removed = manifest.tidy(set(), None, clean=True)
    assert removed and notes == ["removed g/gone.pdf: left from an earlier build, no longer made by this project"]
    assert precious.read_bytes() == b"%PDF keep me" and (out / "g" / "link.pdf").is_symlink()
    assert not (out / "g" / "gone.pdf").exists()
