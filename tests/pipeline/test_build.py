"""Build real projects and measure the PDFs: sizes, positions in mm, marks, fonts, text, determinism."""
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import pnpgen
from pnpgen import Options, PnpError, units
from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.faces.render import Renderer
from pnpgen.project.validate import load_project
from pnpgen.press.write_pdf import form_name

from pdfprobe import drawn_forms, font_is_embedded_subset, fonts, segments

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BLEED = 3.0
A4_COLS = [10.5, 73.5, 136.5]  # trim x of the three columns: (210 - 3 × 63) / 2 = 10.5
A4_ROWS = [192.5, 104.5, 16.5]  # trim y (bottom edge) of the three rows, top row first


def build(project: Path, out: Path, **options) -> pnpgen.Report:
    return pnpgen.build(project, Options(out_dir=out, **options))


def face_forms(project: Path, side: str) -> dict[int, str]:
    """card number -> the Form XObject name of its face, computed by the same renderer."""
    loaded = load_project(project)
    game = loaded.games[0]
    component = game.components[0]
    renderer = Renderer(loaded, open_fontbook(loaded))
    return {card.fields["number"]: form_name(renderer.render(game, component, card, side).key) for card in component.cards}


def trims(reader, page) -> list[tuple[str, float, float]]:
    return [(d.form, round(d.x_mm + BLEED, 2), round(d.y_mm + BLEED, 2)) for d in drawn_forms(reader, page)]


@pytest.fixture(scope="module")
def numbered(tmp_path_factory):
    out = tmp_path_factory.mktemp("numbered")
    build(FIXTURES / "numbered-backs", out)
    return PdfReader(out / "numbers" / "deck.pdf")


def test_a4_page_size_and_count(numbered):
    assert len(numbered.pages) == 4  # 12 cards: 9 + 3 fronts, each followed by its back page
    for page in numbered.pages:
        assert units.to_mm(float(page.mediabox.width)) == pytest.approx(210, abs=0.1)
        assert units.to_mm(float(page.mediabox.height)) == pytest.approx(297, abs=0.1)


def test_fronts_sit_on_a_centred_three_by_three_grid(numbered):
    forms = face_forms(FIXTURES / "numbered-backs", "front")
    placed = {form: (x, y) for form, x, y in trims(numbered, numbered.pages[0])}
    for number in range(1, 10):
        row, col = divmod(number - 1, 3)
        assert placed[forms[number]] == (pytest.approx(A4_COLS[col], abs=0.1), pytest.approx(A4_ROWS[row], abs=0.1))


def test_long_edge_backs_mirror_the_columns(numbered):
    backs = face_forms(FIXTURES / "numbered-backs", "back")
    placed = {form: (x, y) for form, x, y in trims(numbered, numbered.pages[1])}
    for number in range(1, 10):
        row, col = divmod(number - 1, 3)
        mirrored_x = 210 - A4_COLS[col] - 63
        assert placed[backs[number]] == (pytest.approx(mirrored_x, abs=0.1), pytest.approx(A4_ROWS[row], abs=0.1))


def test_short_edge_backs_mirror_the_rows_and_offset_shifts(tmp_path):
    build(FIXTURES / "numbered-backs", tmp_path, duplex="short", back_offset=(units.mm(1), units.mm(-2)))
    reader = PdfReader(tmp_path / "numbers" / "deck.pdf")
    backs = face_forms(FIXTURES / "numbered-backs", "back")
    placed = {form: (x, y) for form, x, y in trims(reader, reader.pages[1])}
    for number in range(1, 10):
        row, col = divmod(number - 1, 3)
        mirrored_y = 297 - A4_ROWS[row] - 88
        assert placed[backs[number]] == (pytest.approx(A4_COLS[col] + 1, abs=0.1), pytest.approx(mirrored_y - 2, abs=0.1))


def test_crop_marks_stay_outside_trims_and_off_the_page_edge(numbered):
    for page in numbered.pages:
        marks = segments(numbered, page)
        placed = [(x, y) for _, x, y in trims(numbered, page)]
        assert marks, "every page has crop marks"
        for x0, y0, x1, y1 in marks:
            for x, y in ((x0, y0), (x1, y1)):
                assert 6 - 0.01 <= x <= 210 - 6 + 0.01 and 6 - 0.01 <= y <= 297 - 6 + 0.01
            mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
            inside = any(c < mid_x < c + 63 and r < mid_y < r + 88 for c, r in placed)
            assert not inside


def test_crop_marks_extend_every_cut_line(numbered):
    marks = segments(numbered, numbered.pages[0])
    vertical_x = {round(x0, 1) for x0, y0, x1, y1 in marks if abs(x0 - x1) < 0.01}
    horizontal_y = {round(y0, 1) for x0, y0, x1, y1 in marks if abs(y0 - y1) < 0.01}
    assert vertical_x == {10.5, 73.5, 136.5, 199.5}
    assert horizontal_y == {16.5, 104.5, 192.5, 280.5}


def test_letter_fits_nine_poker_cards_centred(tmp_path):
    report = build(FIXTURES / "numbered-backs", tmp_path, paper="letter")
    reader = PdfReader(tmp_path / "numbers" / "deck.pdf")
    page = reader.pages[0]
    assert units.to_mm(float(page.mediabox.width)) == pytest.approx(215.9, abs=0.1)
    assert units.to_mm(float(page.mediabox.height)) == pytest.approx(279.4, abs=0.1)
    placed = trims(reader, page)
    assert len(placed) == 9
    xs = sorted({x for _, x, _ in placed})
    ys = sorted({y for _, _, y in placed})
    assert xs[0] == pytest.approx(215.9 - (xs[-1] + 63), abs=0.1)
    assert ys[0] == pytest.approx(279.4 - (ys[-1] + 88), abs=0.1)
    assert any("outer bleed is 1.7 mm" in note for note in report.notes)


def test_trim_and_bleed_boxes_are_set(numbered):
    page = numbered.pages[0]
    trim, bleed = page.trimbox, page.bleedbox
    assert units.to_mm(float(trim.left)) == pytest.approx(10.5, abs=0.1)
    assert units.to_mm(float(trim.top)) == pytest.approx(280.5, abs=0.1)
    assert units.to_mm(float(bleed.left)) == pytest.approx(9.0, abs=0.1)  # 1.5 mm: the crop marks keep 3 mm of white
    assert units.to_mm(float(bleed.top)) == pytest.approx(283.5, abs=0.1)  # the full 3 mm where there is room


def test_one_form_per_unique_face_and_pieces_match_the_data(tmp_path):
    report = build(FIXTURES / "minimal", tmp_path)
    reader = PdfReader(tmp_path / "tiny" / "deck.pdf")
    front = drawn_forms(reader, reader.pages[0])
    assert len(front) == 6 == report.pieces  # 3 + 2 + 1 copies
    assert len({d.form for d in front}) == 3
    assert len(reader.pages[0]["/Resources"]["/XObject"]) == 3


def test_text_is_extractable_and_markup_in_data_is_escaped(tmp_path):
    build(FIXTURES / "minimal", tmp_path)
    text = PdfReader(tmp_path / "tiny" / "deck.pdf").pages[0].extract_text()
    assert '剣 <&>"' in text
    assert "相手のカードを１枚捨てる。" in text
    assert text.count("盾") == 2


def test_every_font_is_embedded_and_subset(tmp_path):
    build(FIXTURES / "minimal", tmp_path)
    path = tmp_path / "tiny" / "deck.pdf"
    found = fonts(PdfReader(path))
    assert found and all(font_is_embedded_subset(f) for f in found)
    assert b"/Helvetica" not in path.read_bytes() and b"/Times" not in path.read_bytes()


def test_two_builds_are_byte_identical(tmp_path):
    build(FIXTURES / "minimal", tmp_path / "a")
    build(FIXTURES / "minimal", tmp_path / "b")
    for name in ("deck.pdf", "tiny-print-and-play.pdf"):
        assert (tmp_path / "a" / "tiny" / name).read_bytes() == (tmp_path / "b" / "tiny" / name).read_bytes()


def test_print_and_play_holds_every_page_of_the_game(tmp_path):
    build(FIXTURES / "numbered-backs", tmp_path)
    component = PdfReader(tmp_path / "numbers" / "deck.pdf")
    combined = PdfReader(tmp_path / "numbers" / "numbers-print-and-play.pdf")
    assert len(combined.pages) == len(component.pages)


def test_gutterfold_puts_fronts_and_backs_on_one_page(tmp_path):
    build(FIXTURES / "numbered-backs", tmp_path, gutterfold=True)
    reader = PdfReader(tmp_path / "numbers" / "deck.pdf")
    fronts = set(face_forms(FIXTURES / "numbered-backs", "front").values())
    backs = set(face_forms(FIXTURES / "numbered-backs", "back").values())
    for page in reader.pages:
        forms = {d.form for d in drawn_forms(reader, page)}
        assert forms & fronts and forms & backs


def test_a_failed_build_leaves_the_last_good_pdfs_untouched(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    out = tmp_path / "out"
    build(project, out)
    before = {p: p.read_bytes() for p in out.rglob("*.pdf")}
    template = project / "templates" / "back.svg.j2"
    template.write_text(template.read_text() + "{{ card.no_such_field }}")
    (project / "cards.yaml").write_text((project / "cards.yaml").read_text().replace("盾", "大盾"))
    with pytest.raises(PnpError) as caught:
        build(project, out)
    assert "no field 'no_such_field'" in str(caught.value)
    assert {p: p.read_bytes() for p in out.rglob("*.pdf")} == before
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_pdf_metadata_names_the_game_and_project(tmp_path):
    build(FIXTURES / "minimal", tmp_path)
    info = PdfReader(tmp_path / "tiny" / "deck.pdf").metadata
    assert info.title == "小さなゲーム — デッキ"
    assert info.subject == "minimal"  # project: name in cards.yaml
    assert info.creator == "pnpgen"


def test_outputs_keep_only_the_faces_still_to_convert(tmp_path, monkeypatch):
    """Faces converted into the pack as they are rendered are drawn by key: the plan holds none of them, and
    a page's digest changes with what it shows."""
    from pnpgen.pipeline import build as pipeline

    planned, real = [], pipeline.plan_components

    def plan(*args):
        outputs = real(*args)
        planned.extend(outputs)
        return outputs
    monkeypatch.setattr(pipeline, "plan_components", plan)
    build(FIXTURES / "numbered-backs", tmp_path / "out")
    assert planned and all(output.faces == {} for output in planned)
    deck = planned[0]
    project = load_project(FIXTURES / "numbered-backs")
    from pnpgen.pipeline.pdf_digest import pdf_digest

    same = pdf_digest(project, "assets", deck.title, deck.pages, deck.bleed)
    swapped = pdf_digest(project, "assets", deck.title, deck.pages[::-1], deck.bleed)
    assert same == pdf_digest(project, "assets", deck.title, list(deck.pages), deck.bleed) != swapped


def planned(project_dir: Path, tmp_path: Path, edit=lambda text: text, assets: str = "assets", **options) -> tuple:
    """(digest, pages) plan_components gives the project's first component, its cards.yaml edited first."""
    from pnpgen.pipeline import build as pipeline
    from pnpgen.store.cache import Cache
    from pnpgen.faces.convert import Converter

    project = tmp_path / f"project-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(project_dir, project)
    (project / "cards.yaml").write_text(edit((project / "cards.yaml").read_text(encoding="utf-8")), encoding="utf-8")
    loaded, chosen = load_project(project), Options(check=False, **options)
    cache = Cache(None)
    fontbook = open_fontbook(loaded, chosen)
    converter = Converter(fontbook, loaded.root, cache)
    renderer = Renderer(loaded, fontbook, cache, store=converter.paint)
    output = pipeline.plan_components(loaded, loaded.games[0], chosen, tmp_path / "out", renderer, pnpgen.Report(),
                                      lambda label: None, assets)[0]
    return output.digest, output.pages


def test_a_pdf_digest_changes_with_every_input_that_changes_the_pdf(tmp_path):
    """A component's digest describes its pages by their faces and sheet spec, not their repr: whatever changes
    the pages (a face, the order, copies, paper, bleed, marks, duplex, gutterfold, back offset...) or the PDF
    around them (title, assets) changes it, and the same inputs give the same digest."""
    minimal = FIXTURES / "minimal"
    base = planned(minimal, tmp_path)
    assert planned(minimal, tmp_path) == base and base[0]
    component = "        back: back.svg.j2\n"
    yaml = {
        "face": lambda t: t.replace("剣", "刀"),
        "order": lambda t: t.replace("{name: 盾", "{name: 楯").replace("{name: 弓", "{name: 盾").replace("{name: 楯", "{name: 弓"),
        "copies": lambda t: t.replace("copies: 3", "copies: 4"),
        "title": lambda t: t.replace("title: 小さなゲーム", "title: 大きなゲーム"),
        "bleed": lambda t: t.replace(component, component + "        bleed: 2mm\n"),
        "size": lambda t: t.replace(component, component + "        size: mini\n"),
        "gap": lambda t: t.replace(component, component + "        layout: {gap: 1mm}\n"),
        "no marks": lambda t: t.replace(component, component + "        layout: {crop_marks: false}\n"),
        "cut lines": lambda t: t.replace(component, component + "        layout: {cut_lines: true}\n"),
        "round": lambda t: t.replace(component, component + "        shape: round\n"),
        "pinned paper": lambda t: t.replace(component, component + "        layout: {paper: a3}\n"),
    }
    options = {"letter": {"paper": "letter"}, "short edge": {"duplex": "short"}, "simplex": {"duplex": "none"},
               "gutterfold": {"gutterfold": True}, "back offset": {"back_offset": (units.mm(1), 0.0)},
               "assets": {"assets": "other assets"}}
    variants = {name: planned(minimal, tmp_path, edit) for name, edit in yaml.items()}
    variants |= {name: planned(minimal, tmp_path, **chosen) for name, chosen in options.items()}
    for name, (found, pages) in variants.items():
        assert found != base[0], name
        if name not in ("title", "assets"):  # these change the PDF around the same pages
            assert pages != base[1], name
    assert len({found for found, _ in variants.values()}) == len(variants)
