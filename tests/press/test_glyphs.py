"""The glyphs a PDF's forms show, merged into each font's map: the last text given for a glyph wins, whether
it came from a record copied as it is or was added directly."""
import struct

from pnpgen.faces.form import COUNT
from pnpgen.press.glyphs import Glyphs, Shown


def block(*fonts: tuple[list[int], str]) -> tuple[bytes, bytes]:
    """A form record's ID block and text for each font's (glyph IDs, text)."""
    ids = b"".join(COUNT.pack(len(gids)) + struct.pack(f">{len(gids)}H", *gids) for gids, _ in fonts)
    return ids, "".join(text for _, text in fonts).encode("utf-8")


def test_records_and_direct_adds_merge_in_the_order_they_came():
    fonts = {"a": Glyphs(1), "b": Glyphs(2)}
    shown = Shown(fonts)
    both = [fonts["a"], fonts["b"]]
    shown.add(both, *block(([3, 7], "札字"), ([3], "x")))
    shown.merge()  # as the writer does before adding directly
    fonts["a"].add(struct.pack(">H", 7), "引")  # a later form: its text for glyph 7 wins
    shown.add(both, *block(([7, 9], "引く"), ([3, 0], "y\0")))  # and this one's, later still
    shown.add([fonts["b"]], *block(([4], "z"),))
    shown.merge()
    assert fonts["a"].used() == {3: "札", 7: "引", 9: "く"}
    assert fonts["b"].used() == {3: "y", 0: "", 4: "z"}  # .notdef stands for no text


def test_a_batch_is_merged_once_full_and_nothing_is_held_after():
    fonts = {"a": Glyphs(1)}
    shown = Shown(fonts)
    for n in range(Glyphs.BATCH + 3):
        shown.add([fonts["a"]], *block(([n % 50 + 1], chr(0x4e00 + n)),))
    assert len(shown.targets) == 3 and fonts["a"].mapping  # the first batch went in when it was full
    shown.merge()
    assert not shown.targets and not shown.ids and not shown.texts
    assert fonts["a"].used() == {n % 50 + 1: chr(0x4e00 + n) for n in range(Glyphs.BATCH + 3)}
