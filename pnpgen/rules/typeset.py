"""Turn a game's rulebook Markdown into print-ready PDFs: the rulebook (A4, A5 or an A5 booklet) and a rules sheet.

The Markdown is rendered as a sandboxed Jinja template over the game's data (expand.py, context.py), so
that counts and tables come from cards.yaml; then parsed (markdown.py), set (flowables.py) and paged (pages.py).
"""
from __future__ import annotations

import re
from dataclasses import replace
from xml.sax.saxutils import escape
from pathlib import Path

from ..files.atomic import write_atomically
from ..faces.convert import Converter
from ..errors import Location, PnpError
from ..faces.fonts import FontBook
from ..project.model import Game, Project
from ..faces.render import Renderer
from ..templating.run_budget import RunOutOfBudget
from .expand import accent_of, expand_markdown, read_source, show_path  # noqa: F401  (tests reach expand_markdown)
from .figures import resolve_image
from .flowables import Look, Typesetter
from .context import Assumption
from .markdown import HALF_WIDTH_DIGITS, Heading, Image, ListBlock, Para, Theme, mark_markup, parse_markdown
from .pages import make_contents, make_page_spec, typeset
from .paragraph import KinsokuParagraph
from .punctuation import half_font
from .sizes import HALF_PAGE
from .words import word

SHEET_SIZES = (10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)  # pt: the rules sheet shrinks until it fits one page


def build_rulebook(project: Project, game: Game, source: Path, out_path: Path, *, fontbook: FontBook,
                   renderer: Renderer, converter: Converter, page: str = "a4", booklet: bool = False,
                   flip: str = "short", sheet: str = "a4", final: bool = False) -> Path:
    """Typeset the rulebook: title, contents, numbered pages, outline. booklet: `page` pages (a5,
    half-letter) imposed two-up on `sheet` (a4, letter) landscape sheets in saddle-stitch order, to print
    duplex flipping on the `flip` edge, which a note on the cover and the PDF's print preset say."""
    spec = make_page_spec(HALF_PAGE[sheet] if booklet else page)
    blocks, look, setter = prepare(project, game, source, fontbook, renderer, converter, spec.size, spec.frame_width,
                                   final, terms=True)
    # The contents' own heading is set like a section heading, but neither listed nor bookmarked.
    language = project.language
    contents = [KinsokuParagraph(word("contents", language), setter.styles["h2"]), make_contents(look)]
    listed = any(isinstance(b, Heading) and b.level in (2, 3) for b in blocks)
    story = tell_story(setter, blocks, contents if listed else [])
    title = find_title(blocks, game, language)
    data, _ = typeset(story, spec, look, title=title, subject=word("rulebook", language, title=game.title),
                      head=game.title, booklet=flip if booklet else None, sheet=sheet,
                      note=word(f"booklet {flip}", language) if booklet else "")
    write_atomically(Path(out_path), data, "PDF")
    return Path(out_path)


def build_rules_sheet(project: Project, game: Game, source: Path, out_path: Path, *, fontbook: FontBook,
                      renderer: Renderer, converter: Converter, page: str = "a4", final: bool = False) -> Path:
    """Typeset a one-page rules sheet (player aid): no contents, no page number; the type shrinks until
    the sheet fits one page, and a PnpError says so when even the smallest size does not."""
    for size in SHEET_SIZES:
        spec = make_page_spec(page, size)
        spec = replace(spec, top=spec.top * 0.7, bottom=spec.bottom * 0.6, side=spec.side * 0.75)
        blocks, look, setter = prepare(project, game, source, fontbook, renderer, converter, size, spec.frame_width,
                                       final, title_scale=1.8, leading=1.6)
        story = tell_story(setter, blocks, [])
        data, pages = typeset(story, spec, look, title=find_title(blocks, game, project.language),
                              subject=word("rules sheet", project.language, title=game.title), head="", numbered=False,
                              page_limit=None if size == SHEET_SIZES[-1] else 1)
        if pages == 1:
            write_atomically(Path(out_path), data, "PDF")
            return Path(out_path)
    raise PnpError(f"the rules sheet needs {pages} pages even at {SHEET_SIZES[-1]} pt; expected it to fit one page "
                   "(shorten the text)", Location(show_path(project, source)))


def prepare(project: Project, game: Game, source: Path, fontbook: FontBook, renderer: Renderer,
            converter: Converter, size: float, width: float, final: bool = False, terms: bool = False, **look_options):
    """Blocks, look and typesetter for one source at one body size. Unless final, every number the data only
    assumes is marked 「仮」 (in the edition's words) where it is printed, and a last section lists each with its
    reason; with `terms`, a section after it lists the terms no document defines, with the reading the data assumes."""
    source = Path(source)
    text = read_source(project, source)
    marks: list[Assumption] | None = None if final else []
    expanded = expand_markdown(project, game, source, text, marks)
    accent = accent_of(game)
    try:
        blocks = parse_markdown(expanded, Theme(accent=accent), project.language)
        blocks += list_assumptions(marks or [], project.language)
        if terms and marks is not None:
            blocks += list_undefined_terms(game, expanded, project.language)
    except PnpError as err:
        raise locate(project, source, text, err, None) from None
    look = Look(fontbook.resolve(None), fontbook.resolve(None, "bold"), size, accent,
                half_regular=half_font(fontbook, "normal"), half_bold=half_font(fontbook, "bold"),
                language=project.language, **look_options)

    def resolve(image: Image):
        try:
            return resolve_image(image.src, image.title, image.caption, game, renderer, converter)
        except RunOutOfBudget:
            raise
        except PnpError as err:
            raise locate(project, source, text, err, image.src) from None

    return blocks, look, Typesetter(look, width, resolve)


def list_assumptions(marks: list[Assumption], language: str | None = None) -> list:
    """The sections that say what each 「仮」 and 「注」 (in the edition's words) stands for: the number chosen or the
    contradiction, why, and the document it comes from."""
    sections = []
    assumed, noted = mark_markup(language)
    for kind, mark, section in ((True, assumed, "assumptions"), (False, noted, "contradictions")):
        chosen = [m for m in marks if (m.value is not None) == kind]
        if not chosen:
            continue
        items = tuple((Para(word("listed", language, mark=mark, what=escape(m.what.translate(HALF_WIDTH_DIGITS)))
                            + (escape(word("assumed value", language, value=m.value)) if kind else "")
                            + f" — {escape(m.why.translate(HALF_WIDTH_DIGITS))}"
                            + (escape(word("source", language, source=m.source)) if m.source else "")),)
                      for m in chosen)
        heading = word(section, language)
        sections += [Heading(2, heading, heading), Para(word(f"{section} lead", language, mark=mark)),
                     ListBlock(False, 1, items)]
    return sections


def list_undefined_terms(game: Game, text: str, language: str | None = None) -> list:
    """The section that lists each term the text uses that the data declares undefined: the term, how it is read,
    and the document it is missing from."""
    items = tuple((Para(escape(word("term", language, term=t.term))
                        + f" — {escape(t.undefined.translate(HALF_WIDTH_DIGITS))}"
                        + (escape(word("source", language, source=game.document)) if game.document else "")),)
                  for t in game.terms if t.undefined and t.term in text)
    if not items:
        return []
    heading = word("undefined terms", language)
    return [Heading(2, heading, heading), Para(word("undefined terms lead", language)), ListBlock(False, 1, items)]


def tell_story(setter: Typesetter, blocks: list, contents: list) -> list:
    """The blocks' flowables: those before the first `##` heading set as the lead, then the contents, then the rest."""
    first = next((i for i, b in enumerate(blocks) if isinstance(b, Heading) and b.level == 2), len(blocks))
    return setter.flowables(blocks[:first], "lead") + contents + setter.flowables(blocks[first:])


def find_title(blocks: list, game: Game, language: str | None = None) -> str:
    heading = next((b for b in blocks if isinstance(b, Heading) and b.level == 1), None)
    return heading.text if heading else word("untitled rulebook", language, title=game.title)


def locate(project: Project, source: Path, text: str, err: PnpError, needle: str | None) -> PnpError:
    """Attach the rulebook's file:line to an error: the line holding `needle`, or the line the message names."""
    message = err.problems[0].message
    line = 0
    if needle:
        line = next((n for n, content in enumerate(text.splitlines(), 1) if needle in content), 0)
    match = re.match(r"line (\d+): (.*)", message)
    if match:
        line, message = line or int(match.group(1)), match.group(2)
    return PnpError(message, Location(show_path(project, source), line, 1 if line else 0))
