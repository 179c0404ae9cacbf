"""Turn a build's paper and rulebook options into the rulebook's page and the sheet it is printed on.

Apart from the typesetter, so that a build plans its rulebooks without loading it.
"""
from __future__ import annotations

# The rulebook page and the booklet page that go with each paper of a build (the same family of sizes).
FULL_PAGE = {"a4": "a4", "a3": "a4", "a5": "a4", "letter": "letter", "tabloid": "letter"}
HALF_PAGE = {"a4": "a5", "letter": "half-letter"}


def rulebook_pages(paper: str, page: str | None, booklet: bool) -> tuple[str, str]:
    """(page, sheet) for a rulebook on a build's paper: its own size, or half of it for a booklet.

    page: an explicit rulebook page (a4, a5, letter, half-letter), or None for the paper's own family."""
    sheet = FULL_PAGE.get(paper, "a4")
    if booklet:
        return HALF_PAGE[sheet], sheet
    return page or sheet, page or sheet
