"""A face whose render read no card field is every card's: its side's one pack record gives what a full render would."""
import dataclasses
import hashlib
import random
import shutil
from pathlib import Path

import pytest

from pnpgen.store.cache import Cache
from pnpgen.errors import PnpError
from pnpgen.faces.convert import Converter
from pnpgen.faces.render import Renderer, common_of, wrap_svg
from pnpgen.faces.reuse import TrackedFields, fieldless_key, read_fields
from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.project.model import Fields
from pnpgen.project.validate import load_project

FIXTURES = Path(__file__).parents[1] / "fixtures"
RECT = '<rect width="{{ W }}" height="{{ H }}" fill="#{{ colour }}"/>'
PARTS = {  # templates others include or import
    "plain-part.svg.j2": '<circle r="{{ SAFE }}"/>',
    "name-part.svg.j2": "<g>{{ card.name }}</g>",
    "macros.svg.j2": "{% macro frame(c) %}<g>{{ c.number }}</g>{% endmacro %}{% macro still(c) %}<g/>{% endmacro %}",
}
# (template source, whether a render of it reads no field of the card)
TEMPLATES = [
    (RECT.replace("{{ colour }}", "123"), True),
    ('{{ text(game.title, 0, 5, W, 10, size=12, align="center") }}', True),
    ("{% if false %}{{ card.name }}{% endif %}<g/>", True),
    ("{% if side == 'back' %}{{ card.name }}{% endif %}{{ component.id|upper }}", True),  # rendered as a front
    ("{% for n in range(3) %}<g id='{{ loop.index }}{{ '七'|zen }}'/>{% endfor %}", True),
    ("{% include 'plain-part.svg.j2' %}", True),
    ("{% from 'macros.svg.j2' import still %}{{ still(card) }}", True),  # handed the card, never looks at it
    ("{% set c = card %}{% macro box() %}<g/>{% endmacro %}{{ box() }}", True),
    ("{% if card is mapping and card is defined %}<g/>{% endif %}", True),  # the same for every card
    ("{{ card.name }}", False),
    ("{% if card.kind == 'a' %}{{ text('A', 0, 0, 10, 10) }}{% else %}<g/>{% endif %}", False),  # kind read always
    ("{% if card.kind == 'a' %}{{ card.name }}{% endif %}", False),
    ("{{ card['number'] * 2 }}", False),
    ("{{ card.get('effect', '-') }}", False),
    ("{% if 'effect' in card %}e{% endif %}", False),
    ("{{ card.missing is defined }}", False),
    ("{{ card|attr('number') }}", False),
    ("{% for key in card %}{{ key }}{% endfor %}", False),
    ("{% for key, value in card.items() %}{{ value }}{% endfor %}", False),
    ("{{ card.keys()|list|length }}", False),
    ("{{ card|length }}", False),
    ("{% if card %}x{% endif %}", False),
    ("{{ card }}", False),
    ("{{ card|tojson }}", False),
    ("{{ card|dictsort|first }}", False),
    ("{{ card|list|join(',') }}", False),
    ("{{ card|string|length }}", False),
    ("{{ card|pprint }}", False),
    ("{{ card|default('none') }}", False),
    ("{{ card.get }}", False),
    ("{{ [card]|map(attribute='kind')|join }}", False),
    ("{% set c = card %}{{ c.number }}", False),
    ("{% include 'name-part.svg.j2' %}", False),
    ("{% from 'macros.svg.j2' import frame %}{{ frame(card) }}", False),
    ("{% macro look(c) %}{{ c|length }}{% endmacro %}{{ look(card) }}", False),
    ("{{ text(card.name, 0, 5, W, 10, size=12) }}", False),
]


def random_cards(card, count: int) -> list:
    """Cards unlike each other in their values, in which fields they have, and in their order."""
    pick = random.Random(13)
    cards = []
    for n in range(count):
        fields = {"name": pick.choice(["剣", "盾 <&>", "弓", f"札{n}"]), "number": pick.randrange(1, 10),
                  "kind": pick.choice("ab")}
        if pick.random() < 0.5:
            fields["effect"] = pick.choice(["", "効果", "捨てる。"])
        if pick.random() < 0.3:
            fields["extra"] = (n, "x")
        names = list(fields)
        pick.shuffle(names)
        cards.append(dataclasses.replace(card, fields=Fields({name: fields[name] for name in names})))
    return cards


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("fieldless") / "p"
    shutil.copytree(FIXTURES / "minimal", root)
    for name, source in PARTS.items():
        (root / "templates" / name).write_text(source, encoding="utf-8")
    for number, (source, _) in enumerate(TEMPLATES):
        (root / "templates" / f"t{number}.svg.j2").write_text(source, encoding="utf-8")
    project = load_project(root)
    game, deck = project.games[0], project.games[0].components[0]
    cards = random_cards(deck.cards[0], 40)
    components = [dataclasses.replace(deck, front=f"t{number}.svg.j2", back=None, cards=tuple(cards))
                  for number in range(len(TEMPLATES))]
    return project, game, components, open_fontbook(project)


def full_renders(renderer: Renderer, game, component) -> list:
    """(face key or None where it failed, the fields it read) of each card, each rendered from its template."""
    found = []
    for card in component.cards:
        tracked = TrackedFields(card.fields)
        try:
            content = renderer.render_content(game, component, card, "front", component.front, tracked)
        except PnpError:
            found.append((None, read_fields(tracked)))
            continue
        found.append((hashlib.sha256(wrap_svg(content, component).encode("utf-8")).hexdigest(), read_fields(tracked)))
    return found


@pytest.mark.parametrize("number", range(len(TEMPLATES)))
def test_a_render_that_read_no_field_is_every_cards_full_render(made, number):
    project, game, components, fontbook = made
    renders = full_renders(Renderer(project, fontbook), game, components[number])
    fieldless = [face_key for face_key, seen in renders if seen == set() and face_key is not None]
    assert bool(fieldless) == TEMPLATES[number][1]  # the template reads what it says it does
    if fieldless:  # it never looked at the card: every card read nothing and rendered the same face
        assert all(seen == set() for _, seen in renders) and {face_key for face_key, _ in renders} == {fieldless[0]}


def test_the_pack_gives_each_card_the_face_a_full_render_gives_and_one_lookup_a_fieldless_side(made, tmp_path):
    project, game, components, fontbook = made
    expected = [[face_key for face_key, _ in full_renders(Renderer(project, fontbook), game, component)]
                for component in components]
    order = random.Random(7)
    for build in ("cold", "warm"):  # a warm build is a process of its own: a fresh pack object, fresh memos
        cache = Cache(tmp_path / "cache")
        renderer = Renderer(project, fontbook, cache, store=Converter(fontbook, project.root, cache).paint)
        lookups = []
        renderer.pack.get = lambda kind, key, get=renderer.pack.get: lookups.append(kind) or get(kind, key)
        for component, faces in zip(components, expected):
            cards = list(enumerate(component.cards))
            order.shuffle(cards)
            lookups.clear()
            got = []
            for index, card in cards:
                try:
                    got.append((index, renderer.render(game, component, card, "front").key))
                except PnpError:
                    got.append((index, None))
            assert sorted(got) == list(enumerate(faces))
            fieldless = TEMPLATES[components.index(component)][1]
            if build == "warm" and fieldless:
                assert lookups.count(b"R") == 1  # the side's face, for every card
            prefix = renderer.key_prefix(game, (game.id, common_of(component, "front", component.front)))
            recorded = renderer.pack.face_key(fieldless_key(prefix))
            assert recorded == (faces[0] if fieldless else None)
        if build == "warm":
            assert renderer.renders == 0
        cache.save()


def test_rendering_ahead_settles_a_fieldless_side_of_every_card_even_one_to_render(made, tmp_path):
    """A card whose front is not in the pack is rendered; its shared back is known from the side's record."""
    project, game, components, fontbook = made
    deck = dataclasses.replace(components[9], back=components[0].front)  # a front reading the name, a plain back
    cards = list(enumerate(deck.cards))
    cache = Cache(tmp_path / "cache")
    first = Renderer(project, fontbook, cache, store=Converter(fontbook, project.root, cache).paint)
    for index, card in cards[:3]:
        first.render(game, deck, card, "front", index), first.render(game, deck, card, "back", index)
    cache.save()
    cache = Cache(tmp_path / "cache")
    renderer = Renderer(project, fontbook, cache, store=Converter(fontbook, project.root, cache).paint)
    missing = renderer.uncached(game, deck, cards)
    known = {card.fields for _, card in cards[:3]}  # a front's render key hashes every field of its card
    assert list(missing) == [index for index, card in cards if card.fields not in known]
    back = first.render(game, deck, cards[0][1], "back").key
    assert all(renderer.face_keys.find(deck, index, "back") == back for index, _ in cards)
    assert all(renderer.face_keys.find(deck, index, "front") is None for index in missing)
