"""Turn the distinct cards of a build into rendered faces on both cores before laying out: half in a helper process."""
from __future__ import annotations

import functools
import os
import signal

from .faces.convert import Converter
from .faces.render import Renderer
from .parallel import Background, can_fork
from .project.model import Game

PARALLEL_CARDS = 200  # fewer distinct cards than this are not worth a second process


def render_ahead(games: tuple[Game, ...], renderer: Renderer, converter: Converter) -> None:
    """Render and convert every other distinct card in a helper process while this one does the rest;
    laying out then finds every face in the pack. Faces are named by content, so which process made
    one changes nothing in the PDFs. A tuck box's panels are faces of their own, made as it is laid out."""
    cards = [(game, component, card, index) for game in games for component in game.components
             if component.kind != "box" for index, card in renderer.uncached(game, component, distinct_cards(component))]
    # One card of each component first (in their order): its templates are compiled once, before the fork, for both.
    firsts = list({id(entry[1]): entry for entry in reversed(cards)}.values())[::-1]
    render_cards(renderer, firsts)
    if len(cards) < PARALLEL_CARDS or not can_fork():
        return
    rest = [entry for entry in cards if entry not in firsts]
    handoff = renderer.pack.handoff()
    if handoff is None:  # nowhere to hand records back through: this process renders them all
        render_cards(renderer, rest)
        return
    with handoff:
        helper = Background(functools.partial(render_cards, renderer, rest[1::2], renderer.renders, os.getpid(),
                                              handoff))
        try:
            render_cards(renderer, rest[0::2])
        except BaseException:
            helper.stop()
            raise
        count, _, keys = helper.wait().partition(b"\n")
        renderer.renders += int(count)
        converter.conversions += renderer.pack.take(handoff)  # a face both made (a shared back) counts once
        # The faces the helper settled on (those now in the pack) are noted, so that laying out looks none up again.
        renderer.settled.take([(component, index) for _, component, _, index in rest[1::2]], keys,
                              renderer.pack.has_face)


def distinct_cards(component) -> list:
    """(index in component.cards, card) of each card the component prints, once each."""
    found: dict[int, tuple] = {}
    for index, card in enumerate(component.cards):
        if card.copies > 0:
            found.setdefault(id(card), (index, card))
    return list(found.values())


def render_cards(renderer: Renderer, cards: list, start: int | None = None, parent: int = 0,
                 handoff=None) -> bytes | None:
    """Both faces of each card into the pack; in the helper process (given the render count before and the
    file to hand its records back through) how many it rendered and the face keys of its cards (Settled.export)."""
    if os.getpid() != parent and parent:  # in the helper: Ctrl-C is the main process's to handle, it stops us
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        renderer.pack.hand_to(handoff)
    for game, component, card, index in cards:
        for side in ("front", "back"):
            renderer.render(game, component, card, side, index)
    if start is None:
        return None
    renderer.pack.finish()
    keys = renderer.settled.export([(component, index) for _, component, _, index in cards])
    return str(renderer.renders - start).encode("ascii") + b"\n" + keys
