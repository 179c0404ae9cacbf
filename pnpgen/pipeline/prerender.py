"""Turn the distinct cards of a build into rendered faces on both cores before laying out: half in a helper process."""
from __future__ import annotations

import functools
import os
import signal

from ..faces.convert import Converter
from ..faces.render import Renderer
from .prepare import counter
from .workers import Background, can_fork
from ..project.model import Game
from ..templating import run_budget

PARALLEL_CARDS = 200  # fewer distinct cards than this are not worth a second process


def render_ahead(games: tuple[Game, ...], renderer: Renderer, converter: Converter, progress=None) -> None:
    """Render and convert every other distinct card in a helper process while this one does the rest;
    laying out then finds every face in the pack. Faces are named by content, so which process made
    one changes nothing in the PDFs. A tuck box's panels are faces of their own, made as it is laid out.
    progress(phase, done, total, label) hears of the faces rendered (this process's share, scaled to all)."""
    # (game, component, the indexes of its cards to render): 4 bytes a card, not a tuple a card
    groups = [group for game in games for component in game.components if component.kind != "box"
              for group in [(game, component, renderer.uncached(game, component, distinct_cards(component)))] if group[2]]
    # One card of each component first (in their order): its templates are compiled once, before the fork, for both.
    render_cards(renderer, [(game, component, indexes[:1]) for game, component, indexes in groups])
    if sum(len(indexes) for *_, indexes in groups) < PARALLEL_CARDS or not can_fork():
        return  # the rest are rendered as they are laid out
    faces = sum(len(indexes) * count_sides(component) for _, component, indexes in groups)
    mine, theirs = take_turns([(game, component, indexes[1:]) for game, component, indexes in groups])
    tick = counter("rendering", faces, progress, sum(len(indexes) * count_sides(c) for _, c, indexes in mine), 16)
    del groups  # dealt out as copies: the whole list is not kept while both halves render
    handoff = renderer.pack.handoff()
    if handoff is None:  # nowhere to hand records back through: this process renders them all
        render_cards(renderer, mine + theirs, tick=counter("rendering", faces, progress, every=16))
        return
    try:
        helper = Background(functools.partial(render_cards, renderer, theirs, renderer.renders, os.getpid(), handoff))
        try:
            render_cards(renderer, mine, tick=tick)
            count, spent, keys = helper.wait().split(b"\n", 2)
        except BaseException:  # the helper ignores Ctrl-C (it is ours to handle): it is stopped, however we stop
            helper.stop()
            raise
        run_budget.take(spent)  # the helper's renders count against the build's budget too
        renderer.renders += int(count)
        converter.conversions += renderer.pack.take(handoff)  # a face both made (a shared back) counts once
    except BaseException:
        handoff.close()
        raise
    # The helper's records are the pack's now (take() removed their file). The faces the helper settled on (those
    # the pack now holds, drawable here too) are noted, so that laying out looks none up again.
    renderer.face_keys.take(each_card(theirs), keys, renderer.is_usable)


def take_turns(groups: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    """The cards of (game, component, indexes) groups dealt in turn to this process and the helper, in order."""
    mine, theirs, dealt = [], [], 0
    for game, component, indexes in groups:
        mine.append((game, component, indexes[dealt % 2::2]))
        theirs.append((game, component, indexes[1 - dealt % 2::2]))
        dealt += len(indexes)
    return mine, theirs


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
