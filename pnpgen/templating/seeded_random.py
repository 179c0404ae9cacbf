"""Turn Jinja's random helpers (the `random` filter, `lipsum()`) into repeatable ones: same inputs, same picks.

A build must give byte-identical PDFs for the same project, so a template asking for chance gets a choice
seeded by what it is rendering: the card (as a whole, so the face is known to depend on it), the component,
the side and the sequence itself. Different cards still get different picks; the same card always the same.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import jinja2
from jinja2.constants import LOREM_IPSUM_WORDS
from markupsafe import Markup, escape

WORDS = LOREM_IPSUM_WORDS.split()


def seeded(*parts: object) -> random.Random:
    return random.Random(hashlib.sha256(repr(parts).encode("utf-8")).digest())


@jinja2.pass_context
def pick_repeatably(context, seq):
    """One item of seq, the same one every build for the same card, side and sequence."""
    items = seq if isinstance(seq, (Sequence, range)) else list(seq)
    if not items:
        return context.environment.undefined("No random item, sequence was empty.")
    where = (context.get("card"), context.get("component"), context.get("side"))
    return items[seeded(where, items).randrange(len(items))]


def write_lorem(n: int = 5, html: bool = True, min: int = 20, max: int = 100):  # noqa: A002 - Jinja's names
    """n paragraphs of min to max placeholder words, the same text for the same arguments."""
    chance = seeded("lipsum", n, html, min, max)
    paragraphs = []
    for _ in range(int(n)):
        words = [chance.choice(WORDS) for _ in range(chance.randint(int(min), int(max)))]
        sentences, start = [], 0
        while start < len(words):
            end = start + chance.randint(4, 12)
            sentence = " ".join(words[start:end])
            sentences.append(sentence[:1].upper() + sentence[1:] + ".")
            start = end
        paragraphs.append(" ".join(sentences))
    if not html:
        return "\n\n".join(paragraphs)
    return Markup("\n".join(f"<p>{escape(p)}</p>" for p in paragraphs))
