"""Line breaking (Latin, Japanese kinsoku), shrink-to-fit, alignment, escaping and inline icons."""
from __future__ import annotations


import pytest

from pdfprobe import strings
from lxml import etree

from pnpgen import units
from pnpgen.faces.convert import Converter
from pnpgen.faces.font import font_named
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.faces.linebreak import break_lines
from pnpgen.faces.text import IconRun, TextDoesNotFit, TextRun, fit_text, format_number

BUNDLED = BUNDLED_FONTS
ICONS = {"ron": '<rect width="1" height="1" fill="#b3262d"/>'}
JAPANESE = "ロンした時、このカードを公開してもよい。その場合、点数は２倍になる。"


def one(text: str) -> float:
    """Every character is 1 unit wide."""
    return float(len(text))


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook([BUNDLED])


def test_a_no_break_space_holds_its_neighbours_together_and_is_kept():
    """U+00A0 between a number and its unit ("2\u00a0cards", "１０\u00a0cm") is text, not a place to break."""
    assert break_lines("draw 2\u00a0cards now", 8, one) == ["draw", "2\u00a0cards", "now"]
    assert break_lines("山札の１０\u00a0cmを引く", 5, one) == ["山札の", "１０\u00a0cm", "を引く"]
    assert break_lines("\u00a0", 3, one) == ["\u00a0"]


def test_line_never_starts_with_closing_punctuation():
    assert break_lines("あいうえお。かき", 5, one) == ["あいうえ", "お。かき"]
    assert break_lines("あいうえおっか", 5, one) == ["あいうえ", "おっか"]
    assert break_lines("あいうえお」。か", 5, one) == ["あいうえ", "お」。か"]
    assert break_lines("あいうえおー", 5, one) == ["あいうえ", "おー"]
    assert break_lines("あいうえお!", 5, one) == ["あいうえ", "お!"]


def test_line_never_ends_with_opening_bracket():
    assert break_lines("あいうえ「おか」", 5, one) == ["あいうえ", "「おか」"]
    assert break_lines("あいう（「えお", 5, one) == ["あいう", "（「えお"]


def test_japanese_breaks_between_words_when_phrases_are_not_asked_for():
    lines = break_lines("山札から手札を補充する", 5, one, min_fill=1)  # every line as full as words let it be
    assert lines == ["山札から", "手札を補充", "する"]


def test_japanese_breaks_at_phrase_boundaries_where_the_measure_allows():
    text = "ロンした時、このカードを公開してもよい。その場合、点数は２倍になる。"
    lines = break_lines(text, 8, one)
    assert "".join(lines) == text
    phrases = ["ロンした", "時、", "この", "カードを", "公開しても", "よい。", "その", "場合、", "点数は", "２倍に", "なる。"]
    ends = {sum(map(len, phrases[:i])) for i in range(1, len(phrases) + 1)}
    at = 0
    cut = 0
    for line in lines[:-1]:
        at += len(line)
        # a line ends where a phrase does, unless that would leave it under 60 % full: then it is full
        assert at in ends or len(line) == 8, lines
        assert len(line) >= 0.6 * 8
        cut += at not in ends
    assert cut <= 1 and lines[0] == "ロンした時、この"
    # where a phrase would leave the line too empty it is broken inside, kinsoku still holding
    narrow = break_lines("公開してもよい。", 3, one)
    assert narrow == ["公開し", "ても", "よい。"]


def test_latin_wraps_at_spaces_and_collapses_them_at_line_ends():
    assert break_lines("the quick brown fox", 10, one) == ["the quick", "brown fox"]
    assert break_lines("ab     cd", 3, one) == ["ab", "cd"]
    assert break_lines("  lead and trail  ", 20, one) == ["lead and trail"]
    assert break_lines("a  b", 10, one) == ["a  b"]  # inner spaces stay: the SVG preserves them


def test_long_word_is_split_only_when_alone_too_wide():
    assert break_lines("a supercalifragilistic b", 8, one) == ["a", "supercal", "ifragili", "stic b"]
    assert break_lines("abc defgh", 6, one) == ["abc", "defgh"]


def test_mixed_japanese_and_latin():
    assert break_lines("カードを1枚 draw する", 7, one) == ["カードを1枚", "draw する"]


def test_explicit_newlines_are_hard_breaks(book):
    assert break_lines("ab\ncd", 10, one) == ["ab", "cd"]
    assert break_lines("ab\n\ncd", 10, one) == ["ab", "", "cd"]
    fitted = fit_text("ab\r\ncd\n", 0, 0, 30, 20, fontbook=book)  # YAML block scalars end in a newline
    assert [line.text for line in fitted.lines] == ["ab", "cd"]


def test_first_baseline_and_line_widths_come_from_the_font(book):
    fitted = fit_text("Hello 日本", 2, 3, 50, 20, fontbook=book, size=10)
    (line,) = fitted.lines
    em = units.to_mm(10)
    assert line.y == pytest.approx(3 + 0.88 * em)
    assert line.width == pytest.approx(units.to_mm(font_named(fitted.font_name).width("Hello 日本", 10)))
    assert (fitted.family, fitted.weight, fitted.size_pt) == ("Noto Sans JP", "400", 10)


def test_shrinks_to_the_largest_size_that_fits(book):
    fitted = fit_text(JAPANESE * 2, 0, 0, 40, 12, fontbook=book, size=9, min_size=4)
    assert 4 <= fitted.size_pt < 9
    em = fitted.size_mm
    assert all(line.width <= 40 + 1e-6 for line in fitted.lines)
    assert fitted.lines[-1].y + 0.12 * em <= 12 + 1e-6
    bigger = fitted.size_pt + 0.25
    with pytest.raises(TextDoesNotFit):
        fit_text(JAPANESE * 2, 0, 0, 40, 12, fontbook=book, size=bigger, min_size=bigger)


def test_card_text_shrinks_no_further_than_6_pt_unless_the_template_says_so(book):
    with pytest.raises(TextDoesNotFit) as caught:  # fits at 4 pt, as the test above shows
        fit_text(JAPANESE * 4, 0, 0, 40, 12, fontbook=book, size=9)
    assert "min_size 6 pt" in str(caught.value)
    assert fit_text(JAPANESE * 4, 0, 0, 40, 12, fontbook=book, size=9, min_size=4).size_pt < 6


def test_text_that_does_not_fit_says_why(book):
    with pytest.raises(TextDoesNotFit) as caught:
        fit_text("Draw three cards, then discard two of them " * 5, 0, 0, 20, 5, fontbook=book, min_size=6)
    message = str(caught.value)
    assert "20 \u00d7 5 mm box" in message and "min_size 6 pt" in message
    assert "\u201cDraw three cards, then discard\u2026\u201d" in message
    assert caught.value.content.startswith("Draw three cards")


def test_horizontal_and_vertical_alignment(book):
    left = fit_text("ab\nabcd", 10, 0, 30, 20, fontbook=book)
    center = fit_text("ab\nabcd", 10, 0, 30, 20, fontbook=book, align="center")
    right = fit_text("ab\nabcd", 10, 0, 30, 20, fontbook=book, align="right", valign="bottom")
    for a, c, r in zip(left.lines, center.lines, right.lines):
        assert a.x == 10
        assert c.x == pytest.approx(10 + (30 - c.width) / 2)
        assert r.x + r.width == pytest.approx(40)
    em = right.size_mm
    assert right.lines[-1].y + 0.12 * em == pytest.approx(20)
    middle = fit_text("ab", 0, 0, 30, 20, fontbook=book, valign="middle")
    assert middle.lines[0].y - 0.88 * em == pytest.approx(20 - (middle.lines[0].y + 0.12 * em))
    with pytest.raises(ValueError, match="align='justify'"):
        fit_text("ab", 0, 0, 30, 20, fontbook=book, align="justify")


def test_svg_escapes_text_and_sets_font_attributes(book):
    svg = fit_text('a <b> & "c" \'d\'', 0, 0, 60, 10, fontbook=book, weight="bold", color="#b3262d").to_svg()
    assert "a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;" in svg
    assert 'font-family="Noto Sans JP" font-weight="700"' in svg and 'fill="#b3262d"' in svg
    assert f'font-size="{round(units.to_mm(9), 4)}"' in svg
    etree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')  # well-formed


def test_inline_icons_are_placed_in_the_line(book):
    fitted = fit_text("Win :ron: now :nope:", 5, 5, 60, 10, fontbook=book, size=10, icons=ICONS)
    (line,) = fitted.lines
    word, icon, rest = line.runs
    em = units.to_mm(10)
    assert isinstance(word, TextRun) and word.text == "Win" and word.x == 5
    assert isinstance(icon, IconRun) and icon.name == "ron" and icon.size == pytest.approx(em)
    space = units.to_mm(font_named(fitted.font_name).width(" ", 10))
    assert icon.x == pytest.approx(5 + word.width + space + 0.1 * em)
    assert icon.y == pytest.approx(line.y - 0.88 * em)
    assert isinstance(rest, TextRun) and rest.text == "now :nope:"  # unknown icon stays literal
    space = units.to_mm(font_named(fitted.font_name).width(" ", 10))
    assert rest.x == pytest.approx(5 + word.width + space + 1.2 * em + space)
    assert line.text == "Win :ron: now :nope:"
    svg = fitted.to_svg()
    place = f"translate({format_number(icon.x)} {format_number(icon.y)}) scale({format_number(em)})"
    assert f'<g transform="{place}">{ICONS["ron"]}</g>' in svg
    assert ":ron:" in fit_text("Win :ron:", 0, 0, 60, 10, fontbook=book).lines[0].text  # no icons given


def test_icons_break_like_japanese_characters():
    # fit_text hands icons to break_lines as private-use characters (U+F0000 + n)
    assert break_lines("あいうえ\U000f0000\U000f0000", 5, one, min_fill=1) == ["あいうえ\U000f0000", "\U000f0000"]
    assert break_lines("あいうえ\U000f0000。", 5, one, min_fill=1) == ["あいうえ", "\U000f0000。"]


def test_empty_text_has_no_lines(book):
    fitted = fit_text("", 0, 0, 1, 1, fontbook=book)
    assert fitted.lines == () and fitted.to_svg() == ""


def test_the_painter_draws_the_fitted_text_where_it_was_measured(book, tmp_path):
    fitted = fit_text("右寄せ text", 0, 0, 40, 10, fontbook=book, weight="bold", align="right")
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="10mm" viewBox="0 0 40 10">{fitted.to_svg()}</svg>'
    (string,) = list(strings(Converter(book, tmp_path).face_form("k", svg, "x.svg.j2")))
    assert string.font == "NotoSansJP-Bold" and string.text == "右寄せ text"
    assert string.x == pytest.approx(fitted.lines[0].x, abs=1e-3)
    assert string.size == pytest.approx(fitted.size_mm, abs=1e-3)



def test_an_english_title_twice_the_japanese_length_shrinks_and_wraps_inside_a_one_line_box(book):
    japanese = fit_text("忘れがたき東の大旋風", 0, 0, 38, 6, fontbook=book, size=11, min_size=5, language="ja")
    english = fit_text("The Unforgettable Eastern Whirlwind", 0, 0, 38, 6, fontbook=book, size=11, min_size=5,
                       language="en")
    assert len(japanese.lines) == 1
    assert [line.text for line in english.lines] == ["The Unforgettable Eastern", "Whirlwind"]
    assert 5 <= english.size_pt < japanese.size_pt <= 11
    font = font_named(english.font_name)
    assert all(line.width <= 38 for line in english.lines)
    assert english.lines[0].y - font.ascent / 1000 * english.size_mm >= 0  # the first line's top inside the box
    assert english.lines[-1].y - font.descent / 1000 * english.size_mm <= 6  # the last line's foot inside it
    with pytest.raises(TextDoesNotFit, match="does not fit its 38 × 1.5 mm box even at min_size 5 pt"):
        fit_text("The Unforgettable Eastern Whirlwind", 0, 0, 38, 1.5, fontbook=book, size=11, min_size=5,
                 language="en")


def test_a_title_set_with_hyphens_none_breaks_at_its_spaces_and_takes_no_hyphen(book):
    args = ("Three Times Undress", 0, 0, 34, 12)  # the box of the スリータイムズ card backs' title
    hyphenated = fit_text(*args, fontbook=book, size=9.5, weight="bold", align="center", language="en")
    assert [line.text for line in hyphenated.lines] == ["Three Times Un-", "dress"]  # as body text would be set
    title = fit_text(*args, fontbook=book, size=9.5, weight="bold", align="center", language="en", hyphens="none")
    assert [line.text for line in title.lines] == ["Three Times", "Undress"]
    with pytest.raises(ValueError, match="hyphens='never' is not a hyphenation: expected one of auto, none"):
        fit_text(*args, fontbook=book, language="en", hyphens="never")
