"""Turn prose into sentences: a soft line break or a list item's continuation line stays inside one, a heading, a
table row or a blank line ends one; and read the one player count a heading or a list's lead line states."""
from __future__ import annotations

import re

from .numerals import parse_number

MAX_SENTENCE = 1000  # characters: prose without a full stop is read in pieces this long
BLOCK = re.compile(r"\s*(?:[-*+]\s|[0-9０-９]+[.．)]\s|#|\||>|$)")  # a line that starts a block, not a soft break
ITEM = re.compile(r"\s*(?:[-*+]|[0-9０-９]+[.．)])\s")
LEAD = re.compile(r"[：:]\s*$")


def split_sentences(text: str, breaks: re.Pattern):
    """(start, end) of each sentence, none longer than MAX_SENTENCE: reading each stays bounded and the whole is
    linear in the text's length."""
    for start, end in find_sentences(text, breaks):
        for piece in range(start, end, MAX_SENTENCE):
            yield piece, min(piece + MAX_SENTENCE, end)


def find_sentences(text: str, breaks: re.Pattern):
    """(start, end) of each sentence, however long; `breaks`: where its language ends one."""
    start = 0
    for match in breaks.finditer(text):
        at = match.start()
        if match.group(0) == "\n":
            line = text[text.rfind("\n", 0, at) + 1:at].lstrip()
            following = text.find("\n", at + 1)
            after = text[at + 1:following if following >= 0 else len(text)]
            if line and not line.startswith(("#", "|")) and not BLOCK.match(after):
                continue
        if text[start:at].strip():
            yield start, at
        start = at + 1
    if text[start:].strip():
        yield start, len(text)


def read_condition(text: str, players: tuple, marks: re.Pattern) -> int | None:
    """The one player count a heading or a list's lead line states (### ３人プレイの場合, ４人プレイ時：, With 3 players:);
    `marks`: how its language writes one."""
    counts = {int(parse_number(m.group(1))) for m in marks.finditer(text)} & set(players)
    return counts.pop() if len(counts) == 1 else None
