"""Property-based tests (hypothesis): random card data, sizes and Unicode text through the whole pipeline end in
a valid PDF or a PnpError whose every problem has a message and a sane location, never another exception;
break_lines keeps kinsoku and loses no text; fit_text fits its box or says it cannot.

Strategies avoid nothing. A bug they find is reported, reproduced below in an xfail(strict=True) test, and listed
in KNOWN_BUGS so that the property stays green meanwhile: when a bug is fixed its xfail starts to pass; then
drop the mark and its KNOWN_BUGS entry."""
from __future__ import annotations

import math
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from lxml import etree
from pypdf import PdfReader

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.faces.font import font_named
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.faces.linebreak import CJK, NO_LINE_END, NO_LINE_START, break_lines
from pnpgen.faces.text import TextDoesNotFit, em_measure, fit_text

REPO = Path(__file__).resolve().parents[1]
STAR = (REPO / "tests" / "fixtures" / "minimal" / "templates" / "icons" / "star.svg").read_text(encoding="utf-8")
PIPELINE = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
UNIT = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])

# --- strategies ------------------------------------------------------------------------------------------------

JAPANESE = "あいうえおかきくけこアイウエオ漢字日本語闘牌霊峰。、「」『』（）ー…・！？ぁっゃ々〜　"
PIECES = [
    ":star:", ":nope:", "\n", "\t", " ", "\u3000", "<&>\"'", "]]>", "{{ card }}", "{% raw %}", "&amp;", "\x00",
    "\x1b[2J", "\r", "\x7f", "\x85", "\u2028", "\ufeff", "\u200b", "\ufffe", "\uffff", "\ud800", "🀄", "👨\u200d👩\u200d👧",
    "e\u0301\u0301", "\u202e", "\U000f0000", "x" * 400, "超長い単語" * 40, "supercalifragilistic" * 15,
]
any_char = st.characters(exclude_categories=())  # surrogates (Cs) included
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(JAPANESE, max_size=20), st.text(any_char, max_size=12),
                           st.from_regex(r"[A-Za-z]{1,40}[.,!?]?", fullmatch=True)), max_size=8).map("".join)
numbers = st.one_of(st.integers(-1000, 1000), st.integers(-(10**40), 10**40), st.floats(allow_nan=True, allow_infinity=True))
scalars = st.one_of(texts, numbers, st.booleans(), st.none())
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=6)
lengths_mm = st.one_of(st.sampled_from([1.0, 5.0, 63.0, 88.0, 300.0, 2000.0, 2500.0]), st.floats(0.5, 2500))
sizes = st.one_of(st.sampled_from(["poker", "mini", "square"]),
                  st.builds(lambda w, h: {"width": f"{w:.2f}mm", "height": f"{h:.2f}mm"}, lengths_mm, lengths_mm))
cards = st.lists(st.fixed_dictionaries({"name": values, "body": values, "x": numbers, "copies": st.integers(0, 5)}),
                 min_size=1, max_size=3)
ROOMY = {"x": 3.0, "y": 3.0, "w": 50.0, "h": 40.0, "size": 9.0, "min_size": 2.0, "align": "left", "valign": "top"}
boxes = st.one_of(st.just(ROOMY), st.fixed_dictionaries({
    "x": st.floats(-10, 100), "y": st.floats(-10, 100), "w": st.floats(-5, 300), "h": st.floats(-5, 300),
    "size": st.floats(0.5, 72), "min_size": st.floats(0, 72),
    "align": st.sampled_from(["left", "center", "right"]), "valign": st.sampled_from(["top", "middle", "bottom"]),
}))

# --- known bugs (each reproduced by an xfail test below; remove the entry when its xfail is flipped) -------------

XML_INVALID = re.compile("[\ud800-\udfff\ufffe\uffff]")
NONFINITE = re.compile(rb"(?:^|[\s\[])-?(?:nan|inf)(?=[\s\]])")


def known_bug(error: BaseException | None, cards_data: list, box: dict | None = None) -> str | None:
    """The xfail test reproducing this failure, when it is a reported bug; None for a new one."""
    # Every bug these properties found is fixed; a new one is listed here with its reproducing xfail test.
    return None


def flatten(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from flatten(item)
    elif isinstance(value, list):
        for item in value:
            yield from flatten(item)
    else:
        yield value


def is_infinite(value) -> bool:
    return isinstance(value, float) and math.isinf(value)


# --- the pipeline ------------------------------------------------------------------------------------------------


def write_project(root: Path, cards_data: list, size, kind: str, box: dict) -> None:
    (root / "templates" / "icons").mkdir(parents=True)
    (root / "templates" / "icons" / "star.svg").write_text(STAR, encoding="utf-8")
    options = ", ".join(f"{k}={box[k]!r}" for k in ("size", "min_size", "align", "valign"))
    (root / "templates" / "front.svg.j2").write_text(
        '<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#fed"/>\n'
        f'{{{{ text(card.name, {box["x"]!r}, {box["y"]!r}, {box["w"]!r}, {box["h"]!r}, {options}) }}}}\n'
        '<rect x="{{ card.x }}" y="1" width="1" height="1" fill="#000"/>\n', encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(
        '{{ text(card.body, 1, 1, W - 2, H - 2, size=8, min_size=2) }}\n', encoding="utf-8")
    component = {"id": "deck", "kind": kind, "size": size, "front": "front.svg.j2", "back": "back.svg.j2",
                 "cards": cards_data}
    project = {"games": [{"id": "g", "title": "G", "components": [component]}]}
    (root / "cards.yaml").write_text(yaml.safe_dump(project, allow_unicode=True), encoding="utf-8")


def assert_clear(error: PnpError) -> None:
    assert error.problems
    for problem in error.problems:
        assert problem.message.strip() and "Traceback" not in problem.message
        assert "\n" not in problem.message, problem.message
        location = problem.location
        if location is not None:
            assert location.file and location.line >= 0
            if location.line:
                assert location.line >= 1 and location.col >= 1


def content_streams(reader: PdfReader):
    for page in reader.pages:
        if page.get_contents() is not None:
            yield page.get_contents().get_data()
        for xobject in (page.get("/Resources", {}).get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                yield xobject.get_data()


def run_pipeline(cards_data: list, size, kind: str, box: dict) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root, out = Path(folder) / "project", Path(folder) / "out"
        write_project(root, cards_data, size, kind, box)
        try:
            report = pnpgen.build(root, Options(out_dir=out, cache_dir=Path(folder) / "cache"))
        except PnpError as error:
            bug = known_bug(error, cards_data, box)
            event(f"known bug: {bug}" if bug else "a clear error")
            if not bug:
                assert_clear(error)
            return
        except Exception as error:  # anything else is a bug; only reported ones are tolerated
            bug = known_bug(error, cards_data, box)
            if not bug:
                raise
            event(f"known bug: {bug}")
            return
        pdfs = sorted(out.rglob("*.pdf"))
        assert len(pdfs) == 2
        for pdf in pdfs:
            reader = PdfReader(pdf)
            assert len(reader.pages) >= (1 if report.pieces else 0)
            if any(NONFINITE.search(data) for data in content_streams(reader)):
                assert any(isinstance(v, float) and math.isnan(v) for card in cards_data for v in flatten(card)), pdf
                event("known bug: test_a_nan_coordinate_never_reaches_the_pdf")
                return
        event(f"a PDF ({report.pieces} pieces)" if report.pieces < 2 else "a PDF (2+ pieces)")


@PIPELINE
@given(cards_data=cards, size=sizes, kind=st.sampled_from(["card", "chip", "map"]), box=boxes)
@example(cards_data=[{"name": "「闘牌」、ロン！" * 30, "body": ":star:" * 50, "x": 5, "copies": 2}], size="poker",
         kind="card", box={"x": 3.0, "y": 3.0, "w": 57.0, "h": 20.0, "size": 14.0, "min_size": 6.0, "align": "center",
                           "valign": "middle"})
@example(cards_data=[{"name": "x", "body": None, "x": 0, "copies": 1}], size={"width": "1.00mm", "height": "1.00mm"},
         kind="chip", box={"x": 0.0, "y": 0.0, "w": 0.5, "h": 0.5, "size": 9.0, "min_size": 1.0, "align": "left",
                           "valign": "top"})
def test_random_cards_build_a_valid_pdf_or_a_clear_error(cards_data, size, kind, box):
    run_pipeline(cards_data, size, kind, box)


@PIPELINE
@given(name=texts, body=texts)
def test_random_unicode_text_builds_a_valid_pdf_or_a_clear_error(name, body):
    """Any text in a roomy box: only text() itself is under test (shrinking, wrapping, escaping, icons)."""
    run_pipeline([{"name": name, "body": body, "x": 1, "copies": 1}], "poker", "card", {**ROOMY, "h": 82.0, "min_size": 1.0})


# --- text alone --------------------------------------------------------------------------------------------------

BOOK = FontBook([BUNDLED_FONTS])
FONT = BOOK.resolve(None)
MEASURE = em_measure(font_named(FONT))


UNITS = re.compile(f"[ \\t]+|[{CJK}]|[^ \\t{CJK}]+")  # space runs, CJK characters, runs of anything else


def units_of(line: str) -> int:
    return len(UNITS.findall(line))


@UNIT
@given(text=texts, width=st.floats(0.01, 40))
@example(text="「あいうえお」、かきくけこ。さしすせそ", width=3.0)
@example(text="word, word. (word) 「語」", width=2.0)
@example(text="。。。。", width=1.0)
@example(text="\u00a0", width=1.0)  # a no-break space is text: printed, never dropped
def test_break_lines_keeps_kinsoku_and_loses_no_text(text: str, width: float):
    lines = break_lines(text, width, MEASURE)
    paragraphs = [break_lines(p, width, MEASURE) for p in text.split("\n")]
    assert lines == [line for paragraph in paragraphs for line in paragraph]
    dropped = str.maketrans("", "", " \t\n")
    assert "".join(lines).translate(dropped) == text.translate(dropped)
    for line in lines:
        assert MEASURE(line) <= width + 1e-6 or len(line) == 1, (line, width)
    for paragraph in paragraphs:
        for before, after in zip(paragraph, paragraph[1:]):
            if units_of(before) > 1:  # a one-unit line has no earlier break to move to
                assert after[:1] not in NO_LINE_START, (before, after)
                assert before[-1:] not in NO_LINE_END, (before, after)


@UNIT
@given(text=texts, w=st.floats(0, 120), h=st.floats(0, 120), size=st.floats(0.5, 72), min_size=st.floats(0, 72),
       align=st.sampled_from(["left", "center", "right"]))
def test_fit_text_fits_its_box_or_says_it_cannot(text, w, h, size, min_size, align):
    """It fits, or says it cannot; a type size outside 1–1000 pt is refused naming the option."""
    try:
        fitted = fit_text(text, 0, 0, w, h, fontbook=BOOK, size=size, min_size=min_size, align=align,
                          icons={"star": "<rect width='1' height='1'/>"})
    except TextDoesNotFit as error:
        assert str(error).startswith("text \u201c") and "\n" not in str(error)
        return
    except ValueError as error:
        assert min(size, min_size) < 1 and "is not a type size" in str(error), error
        return
    assert min(min_size, size) - 1e-9 <= fitted.size_pt <= size + 1e-9
    for line in fitted.lines:
        assert line.width <= w + 1e-6
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{fitted.to_svg()}</svg>'
    etree.fromstring(svg.encode("utf-8", "surrogatepass"))


# --- reproductions of the bugs these properties found (xfail until fixed) ---------------------------------------


def build_one(tmp_path: Path, name, front: str, x=1) -> pnpgen.Report:
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text(front + "\n", encoding="utf-8")
    project = {"games": [{"id": "g", "title": "G", "components": [
        {"id": "deck", "front": "front.svg.j2", "cards": [{"name": name, "x": x}]}]}]}
    (root / "cards.yaml").write_text(yaml.safe_dump(project, allow_unicode=True), encoding="utf-8")
    return pnpgen.build(root, Options(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache"))


NAME_BOX = "{{ text(card.name, 2, 2, 50, 20) }}"


def test_a_lone_surrogate_in_card_text_is_a_clear_error(tmp_path: Path):
    with pytest.raises(PnpError) as caught:
        build_one(tmp_path, "a\ud800b", NAME_BOX)
    assert_clear(caught.value)


def test_a_character_xml_cannot_hold_is_dropped_like_control_characters(tmp_path: Path):
    report = build_one(tmp_path, "剣\ufffe\uffff盾", NAME_BOX)
    assert report.pieces == 1
    assert "剣盾" in PdfReader(tmp_path / "out" / "g" / "deck.pdf").pages[0].extract_text().replace("\n", "")


def test_an_infinite_coordinate_is_a_clear_error(tmp_path: Path):
    with pytest.raises(PnpError) as caught:
        build_one(tmp_path, "剣", '<rect x="{{ card.x }}" y="1" width="1" height="1"/>', x=float("inf"))
    assert_clear(caught.value)


def test_a_nan_coordinate_never_reaches_the_pdf(tmp_path: Path):
    try:
        build_one(tmp_path, "剣", '<rect x="{{ card.x }}" y="1" width="1" height="1"/>', x=float("nan"))
    except PnpError as error:
        assert_clear(error)
        return
    reader = PdfReader(tmp_path / "out" / "g" / "deck.pdf")
    assert not any(NONFINITE.search(data) for data in content_streams(reader))


def test_min_size_zero_is_a_clear_error(tmp_path: Path):
    with pytest.raises(PnpError) as caught:
        build_one(tmp_path, "剣 " * 200, "{{ text(card.name, 2, 2, 10, 10, size=9, min_size=0) }}")
    assert "min_size" in str(caught.value)


def test_messages_never_echo_control_characters(tmp_path: Path):
    with pytest.raises(PnpError) as caught:
        build_one(tmp_path, "\x1b[2J\rX" + " long" * 50, "{{ text(card.name, 2, 2, 5, 3) }}")
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]", str(caught.value)), repr(str(caught.value))


def test_a_float_overflow_in_a_template_is_a_clear_error(tmp_path: Path):
    with pytest.raises(PnpError) as caught:
        build_one(tmp_path, "剣", "{{ text(card.name, 0, 0, 1e400, 10) }}")
    assert_clear(caught.value)


def test_an_undefined_text_option_names_the_missing_field(tmp_path: Path):
    with pytest.raises(PnpError) as caught:
        build_one(tmp_path, "剣", "{{ text(card.name, 0, 0, 10, 10, color=card.colour) }}")
    assert "the card has no field 'colour'" in str(caught.value)


@pytest.mark.skipif(sys.platform != "linux", reason="needs RLIMIT_AS")
def test_a_huge_font_size_is_a_clear_error(tmp_path: Path):
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text("{{ text(card.name, 0, 0, 10, 10, size=1e9, min_size=1) }}\n")
    (root / "cards.yaml").write_text("games:\n  - id: g\n    title: G\n    components:\n      - id: deck\n"
                                     "        front: front.svg.j2\n        cards: [{name: 剣}]\n", encoding="utf-8")

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    result = subprocess.run([sys.executable, "-m", "pnpgen", "build", str(root), "-o", str(tmp_path / "out")],
                            cwd=REPO, capture_output=True, text=True, timeout=120, preexec_fn=limit_memory,
                            env={**os.environ, "PYTHONPATH": str(REPO), "PNPGEN_CACHE": str(tmp_path / "c")})
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr[-400:]
    assert result.stderr.startswith("cards.yaml:7:")
