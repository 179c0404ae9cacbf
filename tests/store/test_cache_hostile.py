"""The face cache is not trusted: planted entries run nothing, a shared folder is refused, and what a warm
cache remembers (fonts, images) is checked again as in a fresh build."""
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import zlib

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.errors import PnpError
from pnpgen.faces.form import FaceForm
from pnpgen.store import records
from pnpgen.store.cache import Cache

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ROOT = Path(__file__).resolve().parents[2]


class Plant:
    """Unpickling this runs `touch marker`: what an attacker would put in a shared cache."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def copy_fixture(tmp_path: Path, name: str) -> Path:
    target = tmp_path / f"project-{name}"
    shutil.copytree(FIXTURES / name, target)
    return target


def pdfs(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def cli_build(project: Path, out: Path, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PNPGEN_CACHE=str(cache), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pnpgen", "build", str(project), "-o", str(out)],
                          env=env, capture_output=True, text=True, timeout=180)


def test_planted_pickles_run_nothing(tmp_path):
    project = copy_fixture(tmp_path, "minimal")
    cache, marker = tmp_path / "cache", tmp_path / "marker"
    evil = pickle.dumps(Plant(marker))
    pnpgen.build(project, Options(out_dir=tmp_path / "clean", cache_dir=tmp_path / "clean-cache"))
    # Where the old cache kept pickles, and the pack itself, both hold the planted payload.
    for where in ("drawing/ab/" + "ab" * 32 + ".pickle", "svg/ab/" + "ab" * 32 + ".svg"):
        (cache / where).parent.mkdir(parents=True, exist_ok=True)
        (cache / where).write_bytes(evil)
    pack_path = Cache(cache).pack(project).path
    pack_path.parent.mkdir(parents=True, exist_ok=True)
    pack_path.write_bytes(evil)
    pack_path.with_name(pack_path.name + "-journal").write_bytes(evil)  # a hot journal, as SQLite would roll back
    cache.chmod(0o700)
    result = cli_build(project, tmp_path / "out", cache)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert pdfs(tmp_path / "out") == pdfs(tmp_path / "clean")


def plant(path: Path, kind: bytes, key: bytes, payload: bytes) -> None:
    """Write a record whose checksum holds: what someone who knows the format could ship in a cache."""
    with sqlite3.connect(path) as db:
        db.execute(records.WRITE, (kind, key, payload, records.checksum(kind, key, payload)))


def records_of(path: Path, kind: bytes) -> list[tuple[bytes, bytes]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT key, payload FROM records WHERE kind = ?", (kind,)).fetchall()


def test_records_with_good_checks_but_planted_payloads_are_misses(tmp_path):
    """An attacker who knows the format writes records whose checks hold: payloads are still only parsed, and a
    well-formed form naming a file outside the project is checked as a fresh face's image would be."""
    project = copy_fixture(tmp_path, "minimal")
    cache, marker = tmp_path / "cache", tmp_path / "marker"
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=cache))
    path = Cache(cache).pack(project).path
    payloads = [pickle.dumps(Plant(marker)), b'{"format":2,"width":10,"height":10,"parts":["(stolen) Tj"],'
                                             b'"fonts":[],"images":[]}',
                FaceForm(10.0, 10.0, zlib.compress(b"q 10 0 0 10 0 0 cm /I0 Do Q"), images=("/etc/passwd",)).to_bytes()]
    forms = [key for key, _ in records_of(path, b"F")]
    for number, key in enumerate(forms):
        plant(path, b"F", key, payloads[number % len(payloads)])
    again = pnpgen.build(project, Options(out_dir=tmp_path / "second", cache_dir=cache))
    assert not marker.exists()
    assert again.faces == len(forms)  # every planted face painted again from its template
    assert pdfs(tmp_path / "first") == pdfs(tmp_path / "second")


def test_planted_forms_with_good_checks_never_reach_a_pdf(tmp_path):
    """A form record (the bytes a PDF copies) whose checksum holds but which carries a script is made again."""
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "cache"
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=cache))
    path = Cache(cache).pack(project).path
    forms = records_of(path, b"F")
    for key, payload in forms:
        evil = FaceForm.from_bytes(payload)
        evil.content = zlib.compress(b"<< /JS (app.alert(1)) >> BT /F0 5 Tf (smuggled) Tj ET")
        plant(path, b"F", key, evil.to_bytes())
    pnpgen.build(project, Options(out_dir=tmp_path / "again", cache_dir=cache))
    assert forms and b"/JS" not in b"".join(pdfs(tmp_path / "again").values())
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "first")


def test_a_cache_folder_others_can_write_to_is_refused_and_the_build_goes_on_without_it(tmp_path):
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "shared-cache"
    cache.mkdir()
    cache.chmod(0o777)
    result = cli_build(project, tmp_path / "out", cache)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert (f"note: cache folder {cache} can be written by other users (mode 777); expected a folder only you can "
            f"write to: run `chmod go-w {cache}`, set PNPGEN_CACHE to a folder of your own, or build with --no-cache "
            "(this build goes on without the cache)" in result.stdout)
    assert list(cache.iterdir()) == []  # nothing read from it, nothing written into it
    report = pnpgen.build(project, Options(out_dir=tmp_path / "again", cache_dir=cache))
    assert report.renders == 4 and [n for n in report.notes if "can be written by other users" in n]
    assert list(cache.iterdir()) == [] and pdfs(tmp_path / "again") == pdfs(tmp_path / "out")


@pytest.mark.parametrize("bad", ["writable by others", "a link", "a folder"])
def test_a_face_cache_file_not_the_users_alone_is_refused_and_left_alone(tmp_path, bad):
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "cache"
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=cache))
    path = Cache(cache).pack(project).path
    if bad == "writable by others":
        path.chmod(0o666)
    elif bad == "a link":  # to a pack that would answer every face
        path.rename(tmp_path / "elsewhere.sqlite")
        path.symlink_to(tmp_path / "elsewhere.sqlite")
    else:
        path.unlink()
        path.mkdir()
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.sqlite") if p.is_file() and not p.is_symlink()}
    report = pnpgen.build(project, Options(out_dir=tmp_path / "again", cache_dir=cache))
    assert (report.renders, report.faces) == (4, 4)  # nothing read from it
    assert [n for n in report.notes if n.startswith(f"face cache {path} ")]
    assert {p: p.read_bytes() for p in before} == before  # nor written
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "first")


def test_a_pack_locked_by_another_build_costs_hits_never_the_build(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "WAIT", 0.2)
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "cache"
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=cache))
    path = Cache(cache).pack(project).path
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process writing, and writing, and writing
    try:
        locked = pnpgen.build(project, Options(out_dir=tmp_path / "locked", cache_dir=cache))
    finally:
        other.execute("ROLLBACK")
        other.close()
    pnpgen.build(project, Options(out_dir=tmp_path / "clean", cache=False))
    assert locked.renders >= 1 and pdfs(tmp_path / "locked") == pdfs(tmp_path / "clean")
    after = pnpgen.build(project, Options(out_dir=tmp_path / "after", cache_dir=cache))
    assert after.renders == 1 and pdfs(tmp_path / "after") == pdfs(tmp_path / "clean")  # the tweak, not saved then


def test_a_read_only_pack_is_read_and_the_build_goes_on(tmp_path, monkeypatch):
    """As on a read-only disk (root writes any file, so the pack is opened read-only here)."""
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "cache"
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=cache))
    path = Cache(cache).pack(project).path
    before = path.read_bytes()
    opened = records.sqlite3.connect

    def read_only(name, *args, **kwargs):
        if name == str(path):
            return opened(f"file:{name}?mode=ro", *args, uri=True, **kwargs)
        return opened(name, *args, **kwargs)
    monkeypatch.setattr(records.sqlite3, "connect", read_only)
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    tweaked = pnpgen.build(project, Options(out_dir=tmp_path / "tweaked", cache_dir=cache))
    assert (tweaked.renders, tweaked.faces) == (1, 1)  # the rest read from the pack, which stays as it was
    assert path.read_bytes() == before
    pnpgen.build(project, Options(out_dir=tmp_path / "clean", cache=False))
    assert pdfs(tmp_path / "tweaked") == pdfs(tmp_path / "clean")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a folder away")
def test_a_cache_folder_of_another_user_is_refused(tmp_path):
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "their-cache"
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    report = pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache))
    assert report.renders == 4 and [n for n in report.notes if "belongs to another user (uid 65534)" in n]
    assert list(cache.iterdir()) == []


def test_a_new_cache_folder_is_private(tmp_path):
    project = copy_fixture(tmp_path, "minimal")
    pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "new" / "cache"))
    assert (tmp_path / "new" / "cache").stat().st_mode & 0o077 == 0


def test_a_warm_cache_refuses_an_image_now_symlinked_out_of_the_project(tmp_path):
    project = copy_fixture(tmp_path, "images")
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache))
    outside.mkdir()
    seal = project / "images" / "seal.png"
    shutil.copy(seal, outside / "seal.png")  # the same bytes: every render key stays the same
    seal.unlink()
    seal.symlink_to(outside / "seal.png")
    for out in ("out", "fresh-out"):  # the same output folder, and one the warm cache must fill
        with pytest.raises(PnpError) as refused:
            pnpgen.build(project, Options(out_dir=tmp_path / out, cache_dir=cache))
        assert '<image href="images/seal.png"> points outside the project folder; expected a path inside it' in str(refused.value)


def test_a_warm_cache_refuses_an_image_replaced_by_a_decompression_bomb(tmp_path):
    from PIL import Image

    project = copy_fixture(tmp_path, "images")
    cache = tmp_path / "cache"
    pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache))
    Image.new("1", (9000, 9000)).save(project / "images" / "seal.png")
    with pytest.raises(PnpError, match="image 'images/seal.png' is too large to be a picture"):
        pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache))


def test_a_copied_project_prints_its_own_pictures(tmp_path):
    from PIL import Image

    original = copy_fixture(tmp_path, "images")
    cache = tmp_path / "cache"
    pnpgen.build(original, Options(out_dir=tmp_path / "original", cache_dir=cache))
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    Image.new("RGB", (32, 32), "blue").save(copy / "images" / "seal.png")
    pnpgen.build(copy, Options(out_dir=tmp_path / "copy-shared", cache_dir=cache))
    pnpgen.build(copy, Options(out_dir=tmp_path / "copy-clean", cache_dir=tmp_path / "fresh-cache"))
    assert pdfs(tmp_path / "copy-shared") == pdfs(tmp_path / "copy-clean")
    assert pdfs(tmp_path / "copy-shared") != pdfs(tmp_path / "original")
