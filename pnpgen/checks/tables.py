"""Turn prose with hand-written Markdown tables into findings, tables cell by cell: a row or column header names a component, a
player count, a field value or a figure, and each number in a cell is held to what the data gives there."""
from __future__ import annotations

import itertools
import re

from ..project.model import Game
from .numerals import parse_number
from .phrasing import JAPANESE, Phrasing
from .prose import Span, check_sentences, check_span
from .vocabulary import Context

_RULE = re.compile(r"^\s*:?-+:?\s*$")
_VALUE = re.compile(r"^[0-9０-９]+$")


def find_noun_header(header: list[str], nouns) -> str:
    """The first header cell that names a noun: what a table of counts per person or in total is about."""
    return next((cell for cell in header if any(word in cell for noun in nouns for word in noun.words)), "")


def check_prose(game: Game, text: str, locate, nouns, strict: bool, origin: str, subject: str = "",
                words: Phrasing = JAPANESE, memo=None) -> list:
    """Findings for each number in `text` (blanked Markdown or a card's text), read in the phrasing of its language:
    its tables cell by cell, then its sentences (memo: see check_sentences)."""
    tables = table_lines(text)
    return check_tables(game, text, tables, locate, nouns, strict, origin, words) + check_sentences(
        game, text, tables, locate, nouns, strict, origin, subject, words, memo)


def table_lines(text: str) -> set[int]:
    return {i for i, line in enumerate(text.split("\n")) if line.lstrip().startswith("|")}


def split_cells(line: str, offset: int) -> list[tuple[str, int]]:
    """The cells of a table row with their offsets (escaped bars stay inside a cell)."""
    out, start = [], line.index("|") + 1
    for match in re.compile(r"(?<!\\)\|").finditer(line, start):
        out.append((line[start:match.start()], offset + start))
        start = match.end()
    return out


def read_header_players(text: str, column: bool = False, words: Phrasing = JAPANESE) -> int | None:
    """The player count a header names (３人プレイ, 3 players); a column's 「１人」 is per person, not one."""
    match = (words.table_players_column if column else words.table_players).match(text.strip())
    return int(parse_number(match.group(1))) if match else None


def read_header_value(text: str) -> str | None:
    text = text.strip()
    return str(parse_number(text)) if _VALUE.match(text) else None


def check_tables(game: Game, text: str, tables: set[int], locate, nouns, strict: bool, origin: str,
                 words: Phrasing = JAPANESE) -> list:
    if not tables:
        return []
    lines = text.split("\n")
    offsets = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    findings = []
    for in_table, group in itertools.groupby(range(len(lines)), key=tables.__contains__):
        block = list(group)
        if in_table:
            heading = find_section_above(lines, block[0])
            rows = [(lines[i], offsets[i]) for i in block]
            findings.extend(check_table(game, rows, heading, locate, nouns, strict, origin, words))
    return findings


def find_section_above(lines: list[str], first: int) -> str:
    """The text between the table and the heading above it (the heading included): what the table is about."""
    above = []
    for index in range(first - 1, max(first - 12, -1), -1):
        above.insert(0, lines[index])
        if lines[index].lstrip().startswith("#"):
            break
    return "\n".join(above)


def check_table(game: Game, rows: list[tuple[str, int]], heading: str, locate, nouns, strict: bool, origin: str,
                words: Phrasing = JAPANESE) -> list:
    parsed = [split_cells(line, offset) for line, offset in rows]
    if len(parsed) < 3 or not all(_RULE.match(c) for c, _ in parsed[1]):
        return []
    header = [c for c, _ in parsed[0]]
    findings = []
    for row in parsed[2:]:
        row_header = row[0][0] if row else ""
        row_players = read_header_players(row_header, words=words)
        for column, (cell, start) in enumerate(row[1:], 1):
            column_header = header[column] if column < len(header) else ""
            column_value = read_header_value(column_header)
            players = read_header_players(column_header, True, words) or row_players
            inputs = {"players": players} if players is not None else {}
            if column_value is not None and row_players is not None:
                inputs["*"] = int(column_value)
            if words.value_words.search(column_header):
                continue  # a column of card values (downを倒せる数字), not of counts
            quoted = frozenset({column_value or column_header.strip(),
                                read_header_value(row_header) or row_header.strip()})
            context = Context(players, bool(words.per.search(row_header + column_header)), quoted, inputs)
            span = Span(cell, start, row_header)
            fallback = (column_header,)
            if words.qualifier.search(column_header) or not column_header.strip() or column_value is not None:
                # １人, 全員, 枚数 or a value (1, 2, …): the cell counts what the table is about
                fallback += (header[0] if header else "", find_noun_header(header, nouns), heading)
            findings.extend(check_span(game, span, locate, nouns, strict, origin, context, fallback, words))
    return findings
