"""Turn a rulebook's paragraphs into findings: a paragraph that carries sentences of two paragraphs of the document
joins what the document keeps apart (a warning naming both places in the document)."""
from __future__ import annotations

import re

from ..project.model import Game, Project
from .documents import Documents
from .findings import WARN, Finding, locator
from .rulebook import read_rulebooks
from .sentences import BLOCK

# a document's paragraph starts with a full-width space or after a blank line; a single line break may wrap a sentence
_DOCUMENT_BREAK = re.compile(r"\n[ \t]*\n\s*|　")
_SENTENCE = re.compile(r"[^。！？!?]+[。！？!?]?")
_MARKS = re.compile(r"^\s*(?:#+|>|[-*+]|[0-9０-９]+[.．)])\s*|\*\*")  # a block's own marks, not its sentences
MIN_SENTENCE = 8  # characters: a shorter sentence (「以下、同様です。」) may stand in many paragraphs by chance


def check_paragraphs(project: Project, game: Game, documents: Documents) -> list[Finding]:
    """A warning for each rulebook paragraph whose sentences no one paragraph of the game's document holds."""
    raw = documents.raw(game.document) if game.document else None
    if raw is None:
        return []
    where = f"documents/{game.document}"
    locate_document = locator(raw, where)
    index: dict[str, list[tuple[int, int]]] = {}  # a sentence's text → (paragraph, offset) where the document has it
    for number, (start, paragraph) in enumerate(split_document(raw)):
        for at, sentence in split_text(paragraph, start):
            index.setdefault(sentence, []).append((number, at))
    findings = []
    for text, shown in read_rulebooks(project, game):
        locate = locator(text, shown)
        for start, paragraph in split_rulebook(text):
            found = [(sentence, index[sentence]) for _, sentence in split_text(paragraph, start) if sentence in index]
            if not found or set.intersection(*({p for p, _ in spots} for _, spots in found)):
                continue
            first, spots = found[0]  # and the first sentence that paragraph of the document does not hold
            second, others = next((s, o) for s, o in found if spots[0][0] not in {p for p, _ in o})
            places = [locate_document(spots[0][1]), locate_document(others[0][1])]
            findings.append(Finding(
                WARN, game.id, "rulebook paragraph joins paragraphs of the document", locate(start),
                "one paragraph of the document", f"{len({held[0][0] for _, held in found})} paragraphs",
                f"「{first}」 ({places[0].file}:{places[0].line}:{places[0].col}) and 「{second}」 "
                f"({places[1].line}:{places[1].col}) are paragraphs apart in the document; expected a blank line "
                "between them in the rulebook"))
    return findings


def split_document(raw: str):
    """(offset, text) of each paragraph of a document."""
    start = 0
    for match in _DOCUMENT_BREAK.finditer(raw + "\n"):
        if raw[start:match.start()].strip():
            yield start, raw[start:match.start()]
        start = match.end()


def split_rulebook(text: str):
    """(offset, text) of each paragraph of Markdown: a blank line ends one, a heading, table row, quote or list item
    starts one, and a soft line break or an item's indented continuation stays in it."""
    start, lines, at = 0, [], 0
    for line in text.splitlines(keepends=True):
        if not line.strip() or (BLOCK.match(line) and lines):
            if lines:
                yield start, "".join(lines)
            lines = []
        if line.strip():
            if not lines:
                start = at
            lines.append(line)
        at += len(line)
    if lines:
        yield start, "".join(lines)


def split_text(paragraph: str, start: int):
    """(offset, normalised text) of each sentence of a paragraph long enough to be matched."""
    for match in _SENTENCE.finditer(paragraph):
        sentence = "".join(_MARKS.sub("", match.group(0)).split())
        if len(sentence) >= MIN_SENTENCE:
            yield start + match.start() + len(match.group(0)) - len(match.group(0).lstrip()), sentence
