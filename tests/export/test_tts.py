"""Export Tabletop Simulator decks: sheet grids within 10 × 7 and 4096 px, the hidden card in the last
cell, trimmed RGB cells, back images or back sheets, and the saved-object JSON that points at them."""
import json
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from pnpgen import units
from pnpgen.export.run import ExportOptions, export
from pnpgen.export.tts import MAX_COLS, MAX_PX, MAX_ROWS, plan_sheet

FIXTURES = Path(__file__).parents[1] / "fixtures"
POKER = (units.mm(63), units.mm(88))


def px(mm: float, dpi: float = 300) -> int:
    return round(mm / 25.4 * dpi)


@pytest.mark.parametrize("cards", [1, 2, 3, 5, 13, 20, 34, 46, 68, 69, 70, 150])
def test_sheet_grids_stay_within_tts_limits(cards):
    grid = plan_sheet(cards, *POKER)
    assert 2 <= grid.cols <= MAX_COLS and 2 <= grid.rows <= MAX_ROWS
    assert grid.capacity >= min(cards, 69)  # every card of a sheet fits, and the hidden cell is extra
    assert max(grid.pixels) <= MAX_PX and grid.dpi <= 300
    assert grid.cell == (px(63, grid.dpi), px(88, grid.dpi))


def test_a_full_sheet_is_ten_by_seven():
    grid = plan_sheet(69, *POKER)
    assert (grid.cols, grid.rows, grid.capacity) == (10, 7, 69)
    assert grid.pixels[0] <= 4096 and grid.pixels[0] > 4096 - 10  # as wide as the limit allows
    assert plan_sheet(200, *POKER) == grid


def test_small_decks_get_full_resolution():
    grid = plan_sheet(3, *POKER)  # 3 cards and the hidden card: 2 × 2
    assert (grid.cols, grid.rows, grid.dpi, grid.cell) == (2, 2, 300, (744, 1039))


def test_dpi_option_caps_the_resolution():
    assert plan_sheet(3, *POKER, max_dpi=100).cell == (px(63, 100), px(88, 100))


@pytest.fixture(scope="module")
def minimal(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    report = export(FIXTURES / "minimal", "tts", ExportOptions(out_dir=out))
    return out / "tiny" / "tts", report


def test_minimal_deck_files(minimal):
    folder, report = minimal
    assert sorted(p.name for p in folder.iterdir()) == ["deck-back.png", "deck-sheet-1.png", "deck.json"]
    assert sorted(report.written) == sorted(folder.iterdir())


def test_minimal_sheet_is_two_by_two_at_300_dpi_with_the_back_hidden(minimal):
    folder, _ = minimal
    sheet = Image.open(folder / "deck-sheet-1.png")
    back = Image.open(folder / "deck-back.png")
    assert sheet.mode == "RGB" and back.mode == "RGB"
    assert sheet.size == (2 * 744, 2 * 1039) and back.size == (744, 1039)
    hidden = sheet.crop((744, 1039, 2 * 744, 2 * 1039))
    assert hidden.tobytes() == back.tobytes()  # the last cell is the hidden card: the back
    first = sheet.crop((0, 0, 744, 1039))
    assert ImageStat.Stat(first).mean != ImageStat.Stat(back).mean


def test_minimal_json_is_a_custom_deck_of_every_piece(minimal):
    folder, _ = minimal
    saved = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
    [deck] = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "デッキ"
    assert deck["DeckIDs"] == [100, 100, 100, 101, 101, 102]  # copies included, one cell per distinct card
    entry = deck["CustomDeck"]["1"]
    assert entry == {"FaceURL": "deck-sheet-1.png", "BackURL": "deck-back.png",  # beside the JSON: portable
                     "NumWidth": 2, "NumHeight": 2, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
    cards = deck["ContainedObjects"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert all(c["Name"] == "Card" and c["CustomDeck"] == {"1": entry} for c in cards)
    assert cards[0]["Nickname"] == '剣 <&>"' and cards[3]["Nickname"] == "盾"
    assert set(deck["Transform"]) == {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
    assert len({c["GUID"] for c in cards} | {deck["GUID"]}) == 7


def test_cells_hold_the_trim_only(tmp_path):
    """The front paints its bleed white and its trim red: a trimmed cell is red to its edges."""
    export(FIXTURES / "tts-many-cards", "tts", ExportOptions(out_dir=tmp_path, dpi=60))
    sheet = Image.open(tmp_path / "many" / "tts" / "hundred-sheet-1.png")
    w, h = px(63, 60), px(88, 60)
    cell = sheet.crop((w, 0, 2 * w, h))  # the second card
    for xy in [(1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)]:
        assert cell.getpixel(xy) == (0xCC, 0x33, 0x33), xy


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    out = tmp_path_factory.mktemp("many")
    report = export(FIXTURES / "tts-many-cards", "tts", ExportOptions(out_dir=out))
    return out / "many" / "tts", report


def test_a_hundred_cards_take_two_full_grids(many):
    folder, _ = many
    deck = json.loads((folder / "hundred.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == 100
    assert deck["DeckIDs"] == [100 + i for i in range(69)] + [200 + i for i in range(31)]
    assert set(deck["CustomDeck"]) == {"1", "2"}
    for number in ("1", "2"):
        entry = deck["CustomDeck"][number]
        assert (entry["NumWidth"], entry["NumHeight"]) == (10, 7)
        sheet = Image.open(folder / f"hundred-sheet-{number}.png")
        assert sheet.size[0] <= 4096 and sheet.size[1] <= 4096
        assert sheet.size == (10 * (sheet.size[0] // 10), 7 * (sheet.size[1] // 7))
    assert [list(c["CustomDeck"]) for c in deck["ContainedObjects"][68:70]] == [["1"], ["2"]]


def test_a_single_card_is_a_card_not_a_deck(many):
    folder, _ = many
    saved = json.loads((folder / "lone.json").read_text(encoding="utf-8"))
    [card] = saved["ObjectStates"]
    # the hundred cards took deck keys 1 and 2: the lone card has its own, so both can be spawned together
    assert card["Name"] == "Card" and card["CardID"] == 300 and "DeckIDs" not in card
    assert card["CustomDeck"]["3"]["BackURL"] == "lone-back.png"  # no back template: a plain grey card
    back = Image.open(folder / "lone-back.png")
    assert back.size == (px(70), px(120)) and back.getpixel((5, 5)) == (128, 128, 128)


def test_backs_that_differ_per_piece_become_back_sheets(tmp_path):
    export(FIXTURES / "numbered-backs", "tts", ExportOptions(out_dir=tmp_path))
    folder = tmp_path / "numbers" / "tts"
    assert sorted(p.name for p in folder.iterdir()) == ["deck-back-sheet-1.png", "deck-sheet-1.png", "deck.json"]
    deck = json.loads((folder / "deck.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True and entry["BackURL"] == "deck-back-sheet-1.png"
    faces, backs = (Image.open(folder / name) for name in ("deck-sheet-1.png", "deck-back-sheet-1.png"))
    assert faces.size == backs.size
    cols, rows = entry["NumWidth"], entry["NumHeight"]
    assert cols * rows >= 13 and deck["DeckIDs"] == [100 + i for i in range(12)]


def test_maps_are_not_decks(tmp_path):
    report = export(Path(__file__).parents[2], "tts", ExportOptions(out_dir=tmp_path, game="otogi-taisen", dpi=30))
    assert not (tmp_path / "otogi-taisen" / "tts" / "area-map.json").exists()
    assert any("area-map: a map is a board, not a deck" in note for note in report.notes)


def test_base_url_points_every_image_at_the_hosted_folder(tmp_path):
    export(FIXTURES / "tts-many-cards", "tts", ExportOptions(out_dir=tmp_path, base_url="https://example.com/pnp/tts/"))
    folder = tmp_path / "many" / "tts"
    urls = []
    for name in ("hundred.json", "lone.json"):
        saved = json.loads((folder / name).read_text(encoding="utf-8"))
        text = json.dumps(saved)
        assert str(tmp_path) not in text and "file:" not in text
        for state in saved["ObjectStates"]:
            urls += [u for entry in state["CustomDeck"].values() for u in (entry["FaceURL"], entry["BackURL"])]
    assert urls and all(u.startswith("https://example.com/pnp/tts/") for u in urls)
    assert {u.rsplit("/", 1)[1] for u in urls} <= {p.name for p in folder.iterdir()}


def test_deck_keys_never_repeat_across_the_components_of_an_export(tmp_path):
    export(Path(__file__).parents[2], "tts", ExportOptions(out_dir=tmp_path, game="three-times-undress", dpi=30))
    keys, ids = [], []
    for path in sorted((tmp_path / "three-times-undress" / "tts").glob("*.json")):
        state = json.loads(path.read_text(encoding="utf-8"))["ObjectStates"][0]
        keys += list(state["CustomDeck"])
        ids += state.get("DeckIDs", [state.get("CardID")])
    assert len(keys) >= 3 and len(keys) == len(set(keys))
    assert all(str(i // 100) in keys for i in ids)


@pytest.mark.parametrize("url", ["ftp://example.com/x", "example.com/tts", "https://exa mple.com", "javascript:alert(1)"])
def test_a_base_url_that_is_not_http_is_refused(tmp_path, url):
    from pnpgen import PnpError

    with pytest.raises(PnpError) as caught:
        export(FIXTURES / "tts-many-cards", "tts", ExportOptions(out_dir=tmp_path, base_url=url))
    assert "expected an http or https address" in str(caught.value)
