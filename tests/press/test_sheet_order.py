"""A print-and-play PDF's page order: what follows the pages (the rulebook) starts on a sheet of its own."""
from __future__ import annotations

from pnpgen.press.impose import Page, Rect
from pnpgen.press.sheet_order import end_sheet, order_for_duplex
from pnpgen.project.model import Size

A4 = Size(595.28, 841.89)
WHOLE = Rect(0, 0, A4.width, A4.height)


def page(side: str) -> Page:
    return Page(A4, side, (), (), WHOLE, WHOLE)


def test_pages_that_print_double_sided_end_on_a_whole_sheet():
    pages = [page("front"), page("back"), page("front")]
    ended = end_sheet(pages)
    assert ended[:3] == pages and len(ended) == 4
    assert ended[3].side == "back" and ended[3].placements == () and ended[3].size == A4
    assert end_sheet(ended) == ended


def test_one_sided_pages_get_no_blank_page():
    pages = [page("front")] * 3
    assert end_sheet(pages) == pages


def test_pages_in_duplex_order_already_end_on_a_whole_sheet():
    ordered = order_for_duplex([page("front"), page("back"), page("front"), page("front"), page("back")])
    assert len(ordered) == 6 and end_sheet(ordered) == ordered
