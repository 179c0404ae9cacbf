"""Colours are parsed once a process: a colour named again is the same value, a bad one refused each time."""
import pytest

from pnpgen.faces.svgpath import NotDrawable
from pnpgen.faces.svgvalues import Ink, parse_colour


def test_a_colour_named_again_is_the_same_value():
    assert parse_colour("#b3262d") == parse_colour(" #b3262d ") == (0.701961, 0.14902, 0.176471)
    assert parse_colour("#b3262e") != parse_colour("#b3262d")
    ink = parse_colour("cmyk(0%, 100%, 100%, 0%)")
    assert isinstance(ink, Ink) and parse_colour("cmyk(0%, 100%, 100%, 0%)").cmyk == ink.cmyk == (0.0, 1.0, 1.0, 0.0)


def test_a_bad_colour_is_refused_every_time():
    for _ in range(2):
        with pytest.raises(NotDrawable, match="colour 'reddish'"):
            parse_colour("reddish")
