"""Turn a document's or rulebook's text into the game terms it uses (【河】, 「リード」, **聴牌速度**, 横倒し) and
tell whether a document defines a term: 「Xとは」「Xと呼びます」「Xという単位」, a heading or lead 「X：」 about it,
or, for the state of a card (横倒し), a rule that puts a card so."""
from __future__ import annotations

import re
from dataclasses import dataclass

# the states a card or chip is in, which a rule must say how a piece comes to be in
STATES = ("横倒し", "縦置き", "裏向き", "表向き", "横向き", "縦向き", "逆さま", "伏せ")
_BRACKETED = re.compile(r"【([^【】\n]{1,12})】|(→\s*)?「([^「」\n]{1,24})」")
_BOLD = re.compile(r"\*\*([^*\n]{1,24})\*\*")
_READING = re.compile(r"（[ぁ-ゖー]+）$")  # 「磐座（いわくら）」: the term and its reading
# a term is a noun: no digits, spaces, particles or punctuation, and it does not start with a kana ending
_NOT_IN_TERM = r"\s0-9０-９、。，．：:（）()「」【】*×＋－−\-"
_TERM = re.compile(rf"[^ぁ-ゖ{_NOT_IN_TERM}][^をはがにでのとへもや{_NOT_IN_TERM}]{{0,11}}")
# a state word followed by these is a state a piece is in (横倒しになっている, 横倒しのカード), not a rule putting it so
_STATE_USE = re.compile(r"になっ|の(?!まま)|である")
_HEADING = re.compile(r"[■〇◎◇◆●・]+\s*([^\s。]{1,30})(?=[\s。]|$)")
_LEAD = re.compile(r"(?:^|[\s・])([^\s。：:]{1,15})[：:]", re.M)
_OVERVIEW_DOCUMENT = re.compile(r"■+\s*概要")
_OVERVIEW_RULEBOOK = re.compile(r"^##\s*概要\s*$", re.M)


@dataclass(frozen=True)
class Use:
    """A term where a text uses it: the term and the offset into the text."""

    term: str
    at: int


def find_terms(text: str, rulebook: bool) -> list[Use]:
    """The terms a text sets apart: words in 【】 and 「」 (not a cross-reference →「脱衣」), a rulebook's bold words,
    and the states of a piece; no 「」 of the overview (概要), which are the story's names, not rules."""
    start, end = find_overview(text, rulebook)
    uses = []
    for match in _BRACKETED.finditer(text):
        if match.group(1):
            uses.append(Use(match.group(1), match.start(1)))
        elif match.group(2) is None and not start <= match.start() < end:
            uses.append(Use(match.group(3), match.start(3)))
    if rulebook:
        uses += [Use(m.group(1), m.start(1)) for m in _BOLD.finditer(text)]
    found = []
    for use in uses:
        term = _READING.sub("", use.term.replace("*", "").strip().strip("「」【】"))
        if _TERM.fullmatch(term):
            found.append(Use(term, use.at))
    for state in STATES:
        found += [Use(state, m.start()) for m in re.finditer(state, text)]
    return sorted(found, key=lambda use: use.at)


def find_overview(text: str, rulebook: bool) -> tuple[int, int]:
    """Where the overview section (概要) starts and ends, or (0, 0)."""
    start = (_OVERVIEW_RULEBOOK if rulebook else _OVERVIEW_DOCUMENT).search(text)
    if not start:
        return 0, 0
    after = re.compile(r"^##?\s", re.M) if rulebook else re.compile("■")
    end = after.search(text, start.end())
    return start.start(), end.start() if end else len(text)


def find_headings(raw: str) -> list[str]:
    """The headings (■〇◎◇・ and what follows) and leads (「X：」) of a document, which define what they name."""
    return [m.group(1) for m in _HEADING.finditer(raw)] + [m.group(1) for m in _LEAD.finditer(raw)]


def find_definition(term: str, raw: str, normalised: str, headings: list[str]) -> bool:
    """Whether the document defines the term: a state by a rule that puts a piece so, any other term by a defining
    phrase or one of its headings that names it."""
    if term in STATES:
        return any(not _STATE_USE.match(raw, m.end()) for m in re.finditer(term, raw))
    word = rf"[「【”“]?{re.escape(term)}[」】”]?"
    defining = (rf"{word}(?:と呼|という|とは|といい)|を{word}と(?:してください|します|する|し、)|が{word}とな"
                rf"|{word}は[^。]{{0,40}}表し|{word}（＝")
    if re.search(defining, normalised):
        return True
    return any(term in heading for heading in headings)
