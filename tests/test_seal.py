"""A face pack a build wrote and vouched for is sealed, and trusted by the next build while it is still that
file; a pack planted, copied, replaced, edited or touched back is read with every check, as before."""
import hashlib
import os
import shutil
import zlib
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options, packfile, seal
from pnpgen.cache import Cache, FacePack
from pnpgen.faces import art, form
from pnpgen.faces.form import FaceForm
from pnpgen.packfile import MAGIC, encode_record, read_records
from pnpgen.errors import PnpError

FIXTURES = Path(__file__).parent / "fixtures"
# Parses as a face, but names a file outside the project: trusted unchecked, the build would stop on it.
PLANTED_ART = b'{"format":1,"width":10,"height":10,"parts":[["I",0,1,1]],"fonts":[],"images":["/etc/passwd"]}'

pytestmark = pytest.mark.skipif(os.name != "posix", reason="packs are sealed only on POSIX systems")


def copy_fixture(tmp_path: Path, name: str = "minimal") -> Path:
    shutil.copytree(FIXTURES / name, tmp_path / name)
    return tmp_path / name


def build(project: Path, out: Path, cache: Path | None) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, cache_dir=cache, cache=cache is not None, check=False))


def pdfs(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def pack_of(project: Path, cache: Path) -> Path:
    return Cache(cache).pack(project).path


def forbid_checks(monkeypatch) -> list:
    """Count every check of a record's content or hash that a trusted pack spares."""
    done = []

    def counted(name, function):
        def wrapped(*args, **kwargs):
            done.append(name)
            return function(*args, **kwargs)
        return wrapped
    monkeypatch.setattr(art.FaceArt, "parse", classmethod(counted("parse", art.FaceArt.parse.__func__)))
    monkeypatch.setattr(form, "check_form", counted("check_form", form.check_form))
    monkeypatch.setattr(packfile, "holds", counted("holds", packfile.holds))
    monkeypatch.setattr("pnpgen.packindex.holds", packfile.holds)
    return done


def test_a_build_seals_its_pack_and_the_next_build_trusts_it(tmp_path, monkeypatch):
    project, cache = copy_fixture(tmp_path), tmp_path / "cache"
    build(project, tmp_path / "first", cache)
    path = pack_of(project, cache)
    assert seal.seal_path(path).read_bytes() == seal.seal_text(os.stat(path))
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    done = forbid_checks(monkeypatch)
    tweaked = build(project, tmp_path / "tweaked", cache)
    assert (tweaked.renders, tweaked.faces) == (1, 1) and done == []  # the new front; the back is the deck's
    assert FacePack(path).sealed  # the tweak's new face was made here: the pack stays sealed
    again = build(project, tmp_path / "again", cache)
    assert (again.renders, again.faces) == (0, 0) and done == []
    build(project, tmp_path / "clean", None)
    assert pdfs(tmp_path / "tweaked") == pdfs(tmp_path / "again") == pdfs(tmp_path / "clean")


def planted(path: Path) -> bytes:
    """The pack with the payload of each face's FaceArt (half of them) or form (the others) replaced by one of
    the same length whose record check holds: what a shipped cache could hold."""
    out, faces = bytearray(path.read_bytes()), 0
    with path.open("rb") as file:
        records = list(read_records(file, len(MAGIC), len(out)))
    for kind, key, position, record in records:
        payload = record[packfile.HEADER.size:-packfile.CHECK]
        if kind == b"A" and faces % 2 == 0 and len(payload) >= len(PLANTED_ART):
            fake = PLANTED_ART.ljust(len(payload))
        elif kind == b"F" and faces % 2 == 1:
            evil = FaceForm.from_bytes(payload)
            room = len(evil.content) - 11  # a stored (level 0) zlib stream is 11 bytes longer than its data
            evil.content = zlib.compress(b"<< /JS (app.alert(1)) >>".ljust(room), 0)
            fake = evil.to_bytes()
        else:
            continue
        faces += 1
        assert len(fake) == len(payload)
        out[position:position + len(record)] = encode_record(kind, key, fake)
    assert faces >= 2
    return bytes(out)


def write_back(path: Path, data: bytes, times: os.stat_result) -> None:
    """Write data in place and set the file's times back to what they were: only its change time tells."""
    with path.open("r+b") as file:
        file.write(data)
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))


@pytest.mark.parametrize("how", ["appended", "written into", "replaced", "copied to another cache"])
def test_a_sealed_pack_touched_by_anyone_else_is_checked_again(tmp_path, how):
    project, cache = copy_fixture(tmp_path), tmp_path / "cache"
    build(project, tmp_path / "first", cache)
    path = pack_of(project, cache)
    times, fake = os.stat(path), planted(path)
    if how == "appended":
        with path.open("rb") as file:
            records = list(read_records(file, len(MAGIC), times.st_size))
        with path.open("ab") as file:  # a later record of a key is the one read
            file.write(b"".join(encode_record(b"A", key, PLANTED_ART) for kind, key, _, _ in records if kind == b"A"))
    elif how == "written into":
        write_back(path, fake, times)
    elif how == "replaced":
        beside = path.with_name("planted")
        beside.write_bytes(fake)
        os.utime(beside, ns=(times.st_atime_ns, times.st_mtime_ns))
        os.replace(beside, path)
    else:
        cache = tmp_path / "shipped" / ".cache"
        shutil.copytree(tmp_path / "cache", cache)  # the seal too, word for word
        write_back(pack_of(project, cache), fake, times)
    assert os.stat(path).st_size == times.st_size or how == "appended"
    assert not FacePack(pack_of(project, cache)).sealed
    again = build(project, tmp_path / "again", cache)
    build(project, tmp_path / "clean", None)
    assert b"/JS" not in b"".join(pdfs(tmp_path / "again").values())
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "clean") == pdfs(tmp_path / "first")
    assert again.faces >= 1  # the planted faces are misses: converted again
    assert FacePack(pack_of(project, cache)).sealed  # what this build wrote, it vouches for


def test_saving_a_record_nobody_checked_leaves_the_pack_unsealed(tmp_path):
    project, cache = copy_fixture(tmp_path), tmp_path / "cache"
    build(project, tmp_path / "first", cache)
    path = pack_of(project, cache)
    pack = FacePack(path)
    assert pack.sealed
    with path.open("rb") as file:
        arts = [key.hex() for kind, key, _, _ in read_records(file, len(MAGIC), path.stat().st_size) if kind == b"A"]
    pack.put(b"A", arts[0], PLANTED_ART)
    pack.save()
    assert not seal.seal_path(path).exists() and not FacePack(path).sealed
    again = build(project, tmp_path / "again", cache)
    assert again.faces == 1
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "first")


def test_an_unused_record_nobody_checked_is_dropped_when_the_pack_is_sealed(tmp_path):
    path = tmp_path / "faces" / "p.pack"
    pack = FacePack(path)
    keys = [hashlib.sha256(bytes([n])).hexdigest() for n in range(3)]
    for key in keys:
        pack.put(b"A", key, b"{}")
    pack.checked.add(keys[0])
    pack.save()  # a record put unchecked: no seal
    assert not FacePack(path).sealed
    pack = FacePack(path)
    assert pack.art_bytes(keys[0]) == b"{}"
    pack.checked.add(keys[0])  # as load_art does once the record parsed
    pack.record_face(keys[2], keys[0])
    pack.save()
    kept = FacePack(path)
    assert kept.sealed and kept.has_face(keys[0]) and not kept.has_face(keys[1]) and kept.face_key(keys[2]) == keys[0]


def test_a_pack_replaced_while_it_is_sealed_gets_no_seal(tmp_path, monkeypatch):
    """A build that saves at the same time replaced the pack between our rename and our seal."""
    path = tmp_path / "faces" / "p.pack"
    written = seal.write_atomically

    def and_replaced(target, data, *args, **kwargs):
        written(target, data, *args, **kwargs)
        if Path(target) == path:
            written(path, path.read_bytes(), "face cache", durable=False)
    monkeypatch.setattr(seal, "write_atomically", and_replaced)
    pack = FacePack(path)
    pack.put(b"A", "ab" * 32, b"{}")
    pack.checked.add("ab" * 32)
    pack.save()
    assert path.exists() and not seal.seal_path(path).exists()


@pytest.mark.parametrize("bad", ["garbage", "huge", "a link", "a fifo", "a folder"])
def test_a_bad_seal_is_no_seal(tmp_path, bad):
    project, cache = copy_fixture(tmp_path), tmp_path / "cache"
    build(project, tmp_path / "first", cache)
    path = pack_of(project, cache)
    where = seal.seal_path(path)
    good = where.read_bytes()
    where.unlink()
    if bad == "garbage":
        where.write_bytes(os.urandom(100))
    elif bad == "huge":
        where.write_bytes(good + b"\n" * (1 << 20))
    elif bad == "a link":  # to a seal that would match
        (tmp_path / "elsewhere").write_bytes(good)
        where.symlink_to(tmp_path / "elsewhere")
    elif bad == "a fifo":
        os.mkfifo(where)
    else:
        where.mkdir()
    assert not FacePack(path).sealed
    cards = project / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    build(project, tmp_path / "again", cache)
    build(project, tmp_path / "clean", None)
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "clean")
    assert (tmp_path / "elsewhere").read_bytes() == good if bad == "a link" else True


@pytest.mark.parametrize("swap", ["a link out of the project", "a decompression bomb"])
def test_a_warm_sealed_cache_still_refuses_a_swapped_image(tmp_path, swap):
    from PIL import Image

    project, cache = copy_fixture(tmp_path, "images"), tmp_path / "cache"
    build(project, tmp_path / "out", cache)
    assert FacePack(pack_of(project, cache)).sealed
    image = project / "images" / "seal.png"
    if swap == "a link out of the project":
        (tmp_path / "outside").mkdir()
        shutil.copy(image, tmp_path / "outside" / "seal.png")  # the same bytes
        image.unlink()
        image.symlink_to(tmp_path / "outside" / "seal.png")
        expected = '<image href="images/seal.png"> points outside the project folder'
    else:
        Image.new("1", (9000, 9000)).save(image)
        expected = "image 'images/seal.png' is too large to be a picture"
    for out in ("out", "fresh-out"):
        with pytest.raises(PnpError) as refused:
            build(project, tmp_path / out, cache)
        assert expected in str(refused.value)
