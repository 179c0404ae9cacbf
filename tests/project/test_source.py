"""A project's YAML file is checked as UTF-8 a piece at a time and parsed from the file in pieces: the same values,
places and messages as reading it whole, without holding the file (or its text) while it is parsed."""
from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
import yaml

from pnpgen.errors import PnpError
from pnpgen.project.load import load_file, parse_yaml
from pnpgen.project.source import PIECE, open_utf8, read_utf8


def deck(cards: int) -> str:
    return "cards:\n" + "".join(f"  - {{number: {n}, name: \"カード{n}\", effect: 山札から{n}枚引く。}}\n" for n in range(cards))


def places(value) -> list:
    return [(card["number"], str(card.loc), str(card.where("name"))) for card in value["cards"]]


def test_a_file_parsed_in_pieces_reads_as_its_text_does(tmp_path: Path):
    text = deck(3000)
    assert len(text.encode("utf-8")) > 3 * PIECE
    (tmp_path / "cards.yaml").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))  # a BOM too
    value, shown = load_file(tmp_path / "cards.yaml", tmp_path)
    assert shown == "cards.yaml" and value == parse_yaml(text, "cards.yaml")
    assert places(value) == places(parse_yaml(text, "cards.yaml", yaml.SafeLoader))
    assert places(value)[2999] == (2999, "cards.yaml:3001:5", "cards.yaml:3001:26")


def test_a_bad_byte_past_the_first_piece_is_placed_as_before(tmp_path: Path):
    data = deck(2000).encode("utf-8")
    cut = data.index(b"\n", 2 * PIECE) + 1  # a line start past the second piece
    path = tmp_path / "cards.yaml"
    path.write_bytes(data[:cut] + b"  - {name: \x83}\n" + data[cut:])
    line = data[:cut].count(b"\n") + 1
    with pytest.raises(PnpError) as caught:
        load_file(path, tmp_path)
    assert str(caught.value) == f"cards.yaml:{line}:12: byte 0x83 is not UTF-8; save the file as UTF-8"
    with pytest.raises(PnpError) as whole:
        read_utf8(path, "cards.yaml")
    assert str(whole.value) == str(caught.value)


def test_a_character_split_between_pieces_is_text(tmp_path: Path):
    path = tmp_path / "cards.yaml"
    data = b"a: " + b"x" * (PIECE - 4) + "カード".encode("utf-8") + b"\n"  # カ's three bytes straddle the pieces
    path.write_bytes(data)
    with open_utf8(path, "cards.yaml") as opened:
        assert opened.whole() == data
    assert load_file(path, tmp_path)[0]["a"].endswith("カード")


@pytest.mark.parametrize("data, message", [
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 10, "cards.yaml: is a binary file, not text; expected a YAML file"),
    (b"a: 1\n" + b"\x00" * (3 * PIECE), "cards.yaml: is a binary file, not text; expected a YAML file"),
    (b"a: [1,\n", "cards.yaml:2:1: YAML syntax error"),
])
def test_what_is_not_a_yaml_file_is_said_as_before(tmp_path: Path, data: bytes, message: str):
    (tmp_path / "cards.yaml").write_bytes(data)
    with pytest.raises(PnpError) as caught:
        load_file(tmp_path / "cards.yaml", tmp_path)
    assert str(caught.value).startswith(message)


def test_a_parse_does_not_hold_the_file(tmp_path: Path):
    path = tmp_path / "cards.yaml"
    path.write_text(deck(4000), encoding="utf-8")
    load_file(path, tmp_path)
    gc.collect()
    tracemalloc.start()
    try:
        value = load_file(path, tmp_path)[0]
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(value["cards"]) == 4000
    # beyond the values, a few pieces of the file and the parse's own tables (its one copy of each text, the most):
    # with the whole file read first, and its text made to check it, 2.2 times the file's size
    assert peak - kept < 1.6 * path.stat().st_size
