"""Turn a print-and-play PDF's pages into the order that prints double-sided: each back on its front's sheet.

On a duplex printer pages 2k-1 and 2k share sheet k, so a front without a back (a tuck box, a map tile) goes after
the two-sided ones with a blank behind it (it is cut out: nothing may print there). All one-sided: order kept."""
from __future__ import annotations

from typing import Sequence

from .impose import Page
from .marks import Rect


def order_for_duplex(pages: Sequence[Page]) -> list[Page]:
    if not any(page.side == "back" for page in pages):
        return list(pages)
    sheets: list[Page] = []
    one_sided: list[Page] = []
    index = 0
    while index < len(pages):
        page = pages[index]
        if index + 1 < len(pages) and pages[index + 1].side == "back":
            sheets += [page, pages[index + 1]]
            index += 2
        else:
            one_sided += [page, blank_behind(page)]
            index += 1
    return sheets + one_sided


def blank_behind(page: Page) -> Page:
    """The empty back of a one-sided page: the same paper, nothing printed."""
    whole = Rect(0, 0, page.size.width, page.size.height)
    return Page(page.size, "back", (), (), whole, whole)


def end_sheet(pages: Sequence[Page]) -> list[Page]:
    """The pages with a blank after an odd last one when they print double-sided: what follows them (the
    rulebook) starts on a sheet of its own."""
    if len(pages) % 2 and any(page.side == "back" for page in pages):
        return [*pages, blank_behind(pages[-1])]
    return list(pages)
