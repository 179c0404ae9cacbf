"""Turn the distinct cards of a build into rendered faces on every core before laying out: shares in helpers."""
from __future__ import annotations

import functools
import os
import signal

from ..faces.convert import Converter
from ..faces.render import Renderer
from ..press.cores import usable_cores
from .prepare import counter
from .workers import Background, can_fork
from ..project.model import Game
from ..store.records import Handoff
from ..templating import run_budget

PARALLEL_CARDS = 200  # fewer distinct cards than this are not worth a second process (half as many a process)


def render_ahead(games: tuple[Game, ...], renderer: Renderer, converter: Converter, progress=None) -> None:
    """Render and convert the distinct cards dealt in turn to this process and a helper process on each other
    core it may use (one for every PARALLEL_CARDS // 2 cards at most); laying out then finds every face in the
    pack. Faces are named by content, so which process made one changes nothing in the PDFs. A tuck box's panels
    are faces of their own, made as it is laid out. progress(phase, done, total, label) hears of the faces
    rendered (this process's share, scaled to all)."""
    # (game, component, the indexes of its cards to render): 4 bytes a card, not a tuple a card
    groups = [group for game in games for component in game.components if component.kind != "box"
              for group in [(game, component, renderer.uncached(game, component, distinct_cards(component)))] if group[2]]
    # One card of each component first (in their order): its templates are compiled once, before the fork, for all.
    render_cards(renderer, [(game, component, indexes[:1]) for game, component, indexes in groups])
    processes = min(usable_cores(), sum(len(indexes) for *_, indexes in groups) // (PARALLEL_CARDS // 2))
    if processes < 2 or not can_fork():
        return  # the rest are rendered as they are laid out
    faces = sum(len(indexes) * count_sides(component) for _, component, indexes in groups)
    mine, *theirs = take_turns([(game, component, indexes[1:]) for game, component, indexes in groups], processes)
    tick = counter("rendering", faces, progress, sum(len(indexes) * count_sides(c) for _, c, indexes in mine), 16)
    del groups  # dealt out as copies: the whole list is not kept while the shares render
    handoffs = [Handoff.make() for _ in theirs]
    if None in handoffs:  # nowhere to hand records back through: this process renders them all
        for handoff in handoffs:
            if handoff is not None:
                handoff.close()
        render_cards(renderer, [group for share in (mine, *theirs) for group in share],
                     tick=counter("rendering", faces, progress, every=16))
        return
    helpers: list[Background] = []
    try:
        for share, handoff in zip(theirs, handoffs):
            helpers.append(Background(functools.partial(render_cards, renderer, share, renderer.renders, os.getpid(),
                                                        handoff)))
        render_cards(renderer, mine, tick=tick)
        for helper, share, handoff in zip(helpers, theirs, handoffs):
            take_share(renderer, converter, helper, share, handoff)
    except BaseException:  # the helpers still going are stopped, and what they handed back is not kept
        for helper in helpers:
            helper.stop()
        for handoff in handoffs:
            handoff.close()
        raise


def take_share(renderer: Renderer, converter: Converter, helper: Background, share: list, handoff) -> None:
    """What a helper rendered: its spending, its count, its records (a face two made, a shared back, counts once).
    The helper's records are the pack's then (take() removed their file); the faces the helper settled on (those
    the pack now holds, drawable here too) are noted, so that laying out looks none up again."""
    count, spent, keys = helper.wait().split(b"\n", 2)
    run_budget.take(spent)  # the helper's renders count against the build's budget too
    renderer.renders += int(count)
    converter.conversions += renderer.pack.take(handoff)
    renderer.face_keys.take(each_card(share), keys, renderer.is_usable)


def take_turns(groups: list[tuple], count: int = 2) -> list[list[tuple]]:
    """The cards of (game, component, indexes) groups dealt in turn to count processes, in order: this one first."""
    shares: list[list[tuple]] = [[] for _ in range(count)]
    dealt = 0
    for game, component, indexes in groups:
        for turn, share in enumerate(shares):
            share.append((game, component, indexes[(turn - dealt) % count::count]))
        dealt += len(indexes)
    return shares


def each_card(groups: list[tuple]):
    """(component, index) of each card of (game, component, indexes) groups."""
    return ((component, index) for _, component, indexes in groups for index in indexes)


def distinct_cards(component):
    """(index in component.cards, card) of each card the component prints, as they come."""
    return ((index, card) for index, card in enumerate(component.cards) if card.copies > 0)


def count_sides(component) -> int:
    return bool(component.front) + bool(component.back)


def render_cards(renderer: Renderer, cards: list, start: int | None = None, parent: int = 0,
                 handoff=None, tick=None) -> bytes | None:
    """Both faces of each card of (game, component, indexes) groups into the pack, telling tick(component id)
    of each; in the helper process (given the render count before and the file to hand its records back
    through) how many it rendered and the face keys of its cards (CardFaceKeys.export), after what it spent
    of the run's budget (RunBudget.hand_over)."""
    run = run_budget.current()
    helper = os.getpid() != parent and parent
    if helper:  # in the helper: Ctrl-C is the main process's to handle, it stops us
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        renderer.pack.hand_to(handoff)
        if run is not None:
            run.start_share()
    for game, component, indexes in cards:
        for index in indexes:
            card = component.cards[index]
            for side in ("front", "back"):
                if renderer.render(game, component, card, side, index) is not None and tick is not None:
                    tick(component.id)
    if start is None:
        return None
    renderer.pack.finish()
    keys = renderer.face_keys.export(each_card(cards))
    spent = run.hand_over() if helper and run is not None else b""
    return str(renderer.renders - start).encode("ascii") + b"\n" + spent + b"\n" + keys
