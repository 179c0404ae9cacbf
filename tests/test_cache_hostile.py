"""The face cache is not trusted: planted entries run nothing, a shared folder is refused, and what a warm
cache remembers (fonts, images) is checked again as in a fresh build."""
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.cache import Cache, FacePack
from pnpgen.packfile import MAGIC, read_records
from pnpgen.errors import PnpError

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent


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
    cache.chmod(0o700)
    result = cli_build(project, tmp_path / "out", cache)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert pdfs(tmp_path / "out") == pdfs(tmp_path / "clean")


def test_records_with_good_checks_but_planted_payloads_are_misses(tmp_path):
    """An attacker who knows the format writes records whose checks hold: payloads are still only parsed."""
    project = copy_fixture(tmp_path, "minimal")
    cache, marker = tmp_path / "cache", tmp_path / "marker"
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=cache))
    path = Cache(cache).pack(project).path
    payloads = [pickle.dumps(Plant(marker)), b'{"format":1,"width":10,"height":10,"parts":["(stolen) Tj"],'
                                             b'"fonts":[],"images":[]}',
                b'{"format":1,"width":10,"height":10,"parts":[["I",0,1,1]],"fonts":[],"images":["/etc/passwd"]}']
    with path.open("rb") as file:
        arts = [key.hex() for kind, key, _, _ in read_records(file, len(MAGIC), path.stat().st_size)
                if kind == b"A"]
    pack = FacePack(path)
    for number, key in enumerate(arts):
        pack.put(b"A", key, payloads[number % len(payloads)])
    pack.save()
    again = pnpgen.build(project, Options(out_dir=tmp_path / "second", cache_dir=cache))
    assert not marker.exists()
    assert again.faces == len(arts)  # every planted face converted again from its template
    assert pdfs(tmp_path / "first") == pdfs(tmp_path / "second")


def test_a_cache_folder_others_can_write_to_is_refused(tmp_path):
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "shared-cache"
    cache.mkdir()
    cache.chmod(0o777)
    result = cli_build(project, tmp_path / "out", cache)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert (f"cache folder {cache} can be written by other users (mode 777); expected a folder only you can "
            f"write to: run `chmod go-w {cache}`, set PNPGEN_CACHE to a folder of your own, or build with --no-cache"
            in result.stderr)
    assert not (tmp_path / "out").exists()
    with pytest.raises(PnpError, match="can be written by other users"):
        pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache))
    assert pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache, cache=False)).written


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a folder away")
def test_a_cache_folder_of_another_user_is_refused(tmp_path):
    project = copy_fixture(tmp_path, "minimal")
    cache = tmp_path / "their-cache"
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    with pytest.raises(PnpError, match=r"belongs to another user \(uid 65534\)"):
        pnpgen.build(project, Options(out_dir=tmp_path / "out", cache_dir=cache))


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
