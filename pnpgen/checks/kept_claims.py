"""Turn the sentence memos of a project's games into lines of JSON and back: what reading its card text gave, kept in
the user's cache so that a build after a one-card save reads only that card's sentences again.

A line a sentence (its game, the vocabulary it was read with, its key and claims), then the SHA-256 of those lines:
written and read a line at a time, so that a big deck's claims cost no more memory than the memo holds. What is
read back is held to the shape written: a file that is damaged, or that an older pnpgen wrote, gives no memo (the
sentences are read afresh), never a wrong claim or a traceback."""
from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Iterator

from ..digests import digest
from .judging import Claim
from .numerals import Number
from .prose import SentenceMemo
from .vocabulary import Context

_KEY_TYPES = (str, str, str, (int, type(None)), str, str, bool, str)  # a memo key: span fields, strict, language
_CHECK = 64  # the hex digits of the checksum that ends the file


def reading_digest() -> str:
    """The digest of the checker's own code: claims kept by another version of it are not its claims."""
    return digest(*(path.read_bytes() for path in sorted(Path(__file__).parent.glob("*.py"))))


def encode_memos(memos: dict[str, SentenceMemo]) -> Iterator[bytes]:
    """The memos by game id, a line of JSON a sentence (one read back is written as it was read), then the
    checksum of the lines."""
    hasher = hashlib.sha256()
    for game_id, memo in memos.items():
        if memo.vocabulary is None:
            continue
        for key, claims in memo.claims.items():
            line = memo.as_read.get(key) or (json.dumps(
                [game_id, memo.vocabulary, list(key), [encode_claim(c) for c in claims]], ensure_ascii=False,
                separators=(",", ":")) + "\n").encode("utf-8")
            hasher.update(line)
            yield line
    yield hasher.hexdigest().encode("ascii")


def decode_memos(data: bytes) -> dict[str, SentenceMemo]:
    """The memos encode_memos wrote (each kept: it forgets what a build no longer reads); {} for anything else."""
    body, check = data[:-_CHECK], data[-_CHECK:]
    if len(data) < _CHECK or hashlib.sha256(body).hexdigest().encode("ascii") != check:
        return {}
    memos: dict[str, SentenceMemo] = {}
    try:
        for line in io.BytesIO(body):
            game_id, vocabulary, key, claims = json.loads(line.decode("utf-8"))
            memo = memos.get(game_id)
            if memo is None:
                memo = memos[game_id] = SentenceMemo(True, vocabulary)
            if not isinstance(vocabulary, str) or memo.vocabulary != vocabulary:
                return {}  # a game's sentences were all read with one vocabulary
            key = decode_key(key)
            memo.claims[key] = [decode_claim(c) for c in claims]
            memo.as_read[key] = line
    except (ValueError, TypeError, AttributeError, RecursionError):  # json's and the shape checks' for a file not ours
        return {}
    return memos


def encode_claim(claim: Claim) -> list:
    """A sentence's claim (a table cell's context, with its headers' inputs, is never kept: cells are not memoised)."""
    n, c = claim.number, claim.context
    context = None if c is None else [c.players, c.per, sorted(c.quoted), c.part, c.values, c.text]
    return [[n.value, n.start, n.end, n.unit, n.text, n.said], context, claim.noun, claim.totals, claim.counted]


def decode_key(key: list) -> tuple:
    if len(key) != len(_KEY_TYPES) or not all(isinstance(v, t) for v, t in zip(key, _KEY_TYPES)):
        raise ValueError("not a memo key")
    return tuple(key)


def decode_claim(fields: list) -> Claim:
    number, context, noun, totals, counted = fields
    value, start, end, unit, text, said = number
    if not (isinstance(value, (int, float)) and all(isinstance(v, int) for v in (start, end))
            and all(isinstance(v, str) for v in (unit, text, said)) and (noun is None or isinstance(noun, int) and noun >= 0)
            and isinstance(totals, bool) and isinstance(counted, bool)):
        raise ValueError("not a claim")
    return Claim(Number(value, start, end, unit, text, said), None if context is None else decode_context(context),
                 noun, totals, counted)


def decode_context(fields: list) -> Context:
    players, per, quoted, part, values, text = fields
    if (not (players is None or isinstance(players, int)) or not all(isinstance(v, bool) for v in (per, part, values))
            or not isinstance(text, str) or not all(isinstance(v, str) for v in quoted)):
        raise ValueError("not a context")
    return Context(players, per, frozenset(quoted), part=part, values=values, text=text)
