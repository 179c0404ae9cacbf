"""pnpgen's own words on a rulebook's pages: every one in Japanese and English, with the same values to fill in, and
the Japanese for a language pnpgen has no words for."""
from __future__ import annotations

from string import Formatter

from pnpgen.rules.words import WORDS, word


def test_every_word_is_given_in_japanese_and_english_with_the_same_values_to_fill_in():
    for key, words in WORDS.items():
        assert set(words) == {"ja", "en"}, key
        assert all(isinstance(text, str) for text in words.values()), key
        fields = {language: {name for _, name, _, _ in Formatter().parse(text) if name}
                  for language, text in words.items()}
        assert fields["ja"] == fields["en"], key


def test_a_word_is_the_editions_and_the_japanese_for_another_language():
    assert word("contents", "en") == "Contents"
    assert word("contents", "ja") == word("contents", None) == word("contents", "de") == "目次"
    assert word("count of", "en", component="Area map") == "Number of Area map"
    assert word("count of", "fr", component="エリアマップ") == "エリアマップの数"
    assert word("default unit", "en") == ""  # an empty word is the edition's, not a reason to fall back
