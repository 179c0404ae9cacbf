"""print_colour's arithmetic: the naive CMYK the module documents, WCAG contrast, Machado 2009 dichromacy."""
import pytest

from pnpgen.faces.print_colour import cmyk, contrast_ratio, delta_e, is_rich_black, simulate, total_ink

RED, GREEN, BLUE = (0.816, 0.188, 0.188), (0.188, 0.627, 0.188), (0.125, 0.314, 0.753)


def test_black_is_a_rich_black_a_quarter_of_its_grey_taken_out_of_the_three_inks():
    assert cmyk((0, 0, 0)) == (0.75, 0.75, 0.75, 1.0)
    assert total_ink((0, 0, 0)) == 325.0


def test_a_saturated_colour_keeps_its_two_inks_and_white_has_none():
    assert total_ink((1, 0, 0)) == 200.0
    assert total_ink((1, 1, 1)) == 0.0


def test_near_black_text_is_rich_black_and_pure_black_is_not():
    assert is_rich_black((0.1, 0.1, 0.1))
    assert not is_rich_black((0, 0, 0))
    assert not is_rich_black(RED)


def test_contrast_is_wcag_s_ratio():
    assert contrast_ratio((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert contrast_ratio((1, 1, 1), (1, 1, 1)) == 1.0


def test_red_and_green_merge_for_a_deuteranope_and_red_and_blue_do_not():
    assert delta_e(RED, GREEN) > 100
    assert delta_e(simulate(RED, "deuteranopia"), simulate(GREEN, "deuteranopia")) < 10
    for vision in ("protanopia", "deuteranopia", "tritanopia"):
        assert delta_e(simulate(RED, vision), simulate(BLUE, vision)) > 10
