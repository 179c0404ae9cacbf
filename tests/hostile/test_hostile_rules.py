"""Hostile rulebooks: unbounded template work, paragraphs and words too long to break in time, tables too wide
or too long, pictures of no or negative width. Each is refused with the rulebook's file:line."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from attack import RULES, assert_refused, build, make_project

BOUNDS = ("more than 2,000,000 loop iterations and calls; expected a template that does bounded work "
          "(nested loops over large ranges?)")
RULEBOOKS = [
    ("nested-loops", "# T\n\n{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}\n",
     f"rules/r.md:3:1: {BOUNDS}"),
    ("lipsum-million", "# T\n\n{{ lipsum(1000000) }}\n",
     "rules/r.md:3:1: lipsum(1000000, min=20, max=100): expected at most 100 paragraphs "
     "of at most 1000 words"),
    ("recursive-macro", "# T\n\n{% macro m() %}{{ m() }}{% endmacro %}\n\n{{ m() }}\n",
     "rules/r.md:3:1: calls itself without end (a macro that calls itself, or a template that "
     "includes itself); expected templates that finish"),
    ("100000-character-word", "# T\n\n" + "a" * 100_000 + "\n",
     "rules/r.md:3:1: a paragraph of 100,000 characters; expected at most 5,000 (split it)"),
    ("3000-character-word", "# T\n\n" + "x" * 3000 + " and more\n",
     "rules/r.md:3:1: a word of 3,000 characters with no place to break it; expected words of at most 1,000 characters"),
    ("long-japanese-paragraph", "# T\n\n" + "あ" * 19_000 + "\n",
     "rules/r.md:3:1: a paragraph of 19,000 characters; expected at most 5,000 (split it)"),
    ("long-heading", "# " + "見" * 15_000 + "\n", "rules/r.md:1:1: a heading of 15,000 characters; expected at most 300 (shorten it)"),
    ("2000-column-table", "# T\n\n|" + "a|" * 2000 + "\n|" + "-|" * 2000 + "\n|" + "1|" * 2000 + "\n",
     "rules/r.md:3:1: a table of 2000 columns; expected at most 30 (no more fit across a page)"),
    ("5000-row-table", "# T\n\n|a|b|\n|-|-|\n" + "|x|y|\n" * 5000,
     "rules/r.md:3:1: a table of 5,001 rows; expected at most 2,000"),
    ("800-headings", "# T\n\n" + "".join(f"## h{i}\n" for i in range(800)),
     "rules/r.md:502:1: more than 500 headings; expected a rulebook of ordinary length"),
    ("20000-lines", "# T\n\n" + "- a\n" * 20_000,
     "rules/r.md:10001:1: the rulebook has 20,002 lines once its expressions are filled in; expected at most 10,000"),
    ("zero-width-picture", '# T\n\n![x](component:deck#1 "0mm")\n',
     "rules/r.md:3:1: image 'component:deck#1': width 0mm is not a printable width; "
     "expected more than 0 mm and at most 400 mm"),
    ("negative-picture", '# T\n\n![x](component:deck#1 "-5mm")\n',
     "rules/r.md:3:1: image 'component:deck#1': width -5mm is not a printable width; "
     "expected more than 0 mm and at most 400 mm"),
    ("ten-metre-picture", '# T\n\n![x](component:deck#1 "10000mm")\n',
     "rules/r.md:3:1: image 'component:deck#1': width 10000mm is not a printable width; "
     "expected more than 0 mm and at most 400 mm"),
]


@pytest.mark.parametrize("markdown, expected", [c[1:] for c in RULEBOOKS], ids=[c[0] for c in RULEBOOKS])
def test_rulebooks_do_bounded_work(tmp_path: Path, markdown: str, expected: str):
    result, out = build(make_project(tmp_path, cards=RULES, files={"rules/r.md": markdown}), "--no-check")
    assert_refused(result, out, expected)


def test_a_long_paragraph_within_the_limit_is_typeset(tmp_path: Path):
    markdown = "# T\n\n" + "あいうえお、かきくけこ。" * 400 + "\n\n" + "word " * 900 + "\n"
    result, out = build(make_project(tmp_path, cards=RULES, files={"rules/r.md": markdown}))
    assert result.exit_code == 0, result.output
    assert (out / "g" / "rulebook.pdf").stat().st_size > 0


def test_a_10000_card_deck_and_its_rulebook_stay_far_below_the_limits(tmp_path: Path):
    """Limits are per face and per rulebook, never per deck: a deck of 10,000 cards, counted and listed by a
    rulebook that loops over every value, builds its rulebook."""
    cards = RULES.replace("        cards:\n          - {name: 剣}\n",
                          "        matrix: {suit: {from: 1, to: 100}, number: {from: 1, to: 100}}\n")
    markdown = ("# T\n\n{{ count('deck') }} cards, {{ each('deck', 'suit') }} a suit.\n\n"
                "{% for s in values('deck', 'suit') %}{% if s % 10 == 0 %}\n\n{% endif %}{{ s }} {% endfor %}\n")
    root = make_project(tmp_path, cards=cards, files={"rules/r.md": markdown})
    result, out = build(root, "--only", "rules")
    assert result.exit_code == 0, result.output
    text = "".join(page.extract_text() for page in PdfReader(out / "g" / "rulebook.pdf").pages)
    assert "10000 cards, 100 a suit." in text and "91 92 93" in text
