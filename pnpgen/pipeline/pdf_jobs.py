"""Turn a build's stale component outputs into the jobs that write their PDFs: a PDF that two outputs hold under two
titles is made once (a game's print-and-play PDF of a single component is that component's PDF), and the jobs are
shared with a second process when there are pieces enough to pay for it."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from ..files.atomic import write_atomically
from ..templating.run_budget import CountedWrites

# Fewer pieces than this are written with less CPU, and about as soon, by this process alone: a second one copies
# the build's memory as either of them touches it.
PARALLEL_PIECES = 5000


def group_retitled(outputs: Sequence) -> list[list]:
    """The outputs (build.Output) in the groups written at once: an output whose PDF is another's under its own
    title (its same_as) with that one when both are written, each other output alone."""
    written = {id(output) for output in outputs}
    joining = {id(o.same_as): o for o in outputs if o.same_as is not None and id(o.same_as) in written}
    joined = {id(output) for output in joining.values()}
    return [[output, *([joining[id(output)]] if id(output) in joining else [])]
            for output in outputs if id(output) not in joined]


def share_writing(groups: Sequence[list]) -> tuple[list[list], list[list]]:
    """The groups this process writes and those a second one writes meanwhile, about equal in pieces placed;
    all here when there are too few pieces to pay for a second process (or no second group)."""
    sizes = {id(group): sum(len(page.placements) for page in group[0].pages) for group in groups}
    if len(groups) < 2 or sum(sizes.values()) < PARALLEL_PIECES:
        return list(groups), []
    shares: tuple[list[list], list[list]] = ([], [])
    loads = [0, 0]
    for group in sorted(groups, key=lambda g: -sizes[id(g)]):  # the largest first, each to the lighter side
        side = loads.index(min(loads))
        shares[side].append(group)
        loads[side] += sizes[id(group)]
    return shares


def write_group(group: list, stagings: Sequence[Path], write_document: Callable) -> None:
    """Write the group's PDF to each output's staging path (whole, or none of them), under each output's title,
    every byte charged to its output; write_document(out, pages=, title=, bleed=, retitled=) writes it."""
    def write_into(outs: list) -> None:
        if len(outs) < len(group):
            output = group[len(outs)]
            write_atomically(stagings[len(outs)], lambda out: write_into([*outs, CountedWrites(out, output.source)]),
                             "PDF")
            return
        first = group[0]
        write_document(outs[0], pages=first.pages, title=first.title, bleed=first.bleed,
                       retitled=[(out, output.title) for out, output in zip(outs[1:], group[1:])])
    write_into([])
