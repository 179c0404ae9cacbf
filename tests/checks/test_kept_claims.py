"""What reading the card text gave, kept in the cache between builds: read back, it gives what a fresh check gives
and reads no sentence again; a later build reads only the sentences a save changed; a damaged file is no memo."""
import hashlib
import json

import pytest

import pnpgen
from pnpgen.checks import prose
from pnpgen.checks.cardtext import check_card_text
from pnpgen.checks.checker import check_project
from pnpgen.checks.kept_claims import decode_memos, encode_memos
from pnpgen.checks.vocabulary import build_vocabulary
from pnpgen.pipeline.build import Options, build_project
from pnpgen.project.validate import load_project

from slips import edit


def refuse_reading(*args, **kwargs):
    raise AssertionError("a sentence was read again")


@pytest.mark.parametrize("strict", [False, True])
def test_memos_read_back_give_what_a_fresh_check_gives_without_reading(project, monkeypatch, strict):
    memos: dict = {}
    fresh = check_project(load_project(project), strict=strict, memos=memos)
    kept = decode_memos(b"".join(encode_memos(memos)))
    read = {game_id for game_id, memo in memos.items() if memo.vocabulary is not None}  # a game whose texts state numbers
    assert kept.keys() == read and len(read) >= 2 and all(kept[g].claims == memos[g].claims for g in read)
    assert check_project(load_project(project), strict=strict, memos=dict(kept)) == fresh
    monkeypatch.setattr(prose, "read_span", refuse_reading)
    for game in load_project(project).games:
        if game.id in kept:
            check_card_text(game, build_vocabulary(game), strict, kept[game.id])
            assert not kept[game.id].changed


def sealed(*lines) -> bytes:
    """A file of these lines (each a JSON value) with a checksum that holds."""
    body = b"".join((line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n" for line in lines)
    return body + hashlib.sha256(body).hexdigest().encode()


GOOD_KEY = ["３枚引く。", "", "", None, "", "デッキ", False, "ja"]
GOOD_CLAIM = [[3, 0, 1, "枚", "３", ""], [None, False, [], False, False, "３枚引く。"], 0, False, False]
GOOD = ["g", "v", GOOD_KEY, [GOOD_CLAIM]]


@pytest.mark.parametrize("data", [
    b"", b"not json", sealed(b"not json"), sealed(GOOD)[:-9], sealed([1, 2, 3]), sealed({"g": 1}),
    sealed(["g", "v", GOOD_KEY, [GOOD_CLAIM[:4]]]),  # a claim short of a field
    sealed(["g", "v", GOOD_KEY[:7], [GOOD_CLAIM]]),  # a key short of a field
    sealed(["g", "v", GOOD_KEY, [[["3", 0, 1, "枚", "３", ""]] + GOOD_CLAIM[1:]]]),  # a text value
    sealed(["g", "v", GOOD_KEY, [[GOOD_CLAIM[0], [None, 1, [], False, False, ""]] + GOOD_CLAIM[2:]]]),  # number flag
    sealed(GOOD).replace(b"\\u679a", b"\\u679b"),  # checksum broken
    sealed(["g", "v", GOOD_KEY, [GOOD_CLAIM[:2] + [-1] + GOOD_CLAIM[3:]]]),  # a noun before the first
    sealed(GOOD, ["g", "w", GOOD_KEY, [GOOD_CLAIM]]),  # one game read with two vocabularies
    sealed([["g"], "v", GOOD_KEY, [GOOD_CLAIM]]),  # a game that is no name
    sealed(b"[" * 100_000 + b"]" * 100_000),  # nested deeper than json reads
], ids=["empty", "text", "a line of text", "cut short", "a list", "a mapping", "short claim", "short key",
        "text value", "number flag", "changed", "noun", "two vocabularies", "game", "deep"])
def test_a_damaged_or_foreign_file_gives_no_memo(data):
    assert decode_memos(data) == {}


def test_the_good_shape_reads_back():
    memos = decode_memos(sealed(GOOD))
    (claim,), = memos["g"].claims.values()
    assert claim.number.value == 3 and claim.context.text == "３枚引く。" and claim.noun == 0


def count_reading(monkeypatch) -> list:
    """The card text sentences read (a card's text is about its component; a rulebook's, about what it says)."""
    read = []
    real = prose.read_span

    def counted(players, span, *args, **kwargs):
        if span.subject:
            read.append(span.text)
        return real(players, span, *args, **kwargs)
    monkeypatch.setattr(prose, "read_span", counted)
    return read


def test_a_build_after_a_one_card_save_reads_only_that_cards_sentences(project, tmp_path, monkeypatch):
    options = Options(cache_dir=tmp_path / "cache", out_dir=tmp_path / "out", only="components")
    read = count_reading(monkeypatch)
    pnpgen.build(project, options)
    assert len(read) >= 5
    read.clear()
    edit(project, "games/otogi-taisen.yaml", "          - {number: 12}\n", "          - {number: 12, text: 山札から１枚引く。}\n")
    pnpgen.build(project, options)
    assert read == ["山札から１枚引く"]  # the sentence, its full stop its end
    read.clear()
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))  # `pnpgen check` reads what the build kept
    kept = pnpgen.check(project)
    assert read == []
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "another"))
    assert pnpgen.check(project) == kept and len(read) >= 5


def test_a_build_without_the_cache_keeps_no_reading(project, tmp_path):
    pnpgen.build(project, Options(cache_dir=tmp_path / "cache", out_dir=tmp_path / "out", cache=False,
                                  only="components"))
    assert not (tmp_path / "cache" / "claims").exists()


def test_what_is_kept_again_after_the_nouns_change_is_what_reading_afresh_gives(project):
    memos: dict = {}
    check_project(load_project(project), memos=memos)
    kept = decode_memos(b"".join(encode_memos(memos)))
    edit(project, "games/otogi-taisen.yaml", "    components:\n", "    components:\n      - id: spare-cards\n"
         "        name: {ja: 予備カード, en: Spare cards}\n        kind: card\n        size: poker\n"
         "        front: otogi/area.svg.j2\n        cards: [{number: 1}]\n")  # every noun after it moves up one
    check_project(load_project(project), memos=kept)
    fresh: dict = {}
    check_project(load_project(project), memos=fresh)
    again = decode_memos(b"".join(encode_memos(kept)))
    assert all(again[g].claims == fresh[g].claims and again[g].vocabulary == fresh[g].vocabulary for g in again)
    assert again["otogi-taisen"].vocabulary != memos["otogi-taisen"].vocabulary


def test_a_process_that_checks_again_starts_from_what_the_cache_keeps(project, tmp_path, monkeypatch):
    """pnpgen watch: its first build reads no sentence a build before it read, its next only the one a save
    changed; what it reads is its own (the kept file is the last one-shot build's), and its findings are a
    fresh check's."""
    options = Options(cache_dir=tmp_path / "cache", out_dir=tmp_path / "out", only="components")
    pnpgen.build(project, options)
    kept_file = next((tmp_path / "cache" / "claims").rglob("*.jsonl"))
    kept = kept_file.read_bytes()
    read = count_reading(monkeypatch)
    memos: dict = {}
    build_project(load_project(project), options, memos=memos)
    assert read == [] and all(memo.splits for memo in memos.values())
    edit(project, "games/otogi-taisen.yaml", "          - {number: 12}\n", "          - {number: 12, text: 山札から１枚引く。}\n")
    changed = load_project(project)
    build_project(changed, options, memos=memos)
    assert read == ["山札から１枚引く"]
    assert kept_file.read_bytes() == kept
    fresh = [f.as_problem() for f in check_project(changed)]
    assert [f.as_problem() for f in check_project(changed, memos=memos)] == fresh
