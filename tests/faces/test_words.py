"""Japanese words for line breaking: compounds whole, at every measure; Latin words never split."""
from __future__ import annotations

import pytest

from pnpgen.faces.linebreak import MIN_FILL, break_lines
from pnpgen.faces.words import word_starts

COMPOUNDS = ("捨て札", "山札", "手札", "王牌", "聴牌速度")


def one(text: str) -> float:
    """Every character is 1 unit wide."""
    return float(len(text))


def test_a_compound_noun_is_one_word():
    text = "必要ない場合は、捨て札にしてください。山札から手札を補充し、王牌を確かめて聴牌速度を競う。"
    starts = sorted(word_starts(text) | {0, len(text)})
    words = [text[start:end] for start, end in zip(starts, starts[1:])]
    assert words == ["必要", "ない", "場合", "は", "、", "捨て札", "に", "し", "て", "ください", "。", "山札", "から",
                     "手札", "を", "補充", "し", "、", "王牌", "を", "確かめ", "て", "聴牌速度", "を", "競う", "。"]


@pytest.mark.parametrize("min_fill", (MIN_FILL, 1.0))  # 1.0: lines as full as they can be, phrases or not
@pytest.mark.parametrize("compound", COMPOUNDS)
def test_a_line_whose_natural_break_falls_inside_a_compound_keeps_it_whole(compound, min_fill):
    lead = "残った手札の内、必要ない場合は、"
    text = f"{lead}{compound}にしてください。"
    for inside in range(1, len(compound)):  # a measure that a break between characters would fill up to here
        lines = break_lines(text, len(lead) + inside, one, min_fill)
        assert "".join(lines) == text
        assert any(compound in line for line in lines), lines


def test_latin_words_never_split_in_japanese_text():
    text = "手札からDiscard Pileへ捨て札を置き、Quick Drawを宣言する。"
    for width in range(10, 30):
        lines = break_lines(text, width, one)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        for word in ("Discard", "Pile", "Quick", "Draw"):
            assert any(word in line for line in lines), (width, lines)
