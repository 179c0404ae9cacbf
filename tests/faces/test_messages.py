"""Messages name the right thing: the field whose text did not fit, a card by the fields that tell it from
its neighbours (not by game-wide defaults), and the template line that wrote invalid SVG."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.export.pieces import card_caption
from pnpgen.faces.render import describe_card, distinguishing_fields

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FRONT = (FIXTURES / "minimal" / "templates" / "front.svg.j2").read_text(encoding="utf-8")


def project(tmp_path: Path, cards: str, front: str = FRONT) -> Path:
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "templates" / "front.svg.j2").write_text(front, encoding="utf-8")
    yaml = (root / "cards.yaml").read_text(encoding="utf-8")
    head = yaml[:yaml.index("        cards:\n")]
    (root / "cards.yaml").write_text(head.replace('defaults: {effect: ""}', 'defaults: {effect: "", colour: "#7a2", frame: gold}')
                                     + "        cards:\n" + cards, encoding="utf-8")
    return root


def failure(root: Path, tmp_path: Path) -> str:
    with pytest.raises(PnpError) as caught:
        pnpgen.build(root, Options(out_dir=tmp_path / "out", check=False, cache=False))
    return str(caught.value)


def test_text_that_does_not_fit_names_its_own_field_not_a_shorter_one_inside_it(tmp_path):
    long_effect = "剣" + "を振るう。" * 60  # holds the name 剣, and far too long for its box
    root = project(tmp_path, f'          - {{name: 剣, number: 1, effect: "{long_effect}"}}\n'
                             "          - {name: 盾, number: 2}\n")
    message = failure(root, tmp_path)
    assert "field 'effect' in front.svg.j2 line 5" in message and "field 'name'" not in message


def test_a_card_is_described_by_what_tells_it_apart_not_by_defaults(tmp_path):
    root = project(tmp_path, "          - {name: 剣, number: 1}\n"
                             "          - {name: 盾, number: 2, effect: \"" + "長い" * 200 + "\"}\n")
    message = failure(root, tmp_path)
    assert "deck card (" in message
    described = message.split("deck card (", 1)[1].split(")", 1)[0]
    assert "number=2" in described and "name=盾" in described
    assert "colour" not in described and "frame" not in described
    component = pnpgen.load_project(root).games[0].components[0]
    caption = card_caption(component.cards[0], component)
    assert "colour" not in caption and "name=剣" in caption
    assert "colour" not in describe_card(component.cards[0], distinguishing_fields(component))


def test_invalid_svg_names_the_template_line_that_wrote_it(tmp_path):
    broken = FRONT + '<rect x="1" y="1" width="2" height="2" fill="red">\n<circle cx="3" cy="3" r="1"/>\n'
    root = project(tmp_path, "          - {name: 剣, number: 1}\n")
    (root / "templates" / "front.svg.j2").write_text(broken, encoding="utf-8")
    message = failure(root, tmp_path)
    assert "templates/front.svg.j2 line 6 produced invalid SVG" in message or \
        "templates/front.svg.j2 line 7 produced invalid SVG" in message, message
    assert "column" not in message
