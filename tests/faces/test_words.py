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


def test_a_paragraph_that_fits_its_line_is_one_line_without_asking_where_it_could_break(monkeypatch):
    """The one-line shortcut gives what the whole line breaker gives, for every paragraph it takes."""
    import random

    from pnpgen.faces import linebreak

    alphabet = list("捨て札山手王牌聴速度のをにはがでと、。「」（）ーっ　abcDEF12３４") + [""]
    chance = random.Random(7)
    taken = 0
    for _ in range(3000):
        chars = [chance.choice(alphabet) for _ in range(chance.randint(1, 30))]
        widths = [0.0 if char == "" else chance.choice([0.3, 0.5, 1.0]) for char in chars]
        measure = chance.choice([2.0, 5.0, 10.0, 15.0, 40.0])
        quick = linebreak.plan_lines(chars, widths, measure)
        taken += linebreak._one_line(chars, widths, measure) is not None
        with monkeypatch.context() as patched:
            patched.setattr(linebreak, "_one_line", lambda *_: None)
            assert linebreak.plan_lines(chars, widths, measure) == quick, ("".join(chars), measure)
    assert taken > 500  # the shortcut was taken often enough to mean something
    assert linebreak._one_line(list("捨て札 山札"), [1.0] * 6, 40.0) is None  # a space: the full path trims it
