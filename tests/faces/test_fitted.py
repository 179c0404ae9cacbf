"""text()'s fitted SVG is kept in the face store by everything it is fitted from: a later build finds the same SVG,
a change of any input misses, and a record that does not check is fitted again."""
import sqlite3
from pathlib import Path

import pytest

import pnpgen
from pnpgen import Options
from pnpgen.faces import fitted
from pnpgen.faces.fitted import FITTED, TextFitter
from pnpgen.faces.fonts import BUNDLED_FONTS, FontBook
from pnpgen.faces.icons import IconSet
from pnpgen.faces.text import fit_text
from pnpgen.store.pack import FacePack

OPTIONS = {"size": 9, "min_size": 6, "weight": "bold"}
CONTENT = "山札からカードを２枚引く。\nその後、手札を１枚捨てる。"


def make_fitter(project: Path, pack: FacePack, default_font: str = "Noto Sans JP") -> TextFitter:
    return TextFitter(project, default_font, FontBook([BUNDLED_FONTS]), IconSet(project / "templates"), pack)


def saved_pack(path: Path, fill) -> None:
    """A pack at path holding what fill(fitter) fitted, saved as a build saves it."""
    pack = FacePack(path)
    fill(make_fitter(path.parent, pack))
    pack.save()
    pack.close()


@pytest.fixture
def fits(monkeypatch) -> list:
    """The contents fit_text is asked to fit from here on."""
    asked = []

    def counted(content, *args, **kwargs):
        asked.append(content)
        return fit_text(content, *args, **kwargs)
    monkeypatch.setattr(fitted, "fit_text", counted)
    return asked


def test_a_stored_fit_is_the_same_svg_and_fits_nothing(tmp_path, fits):
    path = tmp_path / "faces.sqlite"
    expected = fit_text(CONTENT, 5, 50, 50, 24, fontbook=FontBook([BUNDLED_FONTS]), **OPTIONS).to_svg()
    saved_pack(path, lambda fitter: fitter.fit(CONTENT, 5, 50, 50, 24, OPTIONS))
    assert fits == [CONTENT]
    pack = FacePack(path)
    assert str(make_fitter(tmp_path, pack).fit(CONTENT, 5, 50, 50, 24, OPTIONS)) == expected
    assert fits == [CONTENT]  # found in the store: not fitted again
    pack.close()


@pytest.mark.parametrize("change", ["content", "box", "option", "default font"])
def test_a_change_of_any_input_misses(tmp_path, fits, change):
    path = tmp_path / "faces.sqlite"
    saved_pack(path, lambda fitter: fitter.fit(CONTENT, 5, 50, 50, 24, OPTIONS))
    content, box, options, font = CONTENT, (5, 50, 50, 24), OPTIONS, "Noto Sans JP"
    if change == "content":
        content = CONTENT.replace("２", "３")
    elif change == "box":
        box = (5, 50, 48, 24)
    elif change == "option":
        options = {**OPTIONS, "weight": "normal"}
    else:
        font = "sans-serif"
    pack = FacePack(path)
    found = make_fitter(tmp_path, pack, font).fit(content, *box, options)
    assert fits == [CONTENT, content]
    assert str(found) == fit_text(content, *map(float, box), fontbook=FontBook([BUNDLED_FONTS]), **options).to_svg()
    pack.close()


def test_a_record_that_does_not_check_is_fitted_again(tmp_path, fits):
    path = tmp_path / "faces.sqlite"
    saved_pack(path, lambda fitter: fitter.fit(CONTENT, 5, 50, 50, 24, OPTIONS))
    with sqlite3.connect(path) as db:
        (payload,) = db.execute("SELECT payload FROM records WHERE kind = ?", (FITTED,)).fetchone()
        tampered = payload.replace("手札".encode(), "山札".encode())
        assert db.execute("UPDATE records SET payload = ? WHERE kind = ?", (tampered, FITTED)).rowcount == 1
    pack = FacePack(path)
    found = make_fitter(tmp_path, pack).fit(CONTENT, 5, 50, 50, 24, OPTIONS)
    assert fits == [CONTENT, CONTENT]
    assert "手札" in found and found.count("山札") == 1
    pack.close()


def test_arguments_without_a_stable_repr_are_fitted_without_a_record(tmp_path, fits):
    class Width(float):
        """A float whose repr names the object, not its value."""
        __repr__ = object.__repr__
    pack = FacePack(tmp_path / "faces.sqlite")
    make_fitter(tmp_path, pack).fit(CONTENT, 5, 50, Width(50), 24, OPTIONS)
    assert fits == [CONTENT] and not pack.batch
    pack.close()


FRONT = """<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="none" stroke="#000" stroke-width="0.5"/>
{{ text(card.name, SAFE, SAFE, W - 2*SAFE, 20, size=12) }}
"""


def test_a_template_edit_refits_no_text_and_builds_the_same_pdf(tmp_path, fits):
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    (project / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    cards = "\n".join(f"          - {{name: カード{n}}}" for n in range(3))
    (project / "cards.yaml").write_text("games:\n  - id: g\n    title: G\n    components:\n      - id: c\n"
                                        "        name: C\n        front: front.svg.j2\n        cards:\n" + cards + "\n",
                                        encoding="utf-8")
    pnpgen.build(project, Options(out_dir=tmp_path / "first", cache_dir=tmp_path / "cache", check=False))
    assert sorted(fits) == ["カード0", "カード1", "カード2"]
    front = project / "templates" / "front.svg.j2"
    front.write_text(FRONT.replace('stroke-width="0.5"', 'stroke-width="0.6"'), encoding="utf-8")
    pnpgen.build(project, Options(out_dir=tmp_path / "edited", cache_dir=tmp_path / "cache", check=False))
    assert len(fits) == 3  # the frame changed; every text was found in the store
    pnpgen.build(project, Options(out_dir=tmp_path / "fresh", cache=False, check=False))
    assert len(fits) == 6
    assert (tmp_path / "edited" / "g" / "c.pdf").read_bytes() == (tmp_path / "fresh" / "g" / "c.pdf").read_bytes()


@pytest.mark.parametrize("change", ["version", "font files"])
def test_a_record_made_by_another_version_or_with_other_fonts_is_stale(tmp_path, fits, monkeypatch, change):
    path = tmp_path / "faces.sqlite"
    saved_pack(path, lambda fitter: fitter.fit(CONTENT, 5, 50, 50, 24, OPTIONS))
    if change == "version":
        monkeypatch.setattr(fitted, "__version__", fitted.__version__ + ".1")
    else:
        (tmp_path / "fonts").mkdir()
        (tmp_path / "fonts" / "Extra.ttf").write_bytes((BUNDLED_FONTS / "NotoSansJP-Regular.ttf").read_bytes())
    pack = FacePack(path)
    make_fitter(tmp_path, pack).fit(CONTENT, 5, 50, 50, 24, OPTIONS)
    assert fits == [CONTENT, CONTENT]
    pack.close()


def test_an_english_fit_made_with_another_hyphenation_dictionary_is_stale(tmp_path, fits, monkeypatch):
    english = "Draw 2 cards from the deck, then discard 1 card of your choice."

    def fit_english(pack: FacePack) -> None:
        fitter = TextFitter(tmp_path, "Noto Sans JP", FontBook([BUNDLED_FONTS]), IconSet(tmp_path / "templates"), pack,
                            language="en")
        fitter.fit(english, 5, 50, 30, 24, OPTIONS)

    path = tmp_path / "faces.sqlite"
    pack = FacePack(path)
    fit_english(pack)
    pack.save()
    pack.close()
    pack = FacePack(path)
    fit_english(pack)  # the same Pyphen and dictionary: a hit
    assert fits == [english]
    monkeypatch.setattr(fitted, "hyphenation_inputs", lambda language: ("pyphen 99 en_US another dictionary",))
    fit_english(pack)  # an upgrade of either: fitted again
    assert fits == [english, english]
    pack.close()
