"""A build notes the cheap preflight checks on the faces it writes: type, lines and images too small to print,
read from the faces' forms (a build renders nothing again for them), once per component and check."""
from pathlib import Path

import pnpgen
from pnpgen import Options

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HINT = "`pnpgen preflight` names the template line"


def print_notes(report: pnpgen.Report) -> list[str]:
    return [note for note in report.notes if note.endswith(HINT)]


def test_a_build_notes_type_lines_and_images_too_small_to_print(tmp_path):
    report = pnpgen.build(FIXTURES / "planted-faults", Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache"))
    assert print_notes(report) == [
        f"faults/suits: text “small print” set at 4.0 pt; expected at least 6 pt to print legibly (on 4 faces); {HINT}",
        f"faults/suits: a line 0.10 pt thick at print size; expected at least 0.25 pt, or it may not print "
        f"(on 4 faces); {HINT}",
        f"faults/suits: image images/low.png is 72 dpi at its printed size (25.4 × 25.4 mm, 72 × 72 px); expected "
        f"at least 300 dpi (on 4 faces); {HINT}",
    ]


def test_faces_read_back_from_the_cache_are_noted_as_fresh_ones(tmp_path):
    options = Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache")
    first = print_notes(pnpgen.build(FIXTURES / "planted-faults", options))
    (tmp_path / "out" / "faults" / "suits.pdf").unlink()  # written again, from the faces the cache keeps
    again = pnpgen.build(FIXTURES / "planted-faults", options)
    assert again.renders == 0
    assert print_notes(again) == first


def test_a_project_without_such_faults_gets_no_note(tmp_path):
    report = pnpgen.build(FIXTURES / "print-ready", Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache"))
    assert print_notes(report) == []


def test_a_build_notes_the_flaws_of_every_pdf_it_leaves_not_only_of_those_it_writes(tmp_path):
    """The notes say what would not print in the PDFs a build leaves, not only in those it wrote this time: a
    build that writes only the print-and-play PDF, or that finds no face in a cache made anew, notes them all."""
    options = Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache")
    first = print_notes(pnpgen.build(FIXTURES / "planted-faults", options))
    (tmp_path / "out" / "faults" / "faults-print-and-play.pdf").unlink()  # the component's PDF is up to date
    again = pnpgen.build(FIXTURES / "planted-faults", options)
    assert [path.name for path in again.written] == ["faults-print-and-play.pdf"] and print_notes(again) == first
    for path in (tmp_path / "cache").rglob("*.sqlite*"):
        path.unlink()
    (tmp_path / "out" / "faults" / "faults-print-and-play.pdf").unlink()
    fresh = pnpgen.build(FIXTURES / "planted-faults", options)
    assert fresh.renders and print_notes(fresh) == first
