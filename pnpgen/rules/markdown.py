"""Turn rulebook Markdown into blocks (headings, paragraphs, lists, tables, figures) holding reportlab markup.

CommonMark plus GitHub tables (markdown-it-py); raw HTML is shown as text. A soft line break between Japanese
characters joins the lines without a space. Images stand alone in their paragraph (several make one row).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from ..errors import PnpError
from .context import ASSUMED_MARK, KNOWN_MARK
from .words import word

# reportlab's markup parser collapses every whitespace character, U+3000 included, into one ASCII space;
# a full-width space travels through it as this private-use stand-in and is drawn as itself (paragraph.py).
STAND_IN = "\U000fff30"


# Limits far above a real rulebook (the bundled ones: 11,000 characters, 24 headings, paragraphs of 320),
# low enough that typesetting the largest allowed one takes seconds: line breaking is quadratic in a
# paragraph that runs over pages.
MAX_SOURCE = 500_000  # characters of Markdown once the {{ }} expressions are filled in
MAX_LINES = 10_000
MAX_HEADINGS = 500
MAX_HEADING = 300  # characters in one heading (it is also a line of the table of contents)
MAX_COLUMNS = 30
MAX_ROWS = 2_000
MAX_BLOCK = 5_000  # characters in one paragraph, cell or code block
# Digits of one width throughout a rulebook: full-width ones (「４枚」) are set as the half-width ones beside
# them (「36枚」), as an editor would; code keeps what it says.
HALF_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
MAX_WORD = 1_000  # characters in a run that has no place to break a line (a Latin word, a number)
UNBREAKABLE = re.compile(r"[0-9A-Za-z\uff10-\uff19\uff21-\uff3a\uff41-\uff5a.,%\uff0e\uff05_/:-]{" + str(MAX_WORD + 1) + ",}")


@dataclass(frozen=True)
class Heading:
    level: int
    markup: str
    text: str


@dataclass(frozen=True)
class Para:
    markup: str


@dataclass(frozen=True)
class Image:
    src: str
    caption: str
    title: str


@dataclass(frozen=True)
class Figure:
    images: tuple[Image, ...]


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    start: int
    items: tuple[tuple, ...]  # each item: a tuple of blocks


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[str, ...]  # left | center | right per column


@dataclass(frozen=True)
class Quote:
    blocks: tuple


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Rule:
    """A thematic break (---)."""


@dataclass(frozen=True)
class Theme:
    """The colours inline markup uses."""

    accent: str = "#9b2c2c"
    code_back: str = "#eeeae2"
    link: str = "#1f4e8c"


def mark_markup(language: str | None) -> tuple[str, str]:
    """The marks set small and raised, in the edition's language: after a number the data only assumes
    (ASSUMED_MARK), and where the data records a contradiction of the document (KNOWN_MARK)."""
    return (f"<super>{word('assumed mark', language)}</super>", f"<super>{word('known mark', language)}</super>")


@dataclass
class Parser:
    theme: Theme = field(default_factory=Theme)
    language: str | None = None  # the edition's: the words its marks are set in

    def parse(self, text: str) -> list:
        if len(text) > MAX_SOURCE:
            raise PnpError(f"line 1: the rulebook is {len(text):,} characters long once its expressions are filled in; "
                           f"expected at most {MAX_SOURCE:,}")
        lines = text.count("\n") + 1
        if lines > MAX_LINES:
            raise PnpError(f"line {MAX_LINES + 1}: the rulebook has {lines:,} lines once its expressions are filled in; "
                           f"expected at most {MAX_LINES:,}")
        md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
        root = SyntaxTreeNode(md.parse(text))
        headings = [node for node in root.children if node.type == "heading"]
        if len(headings) > MAX_HEADINGS:
            line = headings[MAX_HEADINGS].map[0] + 1 if headings[MAX_HEADINGS].map else 0
            raise PnpError(f"line {line}: more than {MAX_HEADINGS} headings; expected a rulebook of ordinary length")
        return [b for node in root.children for b in self.block(node)]

    def block(self, node: SyntaxTreeNode) -> list:
        line = (node.map[0] + 1) if node.map else 0
        kind = node.type
        refuse_oversize(node, line)
        if kind == "heading":
            inline = node.children[0]
            return [Heading(int(node.tag[1]), self.inline(inline), flatten(inline, self.language).strip())]
        if kind == "paragraph":
            inline = node.children[0]
            images = [c for c in inline.children if c.type == "image"]
            if not images:
                return [Para(self.inline(inline))]
            others = [c for c in inline.children if c.type not in ("image", "softbreak") and not
                      (c.type == "text" and not c.content.strip())]
            if others:
                raise PnpError(f"line {line}: an image shares its paragraph with text; expected each image "
                               "(or a row of images) in a paragraph of its own")
            return [Figure(tuple(Image(i.attrs.get("src", ""), flatten(i, self.language).strip(),
                                       str(i.attrs.get("title") or ""))
                                 for i in images))]
        if kind in ("bullet_list", "ordered_list"):
            items = tuple(tuple(b for child in item.children for b in self.block(child)) for item in node.children)
            start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 1
            return [ListBlock(kind == "ordered_list", start, items)]
        if kind == "table":
            return [self.table(node, line)]
        if kind == "blockquote":
            return [Quote(tuple(b for child in node.children for b in self.block(child)))]
        if kind in ("fence", "code_block"):
            return [Code(node.content.rstrip("\n"))]
        if kind == "hr":
            return [Rule()]
        if kind == "html_block":
            return [Para(escape(node.content.strip()))]
        raise PnpError(f"line {line}: Markdown {kind} is not supported in rulebooks")

    def table(self, node: SyntaxTreeNode, line: int) -> Table:
        rows = [tr for part in node.children for tr in part.children]
        columns = max(len(tr.children) for tr in rows)
        if columns > MAX_COLUMNS:
            raise PnpError(f"line {line}: a table of {columns} columns; expected at most {MAX_COLUMNS} "
                           "(no more fit across a page)")
        if len(rows) > MAX_ROWS:
            raise PnpError(f"line {line}: a table of {len(rows):,} rows; expected at most {MAX_ROWS:,}")
        for cell in (cell for tr in rows for cell in tr.children):
            refuse_oversize(cell, line)
        cells = [[self.inline(cell.children[0]) if cell.children else "" for cell in tr.children] for tr in rows]
        styles = [str(cell.attrs.get("style", "")) for cell in rows[0].children]
        align = tuple(style.split(":", 1)[1].strip() if "text-align" in style else "left" for style in styles)
        return Table(tuple(cells[0]), tuple(tuple(r) for r in cells[1:]), align)

    def inline(self, node: SyntaxTreeNode) -> str:
        parts = []
        children = node.children
        marked, noted = mark_markup(self.language)
        for index, child in enumerate(children):
            kind = child.type
            if kind == "text":
                parts.append(escape(child.content.translate(HALF_WIDTH_DIGITS)).replace(ASSUMED_MARK, marked)
                             .replace(KNOWN_MARK, noted))
            elif kind == "softbreak":
                before = flatten(children[index - 1], self.language)[-1:] if index else ""
                after = flatten(children[index + 1], self.language)[:1] if index + 1 < len(children) else ""
                parts.append(" " if before.isascii() and after.isascii() and before and after else "")
            elif kind == "hardbreak":
                parts.append("<br/>")
            elif kind == "strong":
                parts.append(f"<b>{self.inline(child)}</b>")
            elif kind == "em":
                parts.append(f'<font color="{self.theme.accent}">{self.inline(child)}</font>')
            elif kind == "code_inline":
                parts.append(f'<span backColor="{self.theme.code_back}">{escape(child.content)}</span>')
            elif kind == "link":
                href = escape(str(child.attrs.get("href", "")), {'"': "&quot;"})
                parts.append(f'<a href="{href}" color="{self.theme.link}">{self.inline(child)}</a>')
            elif kind == "image":
                raise PnpError("an image inside a link, heading or table cell cannot be shown; "
                               "expected it in a paragraph of its own")
            else:
                parts.append(self.inline(child) if child.children else escape(child.content))
        return "".join(parts)


def flatten(node: SyntaxTreeNode, language: str | None = None) -> str:
    """The text of an inline node without markup, its digits as they are set and its marks as plain text reads them
    in the edition's language."""
    if node.type in ("text", "code_inline"):
        text = node.content.translate(HALF_WIDTH_DIGITS) if node.type == "text" else node.content
        return text.replace(ASSUMED_MARK, word("assumed mark plain", language)).replace(
            KNOWN_MARK, word("known mark plain", language))
    if node.type in ("softbreak", "hardbreak"):
        return "\n"
    return "".join(flatten(child, language) for child in node.children)


def parse_markdown(text: str, theme: Theme | None = None, language: str | None = None) -> list:
    """Blocks of a Markdown document, in order, its marks in the edition's language. A full-width space that opens
    a line (字下げ, an indent) is kept: Markdown would strip it as whitespace, so it travels as the paragraphs'
    stand-in for U+3000."""
    text = re.sub("(?m)^\u3000+", lambda m: STAND_IN * len(m.group()), text)
    return Parser(theme or Theme(), language).parse(text)


def refuse_oversize(node: SyntaxTreeNode, line: int) -> None:
    """A paragraph or word so long that breaking it into lines would take minutes is refused (a real one is short)."""
    if node.type in ("paragraph", "heading", "fence", "code_block", "html_block", "th", "td"):
        text = node.content if node.type in ("fence", "code_block", "html_block") else flatten(node.children[0]) \
            if node.children else ""
        limit = MAX_HEADING if node.type == "heading" else MAX_BLOCK
        if len(text) > limit:
            what, fix = ("a heading", "shorten it") if node.type == "heading" else ("a paragraph", "split it")
            raise PnpError(f"line {line}: {what} of {len(text):,} characters; expected at most {limit:,} ({fix})")
        word = UNBREAKABLE.search(text)
        if word:
            raise PnpError(f"line {line}: a word of {len(word.group()):,} characters with no place to break it; "
                           f"expected words of at most {MAX_WORD:,} characters")
