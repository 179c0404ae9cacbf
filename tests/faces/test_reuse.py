"""TrackedFields notes every field a template reads; reading the card as a whole counts as reading all."""
import pytest

from pnpgen.faces.reuse import ALL, Bounded, FaceMemo, TrackedFields, read_fields
from pnpgen.project.model import Fields

CARD = Fields({"name": "剣", "number": 1, "effect": ""})


@pytest.mark.parametrize("read, seen", [
    (lambda f: f.name, {"name"}),
    (lambda f: f["number"], {"number"}),
    (lambda f: f.get("colour", "#000"), {"colour"}),
    (lambda f: "effect" in f, {"effect"}),
    (lambda f: list(f), "all"),
    (lambda f: f.items(), set()),  # a view reads nothing until it is iterated
    (lambda f: list(f.values()), "all"),
    (lambda f: len(f), "all"),
    (lambda f: repr(f), "all"),
    (lambda f: f == CARD, "all"),
])
def test_what_a_template_reads_is_noted(read, seen):
    tracked = TrackedFields(CARD)
    read(tracked)
    assert read_fields(tracked) is ALL if seen == "all" else read_fields(tracked) == seen


def test_fields_named_as_what_tracking_keeps_read_as_fields():
    from pnpgen.templating.sandbox import make_environment

    tracked = TrackedFields(Fields({"note": "注", "seen": "見た", "name": "剣"}))
    assert make_environment().from_string("{{ card.note }}|{{ card.seen }}").render(card=tracked) == "注|見た"
    assert read_fields(tracked) == {"note", "seen"}


def test_a_memo_hit_needs_the_same_values_of_every_field_read():
    memo = FaceMemo()
    tracked = TrackedFields(CARD)
    _ = tracked.name, tracked.get("colour")
    memo.remember(("g", "c", "back"), tracked, "face-1", "")
    assert memo.find(("g", "c", "back"), CARD.merged({"number": 7})) == ("face-1", "")
    assert memo.find(("g", "c", "back"), CARD.merged({"name": "盾"})) is None
    assert memo.find(("g", "c", "back"), CARD.merged({"colour": "#800"})) is None
    assert memo.find(("g", "c", "front"), CARD) is None


def test_panels_sharing_a_component_id_do_not_share_faces(tmp_path):
    """A tuck box renders its panels as variants of one component (same id, own size and template):
    neither the memo nor the render key may hand one panel another's face."""
    import dataclasses
    import shutil
    from pathlib import Path

    from pnpgen.store.cache import Cache
    from pnpgen.faces.render import Renderer
    from pnpgen.pipeline.prepare import open_fontbook
    from pnpgen.project.model import Size
    from pnpgen.project.validate import load_project

    root = tmp_path / "p"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "minimal", root)
    (root / "templates" / "plain-a.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#f00"/>')
    (root / "templates" / "plain-b.svg.j2").write_text('<rect width="{{ W }}" height="{{ H }}" fill="#00f"/>')
    project = load_project(root)
    game = project.games[0]
    deck = game.components[0]
    card = deck.cards[0]
    renderer = Renderer(project, open_fontbook(project), Cache(None))
    a = dataclasses.replace(deck, front="plain-a.svg.j2", back=None)
    b = dataclasses.replace(deck, front="plain-b.svg.j2", back=None)
    wide = dataclasses.replace(a, size=Size(a.size.width * 2, a.size.height))
    faces = [renderer.render(game, variant, card, "front") for variant in (a, b, wide)]
    assert len({face.key for face in faces}) == 3
    keys = {renderer.render_key(game, variant, card, "front", variant.front) for variant in (a, b, wide)}
    assert len(keys) == 3


def test_a_bounded_memo_forgets_everything_at_its_limit():
    memo = Bounded(3)
    for n in range(3):
        memo.keep(n, str(n))
    assert memo.keep(3, "3") == "3" and dict(memo) == {3: "3"}


def test_the_face_memo_forgets_at_its_limit_and_finds_again_what_recurs():
    memo = FaceMemo(limit=2)
    for n in range(3):
        tracked = TrackedFields(CARD.merged({"number": n}))
        _ = tracked.number
        memo.remember(("g", "c", "front"), tracked, f"face-{n}", "")
    assert memo.find(("g", "c", "front"), CARD.merged({"number": 0})) is None
    assert memo.find(("g", "c", "front"), CARD.merged({"number": 2})) == ("face-2", "")


def test_a_renderer_holds_no_more_than_its_memos_allow_however_many_cards(tmp_path, monkeypatch):
    """A build renders every card twice (ahead, then laying out): the memos may forget, the faces stay the same."""
    import dataclasses
    import shutil
    from pathlib import Path

    from pnpgen.store.cache import Cache
    from pnpgen.faces import render
    from pnpgen.faces.convert import Converter
    from pnpgen.faces.render import Renderer
    from pnpgen.pipeline.prepare import open_fontbook
    from pnpgen.project.validate import load_project

    monkeypatch.setattr(render, "MEMO", 8)
    root = tmp_path / "p"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "minimal", root)
    project = load_project(root)
    game, deck = project.games[0], project.games[0].components[0]
    cards = [dataclasses.replace(deck.cards[0], fields=deck.cards[0].fields.merged({"name": f"札{n}"})) for n in range(30)]
    fontbook = open_fontbook(project)
    converter = Converter(fontbook, root, Cache(None))
    renderer = Renderer(project, fontbook, Cache(None), store=converter.paint)
    first = [renderer.render(game, deck, card, side).key for card in cards for side in ("front", "back")]
    again = [renderer.render(game, deck, card, side) for card in cards for side in ("front", "back")]
    assert [face.key for face in again] == first and all(face.svg == "" for face in again)
    assert renderer.renders == 31  # 30 fronts; the back reads no field that differs
    assert max(len(renderer.cache), len(renderer.render_keys), len(renderer.usable), len(renderer.fitter.fitted)) <= 8


def test_pages_name_a_face_many_cards_show_by_one_string(tmp_path):
    """A deck's back is one face: its key is one string, not one copy a card (the pack reads it anew each time)."""
    import shutil
    from pathlib import Path

    from pnpgen.store.cache import Cache
    from pnpgen.faces.convert import Converter
    from pnpgen.faces.render import Renderer
    from pnpgen.pipeline.prepare import open_fontbook
    from pnpgen.project.validate import load_project

    root = tmp_path / "p"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "minimal", root)
    project = load_project(root)
    game, deck = project.games[0], project.games[0].components[0]
    fontbook = open_fontbook(project)
    cache = Cache(tmp_path / "cache")
    renderer = Renderer(project, fontbook, cache, store=Converter(fontbook, root, cache).paint)
    renderer.cache.limit = 1  # every render after the first asks the pack
    backs = [renderer.render(game, deck, card, "back").key for card in deck.cards * 3]
    assert len(set(backs)) == 1 and len({id(key) for key in backs}) == 1


def test_settled_faces_are_found_by_component_card_and_side_and_handed_between_processes():
    from types import SimpleNamespace

    from pnpgen.faces.reuse import CardFaceKeys

    deck, other = SimpleNamespace(cards=[1, 2, 3]), SimpleNamespace(cards=[1, 2, 3])
    one, two = "ab" * 32, "cd" * 32
    settled = CardFaceKeys()
    settled.note(deck, 2, "back", one)
    assert settled.find(deck, 2, "back") == one
    assert [settled.find(deck, 2, "front"), settled.find(deck, 1, "back"), settled.find(other, 2, "back")] == [None] * 3
    assert len(settled.components[id(deck)][1]) == 3 * 2 * 32  # 32 bytes a face, nothing more
    handed = settled.export([(deck, 2), (other, 0)])
    elsewhere = CardFaceKeys()
    elsewhere.note(deck, 0, "front", two)
    elsewhere.take([(deck, 1), (deck, 0)], handed, holds=lambda key: True)
    assert [elsewhere.find(deck, 1, "back"), elsewhere.find(deck, 0, "front")] == [one, two]  # zeros note nothing
    refusing = CardFaceKeys()
    refusing.take([(deck, 1), (deck, 0)], handed, holds=lambda key: key != one)  # a face the pack lacks
    assert refusing.find(deck, 1, "back") is None


def test_a_card_is_settled_only_once_every_side_it_has_is_noted():
    from types import SimpleNamespace

    from pnpgen.faces.reuse import CardFaceKeys

    deck = SimpleNamespace(cards=[1, 2])
    front, back = "ab" * 32, "cd" * 32
    settled = CardFaceKeys()
    settled.note_card(deck, 1, [("front", bytes.fromhex(front))])  # the 32 bytes a pack lookup gives, or hex
    assert settled.find_card(deck, 1, (True, True)) is None  # its back is not known yet
    assert settled.find_card(deck, 1, (True, False)) == (front, None)  # a component without backs
    settled.note_card(deck, 1, [("back", back)])
    assert settled.find_card(deck, 1, (True, True)) == (front, back)
    assert settled.find_card(deck, 0, (True, True)) is None
    assert settled.find_card(SimpleNamespace(cards=[1, 2]), 1, (True, True)) is None
