"""YAML read from the parser's events: libyaml and the pure-Python parser give the same values and file:line:col,
anchors, aliases and merge keys behave as composed YAML does, and no node tree (nor garbage) outlives a parse."""
from __future__ import annotations

import gc
import pickle
import tracemalloc
from pathlib import Path

import pytest
import yaml

from pnpgen.errors import Location, PnpError
from pnpgen.project.load import LList, LMap, parse_yaml
from pnpgen.project.validate import load_project

REPO = Path(__file__).resolve().parents[2]
BUNDLED = [REPO / "cards.yaml", *sorted((REPO / "games").glob("*.yaml"))]
FIXTURES = sorted(p for p in (REPO / "tests" / "fixtures").rglob("*.yaml") if p.is_file() and p.parent.name != "non-utf8")
LOADERS = [pytest.param(yaml.CSafeLoader, id="libyaml"), pytest.param(yaml.SafeLoader, id="python")]
if not getattr(yaml, "__with_libyaml__", False):
    LOADERS = LOADERS[1:]


def described(value) -> object:
    """A value with every place it reports: what a caller can ask of it, spelled out for comparison."""
    if isinstance(value, LMap):
        return ("map", str(value.loc), [(key, str(value.where_key(key)), str(value.where(key)), str(value.key_locs[key]),
                                         str(value.value_locs[key]), described(item)) for key, item in value.items()])
    if isinstance(value, LList):
        return ("list", str(value.loc), [(str(value.where(i)), str(value.item_locs[i]), described(item))
                                         for i, item in enumerate(value)])
    return (type(value).__name__, value)


def outcome(text: str, loader) -> object:
    try:
        return described(parse_yaml(text, "f.yaml", loader))
    except PnpError as err:
        return ("error", str(err))


@pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False), reason="PyYAML without libyaml")
@pytest.mark.parametrize("path", BUNDLED + FIXTURES, ids=lambda p: str(p.relative_to(REPO)))
def test_both_parsers_give_the_same_values_and_places(path: Path):
    text = path.read_text(encoding="utf-8-sig")
    fast, pure = outcome(text, yaml.CSafeLoader), outcome(text, yaml.SafeLoader)
    assert fast == pure
    assert fast[0] in ("map", "error", "NoneType")


ALIASES = """\
base: &base {size: poker, copies: 2}
list: &list [a, *base]
deck:
  <<: *base
  name: x
again: *list
"""


@pytest.mark.parametrize("loader", LOADERS)
def test_aliases_and_merge_keys_are_built_again_where_they_are_used(loader):
    data = parse_yaml(ALIASES, "f.yaml", loader)
    assert data == {"base": {"size": "poker", "copies": 2}, "list": ["a", {"size": "poker", "copies": 2}],
                    "deck": {"size": "poker", "copies": 2, "name": "x"}, "again": ["a", {"size": "poker", "copies": 2}]}
    assert data["again"] is not data["list"] and data["list"][1] is not data["base"]  # a copy each, as before
    assert str(data.where("again")) == "f.yaml:2:7"  # an alias stands where its anchored node does
    assert str(data["again"].where(1)) == "f.yaml:1:7"
    deck = data["deck"]
    assert [str(deck.where_key(k)) for k in deck] == ["f.yaml:1:14", "f.yaml:1:27", "f.yaml:5:3"]  # merged: the anchor's
    assert [str(deck.where(k)) for k in deck] == ["f.yaml:1:20", "f.yaml:1:35", "f.yaml:5:9"]


BAD = [
    ("a: 1\na: 2\n", "f.yaml:2:1: duplicate key 'a' (first at line 1); expected each key once"),
    ("m: &m {a: 1}\nx:\n  <<: *m\n  a: 2\n", "f.yaml:4:3: duplicate key 'a' (first at line 1); expected each key once"),
    ("x: *nope\n", "f.yaml:1:4: YAML syntax error: found undefined alias 'nope' (an alias (*name) with no anchor (&name) before it)"),
    ("a: &x 1\nb: &x 2\n", "f.yaml:2:4: YAML syntax error: second occurrence found duplicate anchor 'x'; first occurrence"),
    ("a: 1\n---\nb: 2\n", "f.yaml:2:1: YAML syntax error: but found another document expected a single document in the stream"),
    ("a: &x {b: [*x]}\n", "f.yaml:1:4: values nested more than 100 levels deep; expected a project file"),
    ("a: " + "[" * 102 + "]" * 102 + "\n", "f.yaml:1:104: values nested more than 100 levels deep; expected a project file"),
    ("a: " + "[" * 102 + "]" * 102 + "\nb: *nope\n", "f.yaml:2:4: YAML syntax error: found undefined alias 'nope' (an alias (*name) with no anchor (&name) before it)"),
    ("a: !foo {x: &q 1}\nb: *q\nc: !!python/object:os.system {}\n",
     "f.yaml:1:4: the tag !foo is not allowed; expected plain YAML values\n"
     "f.yaml:3:4: the tag !!python/object:os.system is not allowed; expected plain YAML values"),
    ("a: !<tag:yaml.org,2002:x:int> 5\n", "f.yaml:1:4: the tag !!x:int is not allowed; expected plain YAML values"),
    ("a: &n !!int x\nb: [*n]\n", "f.yaml:1:4: 'x' is not a valid whole number; expected a whole number such as 12\n"
                                 "f.yaml:1:4: 'x' is not a valid whole number; expected a whole number such as 12"),
    ("x:\n  <<: [5, {a: 1}]\n? [k]\n: v\n", "f.yaml:2:8: '<<' merges a mapping; expected an alias of a mapping\n"
                                            "f.yaml:3:3: a key must be a plain word or number"),
    ('a: "\\ud800"\n', "f.yaml:1:4: the text holds a lone surrogate escape (such as \\ud800), which is no character; "
                       "expected real characters"),
]


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("text, message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_yaml_is_one_located_message_from_either_parser(loader, text: str, message: str):
    with pytest.raises(PnpError) as caught:
        parse_yaml(text, "f.yaml", loader)
    assert str(caught.value) == message


def test_an_alias_bomb_stops_counting_where_it_did(tmp_path: Path):
    bomb = (REPO / "tests" / "fixtures" / "errors" / "billion-laughs" / "cards.yaml").read_text(encoding="utf-8")
    for loader in [p.values[0] for p in LOADERS]:
        with pytest.raises(PnpError, match="^f.yaml:1:16: more than 200000 values"):
            parse_yaml(bomb, "f.yaml", loader)
        with pytest.raises(PnpError, match="^f.yaml:10:1: YAML syntax error"):  # a syntax error after it comes first
            parse_yaml(bomb + "x: [\n", "f.yaml", loader)


def test_places_read_from_the_packed_positions_match_the_dicts_they_make():
    keys = "".join(f"k{i}: [{i}, v]\n" for i in range(20))  # more keys than a walk answers
    data = parse_yaml(keys + "small: {a: 1, tbd: x, 2: b}\n", "f.yaml")
    assert str(data.where("k13")) == "f.yaml:14:6" and str(data.where_key("k13")) == "f.yaml:14:1"
    assert str(data.where("missing")) == str(data.where_key("missing")) == "f.yaml:1:1"
    small = data["small"]
    assert [str(small.where(k)) for k in small] == [str(small.value_locs[k]) for k in small] == \
        ["f.yaml:21:12", "f.yaml:21:20", "f.yaml:21:26"]
    assert str(data["k3"].where(5)) == "f.yaml:4:5"  # past the end: the list itself
    cells = small.fields_at(skip="tbd")
    assert dict(cells) == {"a": small.where("a"), "2": small.where(2)} and len(cells) == 2
    assert pickle.loads(pickle.dumps(cells)) == (("a", small.where("a")), ("2", small.where(2)))
    copy = LMap(small)  # a hand-made mapping holds its places itself, as validation's copies do
    copy.loc, copy.key_locs, copy.value_locs = small.loc, dict(small.key_locs), dict(small.value_locs)
    copy.value_locs["a"] = Location("g.yaml", 7, 7)
    assert str(copy.where("a")) == "g.yaml:7:7" and str(small.where("a")) == "f.yaml:21:12"
    assert copy.fields_at(skip="tbd") == (("a", Location("g.yaml", 7, 7)), ("2", small.where(2)))


def deck(cards: int) -> str:
    rows = "".join(f"          - {{number: {n}, name: カード{n}, effect: \"山札から{n}枚引く。\"}}\n" for n in range(cards))
    return ("games:\n  - id: g\n    title: G\n    components:\n      - id: deck\n        front: f.svg.j2\n"
            "        cards:\n" + rows)


def test_a_parse_holds_no_node_tree_and_leaves_no_garbage():
    text = deck(2000)
    parse_yaml(text, "f.yaml")
    gc.collect()
    tracemalloc.start()
    try:
        data = parse_yaml(text, "f.yaml")
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(data["games"][0]["components"][0]["cards"]) == 2000
    # beyond the values, a parse holds the input's bytes and a few events (composing nodes first: 20 times the
    # input); the values keep their positions packed (about 540 bytes a card here, 2,500 with a Location each)
    assert peak - kept < 3 * len(text.encode("utf-8"))
    assert kept < 2000 * 800
    del data
    assert gc.collect() == 0  # nothing of a parse waits for the cycle collector


def test_cards_name_the_places_of_their_fields(tmp_path: Path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "f.svg.j2").write_text("<rect/>", encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(deck(3).replace("effect:", "tbd: [name], effect:", 1), encoding="utf-8")
    cards = load_project(tmp_path).games[0].components[0].cards
    assert [(name, str(where)) for name, where in cards[0].cells] == \
        [("number", "cards.yaml:8:22"), ("name", "cards.yaml:8:31"), ("effect", "cards.yaml:8:58")]
    assert str(cards[2].where("name")) == "cards.yaml:10:31" and str(cards[2].location) == "cards.yaml:10:13"


@pytest.mark.parametrize("loader", LOADERS)
def test_places_past_two_bytes_are_kept_whole(loader):
    """Positions start two bytes each; a column past 65,535 (or a line) widens them all, the earlier ones kept."""
    text = "first: {a: 1}\nwide: {b: 2," + " " * 70_000 + "c: 3}\nlast: [x]\n"
    data = parse_yaml(text, "f.yaml", loader)
    assert str(data["first"].where("a")) == "f.yaml:1:12" and str(data["wide"].where("b")) == "f.yaml:2:11"
    assert str(data["wide"].where("c")) == "f.yaml:2:70016" and str(data["wide"].where_key("c")) == "f.yaml:2:70013"
    assert str(data["last"].where(0)) == "f.yaml:3:8" and str(data.where("last")) == "f.yaml:3:7"
