"""Rulebook PDFs read back: headings, contents page numbers, counts from the data, quick-draw table, fonts,
page sizes, booklet order, kinsoku, orphan headings, determinism, errors; pages rendered to PNG."""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pypdf
import pypdfium2
import pytest

from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.faces.convert import Converter
from pnpgen.errors import PnpError
from pnpgen.project.expand import expand_pieces
from pnpgen.faces.render import Renderer
from pnpgen.project.assumptions import assumed_count
from pnpgen.rules.typeset import (build_rulebook, build_rules_sheet, expand_markdown, list_assumptions,
                                  list_undefined_terms)
from pnpgen.rules.markdown import Heading, parse_markdown
from pnpgen.rules.pages import order_booklet
from pnpgen.faces.linebreak import NO_LINE_END, NO_LINE_START
from pnpgen.units import mm
from pnpgen.project.validate import load_project

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
GAMES = ("three-times-undress", "otogi-taisen", "last-wan-standing-quickdraw")
LWS = "last-wan-standing-quickdraw"
A4, A5 = (mm(210), mm(297)), (mm(148), mm(210))


@pytest.fixture(scope="module")
def kit():
    project = load_project(ROOT)
    fontbook = open_fontbook(project)
    return project, fontbook, Renderer(project, fontbook), Converter(fontbook, project.root)


@pytest.fixture(scope="module")
def built(kit, tmp_path_factory):
    """Every bundled rulebook at A4, one at A5 and as a booklet, and the LWS rules sheet."""
    project, fontbook, renderer, converter = kit
    out = tmp_path_factory.mktemp("rules")
    tools = dict(fontbook=fontbook, renderer=renderer, converter=converter)
    paths = {}
    for game_id in GAMES:
        game = project.game(game_id)
        paths[game_id] = build_rulebook(project, game, RULES / f"{game_id}.md", out / game_id / "rulebook.pdf", **tools)
    game = project.game("three-times-undress")
    paths["a5"] = build_rulebook(project, game, RULES / "three-times-undress.md", out / "a5.pdf", page="a5", **tools)
    paths["booklet"] = build_rulebook(project, game, RULES / "three-times-undress.md", out / "booklet.pdf",
                                      booklet=True, **tools)
    paths["sheet"] = build_rules_sheet(project, project.game(LWS), RULES / f"{LWS}-sheet.md",
                                       out / LWS / "rules-sheet.pdf", **tools)
    return paths


def lines(page: pypdf.PageObject, x_range: tuple[float, float] | None = None) -> list[str]:
    """The page's text lines top to bottom: pieces grouped by baseline, in the order they were drawn."""
    rows: dict[int, list[tuple[float, str]]] = {}

    def visit(text, cm, tm, font, _size):
        if not text.strip() or (font and font.get("/Subtype") == "/Type0"):
            return  # a piece's picture: a form XObject, whose text pypdf places in the form's own space
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if x_range is None or x_range[0] <= x < x_range[1]:
            rows.setdefault(round(y), []).append((x, text))

    page.extract_text(visitor_text=visit)
    result = []
    for _, pieces in sorted(rows.items(), key=lambda kv: -kv[0]):
        pieces.sort(key=lambda p: round(p[0]))  # stable: pieces at one x keep their drawing order
        result.append("".join(t for _, t in pieces).replace("\n", "").strip())
    return result


def normal(text: str) -> str:
    """Full-width digits and letters as ASCII, spaces removed (for comparing with the data)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def headings(project, game_id: str, levels=(2, 3)) -> list[str]:
    """As the typesetter sets them: assumed numbers marked, and the sections listing them and the undefined terms last."""
    source, marks = RULES / f"{game_id}.md", []
    expanded = expand_markdown(project, project.game(game_id), source, source.read_text(encoding="utf-8"), marks)
    blocks = parse_markdown(expanded) + list_assumptions(marks) + list_undefined_terms(project.game(game_id), expanded)
    return [b.text for b in blocks if isinstance(b, Heading) and b.level in levels]


def outline(reader: pypdf.PdfReader) -> list[tuple[str, int]]:
    """(title, 1-based page) of every outline entry, depth first."""
    found = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.append((item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline)
    return found


def contents(reader: pypdf.PdfReader) -> list[tuple[str, int]]:
    """(title, page) of every contents line: `title . . . . N`."""
    entries = []
    for page in reader.pages[:2]:
        for line in lines(page):
            match = re.match(r"^(.*?)\s*(?:\.\s*){3,}(\d+)$", line)
            if match:
                entries.append((match.group(1).strip(), int(match.group(2))))
    return entries


@pytest.mark.parametrize("game_id", GAMES)
def test_headings_are_in_order_in_text_and_outline(kit, built, game_id):
    project = kit[0]
    reader = pypdf.PdfReader(built[game_id])
    expected = headings(project, game_id)
    assert [title for title, _ in outline(reader)] == expected
    body = [line for page in reader.pages for line in lines(page)]
    toc_end = max(i for i, line in enumerate(body) if re.search(r"(\.\s*){3,}\d+$", line))
    found = [line for line in body[toc_end + 1:] if line in expected]
    assert found == expected


@pytest.mark.parametrize("game_id", GAMES + ("a5",))
def test_contents_page_numbers_are_the_pages_the_headings_are_on(kit, built, game_id):
    project = kit[0]
    reader = pypdf.PdfReader(built[game_id])
    source_id = "three-times-undress" if game_id == "a5" else game_id
    toc = contents(reader)
    assert [title for title, _ in toc] == headings(project, source_id)
    assert toc == outline(reader)
    for title, page in toc:
        assert title in lines(reader.pages[page - 1]), f"{title} is not on page {page}"
    for number, page in enumerate(reader.pages, 1):  # the running page number is the physical page
        assert lines(page)[-1] == str(number)


def test_metadata_title_and_outline(built):
    reader = pypdf.PdfReader(built["three-times-undress"])
    assert reader.metadata.title == "スリータイムズ・アンドレス"
    assert "ルールブック" in reader.metadata.subject
    assert reader.trailer["/Root"].get("/PageMode") == "/UseOutlines"
    assert pypdf.PdfReader(built["sheet"]).metadata.title.startswith("Shoot The QuickDrow")


def test_counts_in_the_text_equal_the_data(kit, built):
    project = kit[0]
    text = {g: normal("".join(line for page in pypdf.PdfReader(built[g]).pages for line in lines(page)))
            for g in GAMES}
    for game_id in GAMES:
        for component in project.game(game_id).components:
            pieces = len(expand_pieces(component))
            unit = "個" if component.id == "markers" else "枚"
            if component.id != "score-chips" and component.kind != "box":  # a box is packaging, not a piece
                mark = "仮" if assumed_count(project.game(game_id), component.id) else ""  # the data assumes it
                assert normal(f"{component.name}（{pieces}{mark}{unit}）") in text[game_id], component.id
    battle = project.game("three-times-undress").component("battle-cards")
    numbers = Counter(p.card.fields["number"] for p in expand_pieces(battle))
    row = "闘牌カード(枚)" + "".join(str(numbers[n]) for n in sorted(numbers)) + str(sum(numbers.values()))
    assert row in text["three-times-undress"]
    rons = Counter(p.card.fields["number"] for p in expand_pieces(battle) if p.card.fields["ron"])
    assert "闘牌カード(枚)" + "".join(str(rons[n]) for n in sorted(rons)) + str(sum(rons.values())) in text["three-times-undress"]
    markers = project.game("otogi-taisen").component("markers")
    per_race = Counter(p.card.fields["race"] for p in expand_pieces(markers))
    assert normal(f"マーカー{per_race['烏天狗']}個を受け取ります") in text["otogi-taisen"]
    chips = project.game("three-times-undress").component("score-chips")
    assert normal(f"チップ{len(expand_pieces(chips))}仮枚") in text["three-times-undress"]  # the data assumes 30


def quickdraw_rows(reader: pypdf.PdfReader) -> dict[int, list[str]]:
    rows = {}
    for page in reader.pages:
        for line in lines(page):
            match = re.fullmatch(r"(\d)人((?:\d人|—)+)", normal(line))
            if match:
                rows[int(match.group(1))] = re.findall(r"\d人|—", match.group(2))
    return rows


@pytest.mark.parametrize("which", [LWS, "sheet"])
def test_quickdraw_table_follows_the_rule(kit, built, which):
    """A quick draw with bullet b at n players downs n − b children; bullets above n − 1 are not in play."""
    game = kit[0].game(LWS)
    rows = quickdraw_rows(pypdf.PdfReader(built[which]))
    assert sorted(rows) == list(game.players) == [4, 5, 6, 7]
    for players, cells in rows.items():
        assert cells == [f"{players - b}人" if b <= players - 1 else "—" for b in range(1, 7)]


def test_rules_sheet_is_one_page_with_the_bullets_per_player_count(kit, built):
    reader = pypdf.PdfReader(built["sheet"])
    assert len(reader.pages) == 1
    text = [normal(line) for line in lines(reader.pages[0])]
    for players in kit[0].game(LWS).players:
        used = "・".join(str(b) for b in range(1, players)) + "・down"
        assert f"{players}人{used}{players - 1}{players}枚{players * players}枚" in text
    for heading in ("ラウンドの流れ", "得点", "クイックドロー効果"):
        assert heading in text


def font_entries(reader: pypdf.PdfReader):
    seen = {}

    def collect(resources):
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            seen[font["/BaseFont"]] = font
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Resources"):
                collect(xobject["/Resources"].get_object())

    for page in reader.pages:
        collect(page["/Resources"])
    return seen


@pytest.mark.parametrize("which", GAMES + ("a5", "booklet", "sheet"))
def test_fonts_are_embedded_subsets_of_noto_sans_jp(built, which):
    fonts = font_entries(pypdf.PdfReader(built[which]))
    assert fonts
    for name, font in fonts.items():
        assert re.fullmatch(r"/[A-Z]{6}\+NotoSansJP-(Regular|Bold)(HalfPunct)?", name), name
        if font["/Subtype"] == "/Type0":  # the fonts of pieces' pictures: the print files' own subsets
            font = font["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in font["/FontDescriptor"].get_object()
    assert b"Helvetica" not in Path(built[which]).read_bytes()


@pytest.mark.parametrize("which,size", [("three-times-undress", A4), ("a5", A5), ("sheet", A4),
                                        ("booklet", (mm(297), mm(210)))])
def test_page_sizes(built, which, size):
    for page in pypdf.PdfReader(built[which]).pages:
        assert float(page.mediabox.width) == pytest.approx(size[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size[1], abs=0.01)


def test_booklet_order_is_saddle_stitch():
    assert order_booklet(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert order_booklet(6) == [(None, 1), (2, None), (6, 3), (4, 5)]
    assert order_booklet(1) == [(None, 1), (None, None)]
    for pages in range(1, 30):
        sides = order_booklet(pages)
        assert len(sides) % 2 == 0
        shown = [n for side in sides for n in side if n is not None]
        assert sorted(shown) == list(range(1, pages + 1))
        padded = len(sides) * 2
        for a, b in sides:  # facing pages of one sheet side add up to n + 1; blanks are pages past the end
            if a is not None and b is not None:
                assert a + b == padded + 1
            elif (a or b) is not None:
                assert padded + 1 - (a or b) > pages


def text_in(page: pypdfium2.PdfPage, left: float, bottom: float, right: float, top: float) -> str:
    """Text inside a rectangle (points, origin bottom-left), whitespace removed; pdfium follows forms."""
    return re.sub(r"\s+", "", page.get_textpage().get_text_bounded(left, bottom, right, top))


def test_booklet_sheets_carry_the_a5_pages_in_booklet_order(built):
    pages = pypdfium2.PdfDocument(str(built["a5"]))
    sheets = pypdfium2.PdfDocument(str(built["booklet"]))
    order = order_booklet(len(pages))
    assert len(sheets) == len(order)
    width, height = sheets[0].get_size()
    a5_width, a5_height = pages[0].get_size()
    margin = (width - 2 * a5_width) / 2
    for sheet, (left, right) in zip(sheets, order):
        for slot, number in enumerate((left, right)):
            x0 = margin + slot * a5_width
            found = text_in(sheet, x0, 0, x0 + a5_width, height)
            if number is None:
                assert found == ""
                continue
            assert text_in(sheet, x0, 0, x0 + a5_width, mm(12)) == str(number)  # the number at its foot
            if number == 1:  # the cover carries the printing note at its head
                note = text_in(sheet, x0, height - mm(14), x0 + a5_width, height)
                assert note.startswith("冊子印刷：両面・短辺とじ")
                found = found.replace(note, "", 1)
            assert found == text_in(pages[number - 1], 0, 0, a5_width, a5_height)


def test_a5_booklet_long_edge_turns_the_back_sides(kit, tmp_path):
    project, fontbook, renderer, converter = kit
    target = build_rulebook(project, project.game(LWS), RULES / f"{LWS}.md", tmp_path / "long.pdf", booklet=True,
                            flip="long", fontbook=fontbook, renderer=renderer, converter=converter)
    sheets = pypdfium2.PdfDocument(str(target))
    width, height = sheets[0].get_size()
    assert text_in(sheets[0], width / 2, 0, width, mm(12)) == "1"  # front, right half, upright: number at the foot
    # The back is turned 180°: page 2 (left when upright) is now in the right half with its foot at the top.
    assert text_in(sheets[1], width / 2, height - mm(12), width, height) == "2"


def test_no_line_starts_or_ends_against_kinsoku(built):
    for which in GAMES + ("a5", "sheet"):
        for page in pypdf.PdfReader(built[which]).pages:
            for line in lines(page):
                if re.search(r"(\.\s*){3,}\d+$", line):
                    continue
                assert line[:1] not in NO_LINE_START, f"{which}: {line}"
                assert line[-1:] not in NO_LINE_END, f"{which}: {line}"


def test_no_line_ends_inside_a_compound(built):
    """捨て札 and the other compounds of the rulebooks are never split at a line end (as one was, 捨て／札)."""
    compounds = ("捨て札", "山札", "手札", "王牌", "聴牌速度", "闘牌カード", "種族カード")
    whole = Counter()
    for which in GAMES + ("a5", "sheet"):
        for page in pypdf.PdfReader(built[which]).pages:
            found = lines(page)
            for line, following in zip(found, found[1:]):
                for compound in compounds:
                    split = any(line.endswith(compound[:at]) and following.startswith(compound[at:])
                                for at in range(1, len(compound)))
                    assert not split, f"{which}: {line}|{following}"
            whole.update(compound for line in found for compound in compounds if compound in line)
    assert whole["捨て札"] and whole["手札"]


@pytest.mark.parametrize("game_id", GAMES + ("a5",))
def test_no_heading_is_left_at_the_foot_of_a_page(kit, built, game_id):
    source_id = "three-times-undress" if game_id == "a5" else game_id
    titles = set(headings(kit[0], source_id, levels=(2, 3, 4)))
    for page in pypdf.PdfReader(built[game_id]).pages:
        body = lines(page)[:-1]  # without the page number
        if body:
            assert body[-1] not in titles


def test_pictures_are_vector_drawings(built):
    reader = pypdf.PdfReader(built["three-times-undress"])
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        assert all(x.get_object()["/Subtype"] != "/Image" for x in xobjects.values())
    text = "".join(reader.pages[n].extract_text() for n in (1, 2)).replace("\n", "")
    assert "ロンできるカード。" in text  # the card's own text, drawn as text


def test_output_is_deterministic(kit, built, tmp_path):
    project, fontbook, renderer, converter = kit
    again = build_rulebook(project, project.game(LWS), RULES / f"{LWS}.md", tmp_path / "again.pdf",
                           fontbook=fontbook, renderer=renderer, converter=converter)
    assert again.read_bytes() == Path(built[LWS]).read_bytes()


def write_source(tmp_path: Path, text: str) -> Path:
    source = tmp_path / "rules.md"
    source.write_text(text, encoding="utf-8")
    return source


def test_errors_name_the_rulebook_line_and_keep_the_old_pdf(kit, tmp_path):
    project, fontbook, renderer, converter = kit
    game = project.game("three-times-undress")
    tools = dict(fontbook=fontbook, renderer=renderer, converter=converter)
    target = tmp_path / "rulebook.pdf"
    target.write_bytes(b"old")
    cases = [
        ("# t\n\n## a\n\n{{ count('no-such-deck') }}\n", 5, "no component 'no-such-deck'"),
        ("# t\n\n{{ nope }}\n", 3, "nope"),
        ("# t\n\n## a\n\n本文\n\n![x](component:battle-cards#99)\n", 7, "has 46 pieces"),
        ("# t\n\n![x](component:battle-cards?number=9)\n", 3, "no piece of battle-cards has number=9"),
        ("# t\n\n文 ![x](component:battle-cards)\n", 3, "an image shares its paragraph"),
        ("# t\n\n{% if %}\n", 3, "syntax"),
    ]
    for text, line, message in cases:
        with pytest.raises(PnpError) as caught:
            build_rulebook(project, game, write_source(tmp_path, text), target, **tools)
        problem = caught.value.problems[0]
        assert problem.location.line == line, (text, problem)
        assert message in problem.message, (text, problem)
        assert target.read_bytes() == b"old"


def test_kinsoku_paragraph_breaks_like_text_py(kit):
    from reportlab.lib.styles import ParagraphStyle

    from pnpgen.rules.paragraph import KinsokuParagraph

    font = kit[1].resolve(None)
    style = ParagraphStyle("t", fontName=font, fontSize=10, leading=14, wordWrap="CJK")

    def broken(text: str, chars: int) -> list[str]:
        para = KinsokuParagraph(text, style)
        para.wrap(chars * 10 + 0.01, 1000)
        return ["".join(w.text for w in line.words) for line in para.blPara.lines]

    assert broken("あいうえお。かき", 5) == ["あいうえ", "お。かき"]
    assert broken("あいうえ「おか」", 5) == ["あいうえ", "「おか」"]
    assert broken("あいうえお」。か", 5) == ["あいうえ", "お」。か"]
    assert broken("あいうえおー", 5) == ["あいうえ", "おー"]
    assert broken("あいうえ２０点", 5) == ["あいうえ", "２０点"]  # a number is not split
    latin = broken("alpha beta gamma delta epsilon", 6)
    assert len(latin) > 1 and all(word in "alpha beta gamma delta epsilon".split() for line in latin
                                  for word in line.split())  # Latin breaks at spaces only
    assert broken("<b>あいう</b>えお。か", 5) == ["あいう" + "え", "お。か"]


def test_pages_render_to_png_with_ink(built, tmp_path):
    for which in ("three-times-undress", "booklet", "sheet"):
        pdf = pypdfium2.PdfDocument(str(built[which]))
        image = pdf[0].render(scale=0.5).to_pil().convert("L")
        image.save(tmp_path / f"{which}.png")
        dark = sum(image.point(lambda v: 255 if v < 128 else 0).convert("1").histogram()[255:])
        assert dark > 500, which


def test_consecutive_full_width_marks_are_tightened(kit):
    from pnpgen.faces.font import font_named
    from pnpgen.rules.punctuation import half_font, squeeze

    assert squeeze("「脱衣」）。", "H") == '「脱衣<font name="H">」</font><font name="H">）</font>。'
    assert squeeze("（「例」）", "H") == '（<font name="H">「</font>例<font name="H">」</font>）'
    assert squeeze("<b>得る」</b>（注）", "H") == '<b>得る<font name="H">」</font></b>（注）'
    assert squeeze("A &amp; B。", "H") == "A &amp; B。"
    name = half_font(kit[1], "normal")
    assert font_named(name).width("」（。", 10) == 15  # every mark half an em
    assert font_named(kit[1].resolve(None)).width("」", 10) == 10


def test_a_rulebook_without_sections_has_no_contents(kit, tmp_path):
    project, fontbook, renderer, converter = kit
    source = write_source(tmp_path, "# 小さな規則\n\n本文だけ。\n")
    target = build_rulebook(project, project.game(LWS), source, tmp_path / "small.pdf", fontbook=fontbook,
                            renderer=renderer, converter=converter)
    reader = pypdf.PdfReader(target)
    assert lines(reader.pages[0]) == ["小さな規則", "本文だけ。", "1"]
    assert reader.metadata.title == "小さな規則"


def test_a_rules_sheet_that_cannot_fit_one_page_is_refused(kit, tmp_path):
    project, fontbook, renderer, converter = kit
    source = write_source(tmp_path, "# 長い\n\n" + ("長い文章です。" * 300 + "\n\n") * 3)  # paragraphs of 2,100
    with pytest.raises(PnpError) as caught:
        build_rules_sheet(project, project.game(LWS), source, tmp_path / "sheet.pdf", fontbook=fontbook,
                          renderer=renderer, converter=converter)
    assert "one page" in caught.value.problems[0].message
    assert caught.value.problems[0].location.file.endswith("rules.md")
    assert not (tmp_path / "sheet.pdf").exists()


def test_booklet_outline_points_at_the_sheet_sides_holding_the_pages(built):
    a5 = outline(pypdf.PdfReader(built["a5"]))
    booklet = outline(pypdf.PdfReader(built["booklet"]))
    order = order_booklet(len(pypdf.PdfReader(built["a5"]).pages))
    assert [title for title, _ in booklet] == [title for title, _ in a5]
    for (_, page), (_, side) in zip(a5, booklet):
        assert page in order[side - 1]


def figure_source(tmp_path: Path, paragraphs: int) -> Path:
    """A rulebook whose one picture (a ron card, its own text drawn on it) falls lower on the page as it grows."""
    return write_source(tmp_path, "# 図\n\n" + "\n\n".join(f"段落{i}。" for i in range(paragraphs))
                        + '\n\n![キャプション印](component:battle-cards?ron=true "36mm")\n\n後。\n')


def halves(document: pypdfium2.PdfDocument, booklet: bool) -> list[str]:
    """The text of each page, or of each half-sheet of a booklet."""
    found = []
    for page in document:
        width, height = page.get_size()
        parts = [(0, width / 2), (width / 2, width)] if booklet else [(0, width)]
        found += [page.get_textpage().get_text_bounded(x0, 0, x1, height) for x0, x1 in parts]
    return found


@pytest.mark.parametrize("page, booklet, counts", [("a4", False, range(0, 130, 2)), ("a5", False, range(0, 90)),
                                                   ("a5", True, (44, 71))])
def test_a_caption_never_leaves_its_picture_at_a_page_break(kit, tmp_path, page, booklet, counts):
    project, fontbook, renderer, converter = kit
    game = project.game("three-times-undress")
    tools = dict(fontbook=fontbook, renderer=renderer, converter=converter)
    crossings = 0
    for count in counts:
        target = build_rulebook(project, game, figure_source(tmp_path, count), tmp_path / "figure.pdf", page=page,
                                booklet=booklet, **tools)
        texts = halves(pypdfium2.PdfDocument(str(target)), booklet)
        caption = [i for i, text in enumerate(texts) if "キャプション印" in text]
        picture = [i for i, text in enumerate(texts) if "ロンできるカード" in text]
        assert caption == picture and len(caption) == 1, (count, caption, picture)
        crossings += "後。" not in texts[caption[0]] or count in (44, 71)
    assert crossings  # the picture did reach a page foot in some of these


def test_full_width_spaces_stay_full_width_in_rulebooks(kit, tmp_path):
    project, fontbook, renderer, converter = kit
    source = write_source(tmp_path, "# 題\n\n## 節\n\n　字下げの段落。あ　い。\n\n字下げなし。\n")
    target = build_rulebook(project, project.game("three-times-undress"), source, tmp_path / "space.pdf", page="a5",
                            fontbook=fontbook, renderer=renderer, converter=converter)
    document = pypdfium2.PdfDocument(str(target))
    page = next(p for p in document if "字下げの段落" in p.get_textpage().get_text_range())
    textpage = page.get_textpage()
    text = textpage.get_text_range()
    assert "\u3000字下げの段落。あ\u3000い。" in text

    def left(at: int) -> float:
        return textpage.get_charbox(at)[0]

    body = 9.0  # pt: the A5 body size, one full-width character
    indented, plain = text.index("字下げの"), text.index("字下げなし")
    assert left(indented) - left(plain) == pytest.approx(body, abs=0.6)  # an indent of one em
    assert left(text.index("い。")) - left(text.index("あ\u3000")) == pytest.approx(2 * body, abs=0.6)


def test_rulebook_lines_break_at_phrase_boundaries_like_card_text(kit):
    from reportlab.lib.styles import ParagraphStyle

    from pnpgen.faces.linebreak import break_lines
    from pnpgen.rules.paragraph import KinsokuParagraph

    from pnpgen.faces.font import reportlab_name

    _, fontbook, _, _ = kit
    style = ParagraphStyle("t", fontName=reportlab_name(fontbook.resolve(None)), fontSize=10, leading=14,
                           wordWrap="CJK")
    text = "ロンした時、このカードを公開してもよい。その場合、点数は２倍になる。"
    paragraph = KinsokuParagraph(text, style)
    paragraph.wrap(100, 1000)
    lines = ["".join(w.text for w in line.words) for line in paragraph.blPara.lines]
    assert lines == ["ロンした時、この", "カードを公開しても", "よい。その場合、", "点数は２倍になる。"]
    assert lines == break_lines(text, 10, lambda s: float(len(s)))  # the same planner as card text
    assert all(line.extraSpace >= 0 for line in paragraph.blPara.lines)  # ragged right, never stretched


def test_a_paragraph_wrapped_again_breaks_as_a_fresh_one(kit):
    """KinsokuParagraph keeps its glyphs and its breaks per measure across wraps and passes: wrapping at
    another width and back gives the lines a fresh paragraph gives, and splitting still works."""
    from reportlab.lib.styles import ParagraphStyle

    from pnpgen.faces.font import pair_family
    from pnpgen.rules.paragraph import KinsokuParagraph

    regular = kit[1].resolve(None)
    pair_family(regular, kit[1].resolve(None, "bold"))  # as the typesetter does: reportlab sets <b> in bold
    style = ParagraphStyle("t", fontName=regular, fontSize=10, leading=14, wordWrap="CJK")
    text = "山札からカードを<b>２枚</b>引く。その後「手札」を１枚捨てる。" * 6

    def texts(paragraph):
        return ["".join(w.text for w in line.words) for line in paragraph.blPara.lines]
    reused = KinsokuParagraph(text, style)
    for width in (120, 200, 120):
        reused.wrap(width, 1000)
        fresh = KinsokuParagraph(text, style)
        fresh.wrap(width, 1000)
        assert texts(reused) == texts(fresh) and reused.height == fresh.height
    first, rest = reused.split(120, 14 * 3)
    rest.wrap(120, 1000)
    whole = KinsokuParagraph(text, style)
    whole.wrap(120, 1000)
    assert len(first.blPara.lines) == 3
    assert "".join(texts(first) + texts(rest)).replace(" ", "") == "".join(texts(whole))


@pytest.mark.parametrize("name", [*GAMES, "sheet"])
def test_a_rulebook_sets_its_digits_in_one_width(built, name):
    text = "".join(line for page in pypdf.PdfReader(built[name]).pages for line in lines(page))  # not the pictures'
    assert re.search("[0-9]", text) and not re.search("[０-９]", text)


def test_full_width_digits_are_set_half_width_outside_code():
    blocks = parse_markdown("# 闘牌カード（４６枚）\n\n各自に３６枚と`４枚`。\n")
    assert blocks[0].text == "闘牌カード（46枚）" and blocks[0].markup == "闘牌カード（46枚）"
    assert blocks[1].markup.startswith("各自に36枚と<span") and ">４枚</span>" in blocks[1].markup


@pytest.mark.parametrize("name", [*GAMES, "a5", "booklet", "sheet"])
def test_no_rulebook_text_is_set_below_7_pt(built, name):
    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip() and not (font and font.get("/Subtype") == "/Type0"):  # not the pictures' card text
            scale = (abs(tm[0] * cm[0] + tm[1] * cm[2]) * abs(tm[3] * cm[3] + tm[2] * cm[1])) ** 0.5
            sizes.append(round(size * scale, 2))

    for page in pypdf.PdfReader(built[name]).pages:
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 7 - 0.01, sorted(set(sizes))[:5]


def test_a_number_the_data_only_assumes_is_marked_where_printed_and_listed_with_its_reason(built):
    text = [line for page in pypdf.PdfReader(built["otogi-taisen"]).pages for line in lines(page)]
    assert "エリアマップ（2仮枚）" in text  # the document leaves the count blank: the data assumes 2
    assert "仮の数値" in text
    listed = next(line for line in text if line.startswith("仮エリアマップの数：2 — "))
    assert "エリアマップの枚数は空欄" in listed


def test_a_final_rulebook_prints_the_assumed_numbers_plain(kit, tmp_path):
    project, fontbook, renderer, converter = kit
    game = project.game("otogi-taisen")
    path = build_rulebook(project, game, RULES / "otogi-taisen.md", tmp_path / "rulebook.pdf", fontbook=fontbook,
                          renderer=renderer, converter=converter, final=True)
    text = [line for page in pypdf.PdfReader(path).pages for line in lines(page)]
    assert "エリアマップ（2枚）" in text and "仮の数値" not in text
    assert not any(line.startswith("仮エリアマップ") for line in text)


def test_a_contradiction_the_data_records_is_noted_where_the_rulebook_speaks_of_it(built, kit, tmp_path):
    text = [line for page in pypdf.PdfReader(built["three-times-undress"]).pages for line in lines(page)]
    assert any(line.endswith("3人プレイでは4枚ずつです注。") for line in text)  # known() after the 3-player deal
    assert "資料との食い違い" in text
    noted = [line for line in text if line.startswith("注闘牌カード（3人） — 草案2の矛盾。")]
    assert len(noted) == 2  # the deck that runs out, and the formula that deals three
    project, fontbook, renderer, converter = kit
    path = build_rulebook(project, project.game("three-times-undress"), RULES / "three-times-undress.md",
                          tmp_path / "final.pdf", fontbook=fontbook, renderer=renderer, converter=converter, final=True)
    final = [line for page in pypdf.PdfReader(path).pages for line in lines(page)]
    assert "資料との食い違い" not in final and not any("ずつです注" in line for line in final)
