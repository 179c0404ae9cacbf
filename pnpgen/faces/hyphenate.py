"""Turn a language and a Latin word into the places the word may take a hyphen at a line's end (Pyphen's
dictionaries), and a text into the places after its dashes and slashes where a line may break.

Only a plain word is hyphenated: letters only (a word with digits such as 3rd, a URL, a word already
hyphenated such as face-down never is; the last breaks at its own hyphen), not all capitals (an acronym),
at least MIN_WORD letters, with MIN_SIDE letters or more on each side of the hyphen (English: three after it,
as English typesetting has it: round-ed and remain-ed read badly). Quotes, brackets and
punctuation around the word, and a trailing 's, stay with the part they touch.
"""
from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

UNSPACED = frozenset({"ja", "zh"})  # written without spaces between words: no hyphenation, the Japanese rules hold
DICTIONARIES = {"en": "en_US"}  # a bare code whose dictionary is not the one its printouts are expected to follow
MIN_WORD = 5  # letters
MIN_SIDE = 2  # letters
AFTER_HYPHEN = {"en": 3}  # letters after the hyphen where a language asks for more than MIN_SIDE
LETTERS = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff\u1e00-\u1eff"
_WORD = re.compile(f"([\"'(\\[{{\u2018\u201c\u00ab\u00bf\u00a1]*)([{LETTERS}]+)((?:['\u2019]s)?"
                   f"[\"')\\]}}.,;:!?\u2019\u201d\u00bb\u2026]*)")
DASHES = "-\u2010\u2013\u2014/"  # a line may break after one of these inside a word
_TOKEN = re.compile("[^ \t\u00a0\u202f\u3000\n]+")
_DIGIT = re.compile("[0-9\uff10-\uff19]")


class Hyphenator:
    """Where the words of one language may take a hyphen; a language Pyphen has no dictionary for takes none."""

    def __init__(self, language: str, hyphenate: bool = True):
        import pyphen  # loaded with the first Latin edition: its dictionary takes a moment to read

        found = pyphen.language_fallback(DICTIONARIES.get(language, language)) if hyphenate else None
        self.after = AFTER_HYPHEN.get(language.split("_")[0], MIN_SIDE)
        self.dictionary = pyphen.Pyphen(lang=found, left=MIN_SIDE, right=self.after) if found else None
        self.known: dict[str, tuple[int, ...]] = {}

    def points(self, word: str) -> tuple[int, ...]:
        """Offsets in word (a whole space-delimited word, punctuation included) where a hyphen may go, in order."""
        found = self.known.get(word)
        if found is None:
            found = self.known[word] = self.find_points(word)
        return found

    def find_points(self, word: str) -> tuple[int, ...]:
        match = _WORD.fullmatch(word)
        if match is None or self.dictionary is None:
            return ()
        lead, core = match.group(1), match.group(2)
        if len(core) < MIN_WORD or core.isupper() or any(char.isupper() for char in core[1:]):
            return ()  # an acronym, or a name set in mixed capitals (McKay, iPhone): as it is written
        return tuple(len(lead) + point for point in self.dictionary.positions(core)
                     if MIN_SIDE <= point <= len(core) - self.after)


@functools.lru_cache(maxsize=None)
def hyphenator_for(language: str | None, hyphens: str = "auto") -> Hyphenator | None:
    """The hyphenator of an edition's language; None for a project of one unnamed language or a language written
    without spaces (its text breaks as Japanese does today). hyphens="none" (a title, a name): the language's breaks
    at spaces, dashes and slashes, without a hyphen added."""
    if language is None or language in UNSPACED:
        return None
    return Hyphenator(language, hyphenate=hyphens == "auto")


@functools.lru_cache(maxsize=None)
def hyphenation_inputs(language: str | None) -> tuple[str, ...]:
    """What an edition's hyphens depend on besides pnpgen: Pyphen's version and the digest of the dictionary its
    language reads; none for a language that takes no hyphens. A render key holds them, so that an upgrade of either
    fits a Latin edition's text again."""
    if language is None or language in UNSPACED:
        return ()
    import pyphen

    found = pyphen.language_fallback(DICTIONARIES.get(language, language))
    entry = pyphen.LANGUAGES[found] if found else None
    data = b"" if entry is None else entry.read_bytes() if hasattr(entry, "read_bytes") else Path(entry).read_bytes()
    return (f"pyphen {pyphen.__version__} {found or 'no dictionary'} {hashlib.sha256(data).hexdigest()}",)


def dash_breaks(text: str) -> frozenset[int]:
    """Offsets in text just after a dash or slash inside a word (well-|known, draw/|discard), where a line may
    break without a hyphen added; none inside a word with digits (10-card, 1/2) nor at a run of them (https://)."""
    breaks = set()
    for token in _TOKEN.finditer(text):
        word = token.group()
        if _DIGIT.search(word):
            continue
        for at in range(1, len(word) - 1):
            if word[at] in DASHES and word[at - 1] not in DASHES + ":" and word[at + 1] not in DASHES:
                breaks.add(token.start() + at + 1)
    return frozenset(breaks)
