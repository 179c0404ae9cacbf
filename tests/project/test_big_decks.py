"""A big deck from YAML: its cards are a tuple of frozen values (found by equality or identity, copied as a tuple
is), a deck of more values than an alias bomb is allowed loads, and the limits an attack needs still hold."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from pnpgen.errors import PnpError
from pnpgen.project.load import parse_yaml
from pnpgen.project.validate import load_project

LOADERS = [pytest.param(yaml.CSafeLoader, id="libyaml"), pytest.param(yaml.SafeLoader, id="python")]


def write_deck(root: Path, cards: int) -> Path:
    """One component of `cards` distinct cards, six fields a card (more than 200,000 values at 30,000)."""
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "f.svg.j2").write_text("<rect/>", encoding="utf-8")
    rows = "".join(f"          - {{number: {n}, name: カード{n}, kind: k{n % 4}, cost: {n % 7}, tags: [a, b], "
                   f"effect: \"山札から{n % 5}枚引く。\"}}\n" for n in range(cards))
    (root / "cards.yaml").write_text("games:\n  - id: g\n    title: G\n    components:\n      - id: deck\n"
                                     "        front: f.svg.j2\n        cards:\n" + rows, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> tuple:
    return load_project(write_deck(tmp_path_factory.mktemp("big"), 30_000)).games[0].components[0].cards


def test_a_deck_of_more_values_than_an_alias_bomb_may_make_loads(big):
    assert len(big) == 30_000 and big[-1].fields["name"] == "カード29999"
    assert str(big[-1].location) == "cards.yaml:30007:13" and str(big[-1].where("cost")) == "cards.yaml:30007:61"
    assert big[5].fields["tags"] == ("a", "b")


def test_a_components_cards_are_a_tuple_of_values_found_by_equality_or_identity(big):
    assert type(big) is tuple and big[7] is big[7]  # read twice: the same card
    card = big[12_345]
    assert big.index(card) == 12_345 and card in big and {card: 1}[big[12_345]] == 1
    assert big * 1 == copy.copy(big) == copy.deepcopy(big[:50]) + big[50:] == big
    assert copy.deepcopy(card) == card and hash(copy.deepcopy(card)) == hash(card)


def test_an_alias_bomb_in_a_big_file_is_refused_at_the_files_size():
    padding = "".join(f"pad{n:05}: x\n" for n in range(20_000))  # 240,000 bytes of the file's own values
    bomb = 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n' + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9))
    text = padding + bomb + "games: *a8\n"
    size = len(text.encode("utf-8"))
    for loader in (yaml.CSafeLoader, yaml.SafeLoader):
        with pytest.raises(PnpError, match=f"^f.yaml:20001:[0-9]+: more than {size} values once aliases are "
                                           "expanded; expected a project file, not an alias bomb$"):
            parse_yaml(text, "f.yaml", loader)


@pytest.mark.parametrize("loader", LOADERS)
def test_nesting_is_refused_where_the_parser_reaches_it_however_deep_it_goes(loader):
    # a YAML error after the value is reported (the parser reads on) only within 100 levels more: reading deeper
    # costs the parser more for every level, so a 20,000-deep value is refused without being read to its end
    shallow = "a: " + "[" * 102 + "]" * 102 + "\nb: *nope\n"
    deep = "a: " + "[" * 20_000 + "]" * 20_000 + "\nb: *nope\n"
    with pytest.raises(PnpError, match="^f.yaml:2:4: YAML syntax error: found undefined alias 'nope'"):
        parse_yaml(shallow, "f.yaml", loader)
    with pytest.raises(PnpError) as caught:
        parse_yaml(deep, "f.yaml", loader)
    assert str(caught.value) == "f.yaml:1:104: values nested more than 100 levels deep; expected a project file"
    skipped = "a: 1\na: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n"  # a duplicate key's value is skipped
    with pytest.raises(PnpError, match="^f.yaml:2:404: values nested more than 100 levels deep"):
        parse_yaml(skipped, "f.yaml", loader)
