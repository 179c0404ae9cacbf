"""preflight finds each fault a print shop rejects once, at the template line that wrote it, and nothing on a
face without faults; the command exits 1 on an error."""
import json
import shutil
from pathlib import Path

from click.testing import CliRunner

import pnpgen
from pnpgen.cli import main
from pnpgen.prepress.preflight import preflight

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOUR_MORE = 3  # every fault is on all four cards: the first is named, the others counted


def test_each_planted_fault_is_found_once_at_its_template_line():
    found = [(f.severity, f.check, f.where, f.piece, f.message, f.more) for f in preflight(FIXTURES / "planted-faults")]
    assert found == [
        ("error", "bleed", "templates/front.svg.j2:2", "suits 1 赤",
         "a shape in #3050a0 touches the trim but stops short of the bleed at the top (0.0 mm past the trim); "
         "expected it to reach the bleed edge, 3 mm past the trim", FOUR_MORE),
        ("error", "safe zone", "templates/front.svg.j2:3", "suits 1 赤",
         "text “1” 1.0 mm from the cut, 2.0 mm inside the safe zone (3 mm); expected it at least 3 mm inside the trim",
         FOUR_MORE),
        ("error", "text size", "templates/front.svg.j2:4", "suits 1 赤",
         "text “small print” set at 4.0 pt; expected at least 6 pt to print legibly", FOUR_MORE),
        ("error", "stroke", "templates/front.svg.j2:5", "suits 1 赤",
         "a line 0.10 pt thick at print size; expected at least 0.25 pt, or it may not print", FOUR_MORE),
        ("error", "image", "templates/front.svg.j2:6", "suits 1 赤",
         "image images/low.png is 72 dpi at its printed size (25.4 × 25.4 mm, 72 × 72 px); expected at least 300 dpi",
         FOUR_MORE),
        ("warning", "colour vision", "cards.yaml:13", "suits suit",
         "suit 赤 (#d03030) and 緑 (#30a030) look alike under deuteranopia (ΔE 5.5), simulated as Machado 2009; "
         "expected ΔE 10 or more, or a symbol that tells them apart", 0),
    ]


def test_the_same_faces_mended_have_no_findings():
    assert preflight(FIXTURES / "print-ready") == []


def test_the_command_lists_every_finding_and_exits_1_on_an_error():
    result = CliRunner().invoke(main, ["preflight", str(FIXTURES / "planted-faults")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[1] == ("✗ templates/front.svg.j2:3 (suits 1 赤): text “1” 1.0 mm from the cut, 2.0 mm inside the "
                        "safe zone (3 mm); expected it at least 3 mm inside the trim (and 3 more pieces)")
    assert lines[-1] == "5 errors, 1 warning"
    clean = CliRunner().invoke(main, ["preflight", str(FIXTURES / "print-ready")])
    assert (clean.exit_code, clean.output) == (0, "0 errors, 0 warnings\n")


def test_json_names_each_finding_by_file_and_line():
    result = CliRunner().invoke(main, ["preflight", str(FIXTURES / "planted-faults"), "--json"])
    report = json.loads(result.output)
    assert (report["errors"], report["warnings"]) == (5, 1)
    assert report["findings"][3] == {"severity": "error", "check": "stroke", "file": "templates/front.svg.j2",
                                     "line": 5, "piece": "suits 1 赤", "more": 3,
                                     "message": "a line 0.10 pt thick at print size; expected at least 0.25 pt, "
                                                "or it may not print"}


def copy_of(name: str, tmp_path: Path) -> Path:
    project = tmp_path / name
    shutil.copytree(FIXTURES / name, project)
    return project


def test_a_component_sets_its_own_safe_zone_and_templates_see_it_as_safe(tmp_path):
    project = copy_of("print-ready", tmp_path)
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("        name: スート\n",
                                                               "        name: スート\n        safe: 12mm\n"),
                     encoding="utf-8")
    found = [(f.check, f.where, f.message) for f in preflight(project)]
    # the number is placed at SAFE (now 12 mm), the small print at 10 mm: only that is too near the cut
    assert found == [("safe zone", "templates/front.svg.j2:4", "text “small print” 10.0 mm from the cut, 2.0 mm "
                      "inside the safe zone (12 mm); expected it at least 12 mm inside the trim")]


def test_an_element_marked_data_safe_is_held_to_the_safe_zone(tmp_path):
    project = copy_of("print-ready", tmp_path)
    template = project / "templates" / "front.svg.j2"
    template.write_text(template.read_text(encoding="utf-8")
                        + '<g data-safe=""><rect x="55" y="40" width="6" height="6" fill="#3050a0"/></g>\n',
                        encoding="utf-8")
    found = [(f.check, f.where, f.message) for f in preflight(project)]
    assert found == [("safe zone", "templates/front.svg.j2:8", "a fill marked data-safe 2.0 mm from the cut, 1.0 mm "
                      "inside the safe zone (3 mm); expected it at least 3 mm inside the trim")]


def test_text_written_by_a_macro_is_found_in_the_macro_s_template(tmp_path):
    project = copy_of("print-ready", tmp_path)
    (project / "templates" / "parts.svg.j2").write_text(
        "{% macro corner(n) -%}\n{{ text(n|string, 0.5, 30, 10, 8, size=9) }}\n{%- endmacro %}\n", encoding="utf-8")
    template = project / "templates" / "front.svg.j2"
    template.write_text("{% import 'parts.svg.j2' as parts %}\n" + template.read_text(encoding="utf-8")
                        + "{{ parts.corner(card.number) }}\n", encoding="utf-8")
    found = [(f.check, f.where, f.piece) for f in preflight(project)]
    assert found == [("safe zone", "templates/parts.svg.j2:2", "suits 1 赤")]


def test_the_library_face_offers_preflight():
    assert pnpgen.preflight(FIXTURES / "print-ready") == []
