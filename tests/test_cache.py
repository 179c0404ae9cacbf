"""The content-hash cache: a rebuild re-renders nothing, a tweak re-renders exactly the changed card."""
import shutil
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture()
def project(tmp_path):
    target = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", target)
    return target


def build(project: Path, out: Path, cache_dir: Path, **options) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache_dir, **options))


def pdf_bytes(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def test_a_second_build_renders_converts_and_writes_nothing(project, tmp_path):
    first = build(project, tmp_path / "out", tmp_path / "cache")
    # 3 fronts and 1 back: the back reads only the title, so the cards share it and it renders once
    assert first.renders == 4 and first.faces == 4
    second = build(project, tmp_path / "out", tmp_path / "cache")
    assert (second.renders, second.faces, second.written) == (0, 0, [])
    assert sorted(second.unchanged) == sorted(first.written)


def test_a_fresh_output_folder_reuses_the_cache_and_gets_identical_pdfs(project, tmp_path):
    build(project, tmp_path / "a", tmp_path / "cache")
    again = build(project, tmp_path / "b", tmp_path / "cache")
    assert (again.renders, again.faces) == (0, 0) and len(again.written) == 2
    assert pdf_bytes(tmp_path / "a") == pdf_bytes(tmp_path / "b")


def test_a_tweak_re_renders_exactly_the_changed_card(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    tweaked = build(project, tmp_path / "out", tmp_path / "cache")
    assert tweaked.renders == 2  # the shield's front and back
    assert tweaked.faces == 1  # its new front; its back looks as before
    assert {p.name for p in tweaked.written} == {"deck.pdf", "tiny-print-and-play.pdf"}
    build(project, tmp_path / "clean", tmp_path / "other-cache")
    assert pdf_bytes(tmp_path / "out") == pdf_bytes(tmp_path / "clean")


def test_a_template_change_re_renders_every_face_using_the_templates(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    back = project / "templates" / "back.svg.j2"
    back.write_text(back.read_text(encoding="utf-8").replace("#234", "#432"), encoding="utf-8")
    changed = build(project, tmp_path / "out", tmp_path / "cache")
    assert changed.renders == 4 and changed.faces == 1  # fronts render to the same SVG: only the new back converts


def test_a_deleted_or_edited_output_is_written_again(project, tmp_path):
    first = build(project, tmp_path / "out", tmp_path / "cache")
    deck = tmp_path / "out" / "tiny" / "deck.pdf"
    good = deck.read_bytes()
    deck.write_bytes(b"%PDF-1.4 truncated")
    again = build(project, tmp_path / "out", tmp_path / "cache")
    assert again.written == [deck] and deck.read_bytes() == good
    deck.unlink()
    assert build(project, tmp_path / "out", tmp_path / "cache").written == [deck]
    assert first.renders == 4


def test_without_the_cache_everything_is_rendered_and_written(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    uncached = build(project, tmp_path / "out", tmp_path / "cache", cache=False)
    assert uncached.renders == 4 and len(uncached.written) == 2


def packs(cache: Path) -> list[Path]:
    found = sorted(cache.rglob("*.pack"))
    assert found, "the build wrote no face pack"
    return found


@pytest.mark.parametrize("damage", ["flip a payload byte", "truncate", "garbage", "empty"])
def test_a_damaged_pack_is_a_miss_not_an_error(project, tmp_path, damage):
    build(project, tmp_path / "a", tmp_path / "cache")
    for pack in packs(tmp_path / "cache"):
        data = bytearray(pack.read_bytes())
        if damage == "flip a payload byte":
            data[len(data) // 2] ^= 0x20
        elif damage == "truncate":
            data = data[: len(data) // 3]
        elif damage == "garbage":
            data = bytearray(b"not a pack" * 100)
        else:
            data = bytearray()
        pack.write_bytes(bytes(data))
    again = build(project, tmp_path / "b", tmp_path / "cache")
    assert again.faces >= 1 and again.renders >= 1
    assert pdf_bytes(tmp_path / "a") == pdf_bytes(tmp_path / "b")


def test_the_cache_holds_no_pickles_and_few_files(project, tmp_path):
    build(project, tmp_path / "out", tmp_path / "cache")
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert len(files) == 1 and files[0].suffix == ".pack"
    assert b"\x80\x05" not in files[0].read_bytes()[:2] and files[0].read_bytes().startswith(b"pnpgen faces 1\n")


def test_a_warm_cache_works_in_a_fresh_process(tmp_path):
    """Drawings from the cache name fonts that only the process which converted them had registered."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PNPGEN_CACHE=str(tmp_path / "cache"))
    for out in ("first", "second"):
        result = subprocess.run([sys.executable, "-m", "pnpgen", "build", str(FIXTURES / "minimal"), "-o", str(tmp_path / out)],
                                env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    assert "0 converted" in result.stdout
    assert pdf_bytes(tmp_path / "first") == pdf_bytes(tmp_path / "second")


def test_faces_made_on_two_cores_give_the_same_pdfs_and_counts(tmp_path, monkeypatch):
    """Above PARALLEL_CARDS distinct cards a helper process renders every other card into the pack."""
    from pnpgen import ahead

    project = tmp_path / "many"
    shutil.copytree(FIXTURES / "minimal", project)
    cards = "\n".join(f"          - {{name: カード{n}, number: {n % 9 + 1}, effect: 効果{n}}}" for n in range(240))
    text = (project / "cards.yaml").read_text(encoding="utf-8")
    start, end = text.index("        cards:\n"), text.index("    expectations:")
    (project / "cards.yaml").write_text(text[:start] + "        cards:\n" + cards + "\n" + text[end:], encoding="utf-8")
    reports = {}
    for parallel in (True, False):
        monkeypatch.setattr(ahead, "PARALLEL_CARDS", 200 if parallel else 10 ** 9)
        reports[parallel] = build(project, tmp_path / f"out-{parallel}", tmp_path / f"cache-{parallel}", check=False)
    # 240 fronts and 1 back shared by all, rendered before the helper starts
    assert (reports[True].renders, reports[True].faces) == (reports[False].renders, reports[False].faces) == (241, 241)
    assert pdf_bytes(tmp_path / "out-True") == pdf_bytes(tmp_path / "out-False")
    again = build(project, tmp_path / "again", tmp_path / "cache-True", check=False)
    assert (again.renders, again.faces) == (0, 0)  # the helper's faces reached the pack on disk
    assert pdf_bytes(tmp_path / "again") == pdf_bytes(tmp_path / "out-True")


def test_cards_that_agree_on_what_a_template_reads_share_its_face(project, tmp_path):
    """The back reads no card field: one render for the deck. A front that reads `name` only renders once per
    name; any card that differs in a field the template read renders again."""
    (project / "templates" / "back.svg.j2").write_text(
        '<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="{{ card.get(\'colour\', \'#234\') }}"/>',
        encoding="utf-8")
    first = build(project, tmp_path / "a", tmp_path / "cache-a", check=False)
    assert first.renders == 4  # 3 fronts; 1 back: get('colour') found no colour on any card
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾,", "name: 盾, colour: '#800',"), encoding="utf-8")
    second = build(project, tmp_path / "b", tmp_path / "cache-b", check=False)
    assert second.renders == 5 and second.faces == 5  # the shield now has a back of its own
    clean = pnpgen.build(project, Options(out_dir=tmp_path / "c", cache=False, check=False))
    assert clean.renders == 5 and pdf_bytes(tmp_path / "b") == pdf_bytes(tmp_path / "c")


def test_shared_repr_is_repr_of_pages_that_share_their_marks():
    """pdf_digest hashes shared_repr(pages): the very text repr gives, whatever the pages share."""
    from pnpgen.cache import shared_repr
    from pnpgen.press.impose import Item, SheetSpec, impose
    from pnpgen.project.model import Size
    from pnpgen.units import mm

    card = Size(mm(63), mm(88))
    for spec in (SheetSpec(Size(mm(210), mm(297))), SheetSpec(Size(mm(210), mm(297)), gutterfold=True),
                 SheetSpec(Size(mm(210), mm(297)), duplex="short", back_offset=(mm(1), mm(-0.5)))):
        pages = impose([Item(f"front{n}", "back" if n % 3 else None, card, f"#{n}") for n in range(40)], spec)
        assert pages[0].marks is pages[2].marks or spec.gutterfold or spec.back_offset != (0.0, 0.0)
        assert shared_repr(pages) == repr(pages)
    assert shared_repr([]) == "[]"
