"""TrackedFields notes every field a template reads; reading the card as a whole counts as reading all."""
import pytest

from pnpgen.faces.reuse import ALL, FaceMemo, TrackedFields
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
    assert tracked.seen is ALL if seen == "all" else tracked.seen == seen


def test_a_memo_hit_needs_the_same_values_of_every_field_read():
    memo = FaceMemo()
    tracked = TrackedFields(CARD)
    _ = tracked.name, tracked.get("colour")
    memo.remember(("g", "c", "back"), tracked, "face-1", "")
    assert memo.find(("g", "c", "back"), CARD.merged({"number": 7})) == ("face-1", "")
    assert memo.find(("g", "c", "back"), CARD.merged({"name": "盾"})) is None
    assert memo.find(("g", "c", "back"), CARD.merged({"colour": "#800"})) is None
    assert memo.find(("g", "c", "front"), CARD) is None
