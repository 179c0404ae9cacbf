"""Rulebook paragraphs of an English edition: broken by the card text's planner with hyphens where a line would be
too empty, the hyphen drawn at the break; no widow or orphan at a page break; a Japanese edition's unchanged."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from pnpgen.faces.font import font_named, pair_family
from pnpgen.faces.hyphenate import hyphenator_for
from pnpgen.faces.linebreak import break_lines
from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.project.validate import load_project
from pnpgen.rules.flowables import Look, make_styles
from pnpgen.rules.pages import make_contents
from pnpgen.rules.paragraph import KinsokuParagraph

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TEXT = ("Players who supported the winning side gain half the points the winner gained, and everyone "
        "discards their remaining cards afterwards.")


@pytest.fixture(scope="module")
def fonts():
    fontbook = open_fontbook(load_project(FIXTURES / "english-line-breaks"))
    regular, bold = fontbook.resolve(None), fontbook.resolve(None, "bold")
    pair_family(regular, bold)  # as the rulebook's typesetter does: <b> finds the bold face
    return regular, bold


def lines_of(paragraph: KinsokuParagraph, width: float) -> list[str]:
    paragraph.wrap(width, 10_000)
    return ["".join(word.text for word in line.words) for line in paragraph.blPara.lines]


def test_an_english_paragraph_breaks_as_english_card_text_does_with_the_hyphen_drawn(fonts):
    style = make_styles(Look(*fonts, 10, language="en"))["body"]
    assert style.hyphenationLang == "en" and style.wordWrap == "CJK"  # our breaker, told the language
    width = 130.0
    lines = lines_of(KinsokuParagraph(TEXT, style), width)
    measure = functools.partial(font_named(fonts[0]).width, size=10)
    assert lines == break_lines(TEXT, width, measure, hyphenator=hyphenator_for("en"))
    assert lines == ["Players who supported the", "winning side gain half the", "points the winner gained,",
                     "and everyone discards their", "remaining cards after-", "wards."]
    assert all(measure(line) <= width for line in lines)


def test_a_japanese_editions_paragraph_takes_no_hyphen(fonts):
    for language in ("ja", None):
        style = make_styles(Look(*fonts, 10, language=language))["body"]
        assert style.hyphenationLang == ""
        lines = lines_of(KinsokuParagraph(TEXT, style), 130.0)
        assert not any(line.endswith("-") for line in lines) and " ".join(lines) == TEXT


@pytest.mark.parametrize("room, parts", [(1, None), (2, [2, 4]), (3, [3, 3]), (4, [4, 2]), (5, [4, 2])])
def test_a_page_break_leaves_no_line_of_a_paragraph_alone(fonts, room, parts):
    """Six lines, and room for `room` of them: one alone at the foot of the page (an orphan) or at the head of the
    next (a widow) is never left; the paragraph moves whole when it cannot split otherwise."""
    style = make_styles(Look(*fonts, 10, language="en"))["body"]
    paragraph = KinsokuParagraph(TEXT, style)
    assert len(lines_of(paragraph, 130.0)) == 6
    split = paragraph.split(130.0, room * style.leading + 0.1)
    assert ([len(lines_of(part, 130.0)) for part in split] if split else None) == parts



def test_an_english_rulebooks_contents_wrap_at_spaces_and_a_japanese_ones_as_before(fonts):
    """The contents are reportlab's own paragraphs, not ours: an English edition's take reportlab's wrapping at
    spaces rather than its CJK wrapping, which measures a line's trailing space and may cut a long word anywhere."""
    for language, wrap in (("en", None), ("ja", "CJK"), (None, "CJK")):
        contents = make_contents(Look(*fonts, 10, language=language))
        assert [style.wordWrap for style in contents.levelStyles] == [wrap, wrap]
