"""A big component's cards live in a spill file: read back they equal the cards held, and a build prints the same."""
import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.pipeline import prerender
from pnpgen.errors import Location
from pnpgen.project import shelf
from pnpgen.project import spill as spill_module
from pnpgen.project.model import Card, Fields
from pnpgen.project.shelf import Shelf, hand_placed, pick
from pnpgen.project.spill import HELD, Spill
from pnpgen.project.validate import load_project

ROOT = Path(__file__).resolve().parents[2]


def write_deck(root: Path, count: int) -> Path:
    """A deck whose cards name different fields, nest lists and mappings, and hold placeholders."""
    lines = []
    for n in range(1, count + 1):
        extra = {0: f"tags: [火, {n}]", 1: "cost: {gold: 2, gem: [1, 2]}", 2: "tbd: true"}[n % 3]
        lines.append(f"          - {{number: {n}, name: \"カード{n}\", ratio: {n / 4}, rare: {str(n % 5 == 0).lower()}, "
                     f"note: null, copies: {n % 4}, {extra}}}")
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text("<rect/>", encoding="utf-8")
    (root / "cards.yaml").write_text(
        "games:\n  - id: g\n    title: G\n    components:\n      - id: deck\n        name: D\n        size: poker\n"
        "        front: front.svg.j2\n        defaults: {side: 表}\n        cards:\n" + "\n".join(lines) + "\n"
        "      - id: grid\n        name: M\n        size: poker\n        front: front.svg.j2\n"
        "        matrix: {suit: [a, b, c], rank: {from: 1, to: 9}}\n", encoding="utf-8")
    return root


def load_both(tmp_path: Path, monkeypatch, count: int = 40):
    """The project's components held (as they always were up to HELD cards) and spilled (past 4)."""
    root = write_deck(tmp_path / "deck", count)
    held = load_project(root).games[0].components
    monkeypatch.setattr(shelf, "HELD", 4)
    spilled = load_project(root).games[0].components
    return held, spilled


def test_spilled_cards_equal_the_held_ones_field_by_field_and_place_by_place(tmp_path, monkeypatch):
    held, spilled = load_both(tmp_path, monkeypatch)
    for kept, read in zip(held, spilled):
        assert kept.cards.spill is None and read.cards.spill is not None
        assert len(read.cards) == len(kept.cards) and read.cards.pieces == kept.cards.pieces
        for before, after in zip(kept.cards, read.cards):
            assert after == before and after is not before
            assert dict(after.fields.items()) == dict(before.fields.items())
            assert (after.copies, after.tbd, after.location) == (before.copies, before.tbd, before.location)
            assert list(after.cells) == list(before.cells)
    deck = spilled[0].cards
    assert deck[0].fields["cost"]["gem"] == (1, 2) and type(deck[0].fields["cost"]) is Fields
    assert deck[2].fields["tags"] == ("火", 3) and deck[2].fields["side"] == "表"
    assert deck[1].tbd == ("side", "name") and str(deck[1].where("name")).startswith("cards.yaml:12:")
    assert deck == held[0].cards and hash(deck) == hash(held[0].cards) == hash(tuple(held[0].cards))
    assert spilled[0] == held[0] and spilled[1] == held[1]  # the components compare equal too (watch compares them)


def test_a_spilled_shelf_reads_as_a_tuple_does(tmp_path, monkeypatch):
    held, spilled = load_both(tmp_path, monkeypatch)
    cards, same = spilled[0].cards, tuple(held[0].cards)
    assert cards[-1] == same[-1] and cards[3:9] == same[3:9] and cards[::7] == same[::7]
    assert list(cards.pick([0, 5, 6, 39])) == [same[0], same[5], same[6], same[39]]
    assert list(pick(same, [2, 4])) == [same[2], same[4]]
    assert cards + (same[0],) == same + (same[0],) and (same[0],) + cards == (same[0],) + same
    assert cards * 2 == same * 2 and cards.index(same[7]) == 7 and same[7] in cards
    assert repr(cards) == repr(same)
    with pytest.raises(IndexError):
        cards[40]


def test_where_hand_made_places_stand_is_kept_once(tmp_path, monkeypatch):
    held, spilled = load_both(tmp_path, monkeypatch)
    grid = spilled[1].cards
    assert len(grid) == 27 and grid.spill is not None
    assert list(hand_placed(grid)) == list(hand_placed(held[1].cards)) == [held[1].cards[0].location]
    assert list(hand_placed(spilled[0].cards)) == []  # written in the YAML: their places are the file's


def test_cards_made_by_hand_spill_with_their_places(monkeypatch):
    monkeypatch.setattr(shelf, "HELD", 1)
    where = [Location("data/deck.csv", row, 1, "") for row in range(2, 6)]
    made = [Card(Fields({"n": n, "sub": Fields({"x": n})}), n, where[n], (), (("n", where[n]),)) for n in range(4)]
    cards = Shelf(made)
    assert cards.spill is not None and list(cards) == made
    assert [list(card.cells) for card in cards] == [[("n", w)] for w in where]
    assert list(cards.hand_placed()) == where


def test_a_spill_reads_back_what_was_appended_in_any_order():
    spill = Spill()
    values = [(n, "字" * (n % 900), (n / 3, None, True)) for n in range(3000)]
    for value in values:
        spill.append(value)
    assert list(spill) == values and spill[2999] == values[2999] and spill[0] == values[0]
    assert list(spill.iterate(10, 2000)) == values[10:2000]
    assert list(spill.pick(range(0, 3000, 7))) == values[::7]
    assert list(spill.pick([5, 1500, 1501, 2999])) == [values[5], values[1500], values[1501], values[2999]]


def test_a_deck_past_held_cards_spills_and_builds_the_same_pdfs(tmp_path, monkeypatch):
    """The bundled project with every component spilled (and the helper process forked to render half of it, reading
    the spill file) prints byte-identical PDFs: layout, rendering ahead, checks and tuck boxes read cards by index."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("cards.yaml", "games", "templates", "documents", "rules"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, project / name)
    monkeypatch.setattr(prerender, "PARALLEL_CARDS", 2)
    pnpgen.build(project, Options(out_dir=tmp_path / "held", cache=False))
    monkeypatch.setattr(shelf, "HELD", 1)
    assert load_project(project).games[0].components[0].cards.spill is not None
    pnpgen.build(project, Options(out_dir=tmp_path / "spilled", cache=False))
    held = {p.relative_to(tmp_path / "held"): p.read_bytes() for p in sorted((tmp_path / "held").rglob("*.pdf"))}
    spilled = {p.relative_to(tmp_path / "spilled"): p.read_bytes() for p in sorted((tmp_path / "spilled").rglob("*.pdf"))}
    assert len(held) > 10 and held == spilled


def test_a_real_deck_past_held_spills(tmp_path):
    root = write_deck(tmp_path / "deck", HELD + 3)
    cards = load_project(root).games[0].components[0].cards
    assert cards.spill is not None and len(cards) == HELD + 3
    assert cards[HELD + 2].fields["number"] == HELD + 3 and str(cards[HELD + 2].location) == f"cards.yaml:{HELD + 13}:13"


def test_without_a_temporary_file_the_records_stay_in_memory(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(spill_module.tempfile, "TemporaryFile", refuse)
    spill = Spill()
    values = [(n, "字" * (n % 500)) for n in range(500)]
    for value in values:
        spill.append(value)
    assert spill.file is None and list(spill) == values and list(spill.pick([3, 499])) == [values[3], values[499]]


@pytest.mark.skipif(not hasattr(spill_module.os, "pwrite"), reason="writes at an offset with pwrite where there is one")
def test_a_disk_that_fills_up_meanwhile_loses_no_record(monkeypatch):
    spill, writes = Spill(), []
    real = spill_module.os.pwrite

    def fill_up(fd, data, at):
        if writes:
            raise OSError(28, "No space left on device")
        writes.append(at)
        return real(fd, data, at)
    monkeypatch.setattr(spill_module.os, "pwrite", fill_up)
    values = [(n, "字" * (n % 900)) for n in range(600)]
    for value in values:
        spill.append(value)
    spill.flush()
    assert writes == [0] and 0 < spill.written < spill.ends[-1] and spill.stuck
    assert list(spill) == values and [spill[n] for n in range(0, 600, 37)] == values[::37]
