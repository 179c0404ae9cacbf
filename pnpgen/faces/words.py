"""Turn Japanese text into the offsets where its words begin (SudachiPy's analysis), a compound noun one word.

A line may break only between words, as an editor breaks it: 捨て札, 山札 and 聴牌速度 stay whole. SudachiPy
(its core dictionary) is loaded on the first Japanese text a process breaks.
"""
from __future__ import annotations

import functools
import re

# Nouns join the nouns beside them into one compound (山+札, 聴+牌+速度, ４+枚): a prefix joins what
# follows it, a suffix what precedes it.
NOUN = "名詞"
PREFIX = "接頭辞"
SUFFIX = "接尾辞"
CHUNK = 2000  # characters analysed at a time: the analyser refuses very long input, and no word is this long
_SENTENCE_END = re.compile("(?<=[。！？\n])")
# Private-use characters stand for inline icons while breaking: each is a word of its own; so is a lone surrogate,
# which the analyser cannot take (it reads U+FFFD in its place).
_OWN_WORD = re.compile("[\U000f0000-\U000fffff\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


@functools.lru_cache(maxsize=2048)  # fitting asks again for each size it tries; a deck's texts are not all kept
def word_starts(text: str) -> frozenset[int]:
    """Offsets in text where a word begins, besides 0; a compound noun is one word."""
    starts: set[int] = set()
    at = 0
    for chunk in _chunks(text):
        previous = ""  # the part of speech of the word before, "" at a chunk's start (a break is allowed there)
        for morpheme in _tokenizer().tokenize(_SURROGATE.sub("\ufffd", chunk)):
            kind = morpheme.part_of_speech()[0]
            if at + morpheme.begin() and not joins(previous, kind):
                starts.add(at + morpheme.begin())
            previous = kind
        at += len(chunk)
    for own in _OWN_WORD.finditer(text):
        starts.update((own.start(), own.end()))
    return frozenset(starts - {0, len(text)})


def joins(previous: str, kind: str) -> bool:
    """Whether a word of part of speech kind makes one compound with the word before it."""
    return previous == PREFIX or (previous in (NOUN, SUFFIX) and kind in (NOUN, SUFFIX))


def _chunks(text: str) -> list[str]:
    """text cut after sentence ends into pieces of at most CHUNK characters."""
    return [sentence[start:start + CHUNK] for sentence in _SENTENCE_END.split(text)
            for start in range(0, len(sentence), CHUNK)]


@functools.lru_cache(maxsize=1)
def _tokenizer():
    from sudachipy import Dictionary, SplitMode  # loaded on first Japanese text: its dictionary takes a moment

    return Dictionary(dict="core").tokenizer(mode=SplitMode.C, fields={"pos"})
