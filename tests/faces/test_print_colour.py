"""print_colour's arithmetic: ink through the press profile, WCAG contrast, Machado 2009 dichromacy."""
import pytest

from pnpgen.faces.print_colour import cmyk, contrast_ratio, delta_e, is_rich_black, simulate, total_ink

RED, GREEN, BLUE = (0.816, 0.188, 0.188), (0.188, 0.627, 0.188), (0.125, 0.314, 0.753)


def test_pure_black_is_black_ink_alone_and_a_near_black_is_a_rich_black_over_the_limit():
    assert cmyk((0, 0, 0)) == (0.0, 0.0, 0.0, 1.0)
    assert total_ink((0, 0, 0)) == 100.0
    assert total_ink((0.01, 0.01, 0.01)) > 300


def test_a_saturated_colour_keeps_its_two_inks_and_white_has_none():
    c, m, y, k = cmyk((1, 0, 0))
    assert c < 0.05 and m > 0.9 and y > 0.9 and k < 0.05
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
