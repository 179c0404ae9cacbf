"""Shop PDFs as PDF/X for a press: PDF/X-1a:2001 and PDF/X-4 keys and output intents, CMYK in every content
stream, form and image, black as black ink alone, a template's own CMYK kept exactly, no transparency in X-1a,
the same bytes every time, and Ghostscript rendering them without a word."""
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest

from pnpgen import PnpError
from pnpgen.export.run import ExportOptions, export
from pnpgen.faces.cmyk import PROFILES_DIR, converter_for

FIXTURES = Path(__file__).parents[1] / "fixtures"
COLOURS = FIXTURES / "pdfx-colours"
MM = 72 / 25.4


def export_pdfx(out: Path, version: str | None = "1a", profile: str | None = None, project: Path = COLOURS) -> Path:
    export(project, "shop", ExportOptions(out_dir=out, pdfx=version, profile=profile, cache=False, workers=1))
    return out / "inks" / "shop" / "deck.pdf"


@pytest.fixture(scope="module")
def x1a(tmp_path_factory) -> Path:
    return export_pdfx(tmp_path_factory.mktemp("x1a"))


@pytest.fixture(scope="module")
def x4(tmp_path_factory) -> Path:
    return export_pdfx(tmp_path_factory.mktemp("x4"), "4")


def forms_of(pdf: pikepdf.Pdf) -> list:
    """Every Form XObject of the file, nested ones too."""
    return [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"]


def operators(pdf: pikepdf.Pdf) -> list[tuple[str, list]]:
    """(operator, operands) of every page's content and every form's, in order."""
    found = []
    for source in [*pdf.pages, *forms_of(pdf)]:
        for instruction in pikepdf.parse_content_stream(source):
            if isinstance(instruction, pikepdf.ContentStreamInstruction):
                found.append((str(instruction.operator), [float(v) if isinstance(v, (int, float, Decimal)) else v
                                                          for v in instruction.operands]))
    return found


def test_x1a_names_itself_and_its_output_intent(x1a):
    with pikepdf.open(x1a) as pdf:
        info = pdf.trailer.Info
        assert (str(info.GTS_PDFXVersion), str(info.GTS_PDFXConformance)) == ("PDF/X-1:2001", "PDF/X-1a:2001")
        assert info.Trapped == pikepdf.Name("/False") and str(info.Title) == "インク — デッキ"
        assert str(info.CreationDate) == str(info.ModDate) == "D:20000101000000+00'00'"
        assert pdf.pdf_version == "1.3"
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert intent.DestOutputProfile.N == 4
        assert intent.DestOutputProfile.read_bytes() == (PROFILES_DIR / "FOGRA39L.icc").read_bytes()
        assert "/Metadata" not in pdf.Root


def test_x4_names_itself_in_info_and_xmp(x4):
    with pikepdf.open(x4) as pdf:
        assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-4" and "/GTS_PDFXConformance" not in pdf.trailer.Info
        meta = pdf.open_metadata()
        assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
        assert meta["pdf:Trapped"] == "False" and meta["xmp:CreateDate"].startswith("2000-01-01T00:00:00")
        assert meta["xmpMM:DocumentID"].startswith("uuid:") and meta["xmpMM:RenditionClass"] == "default"
        assert "/Filter" not in pdf.Root.Metadata  # an XMP packet stays readable as text
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "FOGRA39" and intent.DestOutputProfile.N == 4


@pytest.mark.parametrize("version", ["1a", "4"])
def test_no_rgb_anywhere(version, x1a, x4):
    path = x1a if version == "1a" else x4
    with pikepdf.open(path) as pdf:
        used = {op for op, _ in operators(pdf)}
        assert not used & {"rg", "RG", "sc", "SC", "g", "G"}
        assert {"k", "K", "Do", "Tj"} <= used
        for obj in pdf.objects:
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                assert "/DeviceRGB" not in repr(obj.get("/ColorSpace", "")) and "/DeviceRGB" not in repr(
                    obj.get("/Group", ""))
        images = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]
        assert [str(image.ColorSpace) for image in images] == ["/DeviceCMYK"]
        assert len(images[0].read_bytes()) == 8 * 8 * 4
        shadings = [value for form in forms_of(pdf) for value in form.Resources.get("/Shading", {}).values()]
        assert shadings and all(str(shading.ColorSpace) == "/DeviceCMYK" for shading in shadings)


def test_black_is_black_ink_alone_and_cmyk_is_kept_exactly(x1a):
    with pikepdf.open(x1a) as pdf:
        found = operators(pdf)
    fills = {tuple(operands) for op, operands in found if op == "k"}
    strokes = {tuple(operands) for op, operands in found if op == "K"}
    assert (0.0, 0.0, 0.0, 1.0) in fills  # the text
    assert (0.1, 0.2, 0.3, 0.4) in fills  # device-cmyk(0.1 0.2 0.3 0.4)
    assert (0.0, 1.0, 1.0, 0.0) in strokes and (0.0, 0.0, 0.0, 1.0) in strokes  # cmyk(0,100,100,0); the black line
    red = converter_for().to_cmyk((round(0xb3 / 255, 6), round(0x26 / 255, 6), round(0x2d / 255, 6)))
    assert red in fills and red[3] > 0  # an RGB colour separated through the profile: a deep red needs black
    text_colours, colour = set(), None
    for op, operands in found:
        colour = tuple(operands) if op == "k" else colour
        if op == "Tj":
            text_colours.add(colour)
    assert text_colours == {(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 0.0)}  # black front text, white back text


def test_rgb_files_show_cmyk_as_it_prints(tmp_path):
    path = export_pdfx(tmp_path, None)
    with pikepdf.open(path) as pdf:
        fills = {tuple(operands) for op, operands in operators(pdf) if op == "rg"}
        assert "/OutputIntents" not in pdf.Root and "/GTS_PDFXVersion" not in pdf.trailer.Info
    looks = converter_for().to_rgb((0.1, 0.2, 0.3, 0.4))
    assert tuple(round(v, 6) for v in looks) in {tuple(round(v, 6) for v in fill) for fill in fills}


def test_every_page_has_its_trim_and_bleed_and_fonts_are_embedded(x1a):
    with pikepdf.open(x1a) as pdf:
        assert len(pdf.pages) == 6  # three pieces, front and back
        for page in pdf.pages:
            trim, bleed, media = ([float(v) for v in page.obj[key]] for key in ("/TrimBox", "/BleedBox", "/MediaBox"))
            assert bleed == media == pytest.approx([0, 0, 69 * MM, 94 * MM])
            assert trim == pytest.approx([3 * MM, 3 * MM, 66 * MM, 91 * MM])
        fonts = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"
                 and obj.get("/Subtype") == "/CIDFontType2"]
        assert fonts and all("/FontFile2" in font.FontDescriptor for font in fonts)


def test_x1a_has_no_transparency(x1a):
    with pikepdf.open(x1a) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                assert "/SMask" not in obj and "/Group" not in obj
                assert all(float(obj.get(key, 1)) == 1 for key in ("/CA", "/ca"))


@pytest.fixture
def see_through(tmp_path) -> Path:
    project = tmp_path / "see-through"
    shutil.copytree(COLOURS, project)
    front = project / "templates" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8") + '<circle cx="30" cy="80" r="5" fill="#fff" opacity="0.5"/>\n',
                     encoding="utf-8")
    return project


def test_x1a_refuses_transparency_naming_the_template(see_through, tmp_path):
    with pytest.raises(PnpError) as err:
        export_pdfx(tmp_path / "out", project=see_through)
    messages = [str(problem) for problem in err.value.problems]
    assert len(messages) == 2  # the two distinct fronts, each once
    assert messages[0] == ("cards.yaml:12:13: templates/front.svg.j2 (deck 1, front): opacity 0.5, which PDF/X-1a "
                           "cannot hold; expected opaque colours and images, or --pdfx 4 (PDF/X-4 keeps transparency)")
    assert not (tmp_path / "out" / "inks" / "shop").exists()  # nothing written


def test_x4_keeps_transparency_blended_in_cmyk(see_through, tmp_path):
    with pikepdf.open(export_pdfx(tmp_path / "out", "4", project=see_through)) as pdf:
        states = [state for form in forms_of(pdf) for state in form.Resources.get("/ExtGState", {}).values()]
        assert {float(state.ca) for state in states if "/ca" in state} == {0.5}


def test_registration_and_profiles_by_name(tmp_path):
    with pikepdf.open(export_pdfx(tmp_path / "gracol", profile="gracol")) as pdf:
        assert str(pdf.Root.OutputIntents[0].OutputConditionIdentifier) == "CGATS TR 006"
    with pikepdf.open(export_pdfx(tmp_path / "swop", "4", profile="swop")) as pdf:
        intent = pdf.Root.OutputIntents[0]
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 005"
        assert intent.DestOutputProfile.read_bytes() == (PROFILES_DIR / "CGATS-TR005.icc").read_bytes()


def test_the_same_bytes_every_time(x1a, tmp_path):
    assert export_pdfx(tmp_path).read_bytes() == x1a.read_bytes()


@pytest.mark.parametrize("options, message", [
    (ExportOptions(pdfx="1a"), "--pdfx 1a: PDF/X is what print shops take; expected it only with shop"),
    (ExportOptions(profile="swop"), "--profile swop: it names the press a PDF/X is separated for; expected it only "
                                    "with --pdfx"),
])
def test_options_only_where_they_mean_something(options, message):
    with pytest.raises(PnpError) as err:
        export(COLOURS, "png", options)
    assert str(err.value) == message


def test_unknown_version_and_profile_are_refused():
    with pytest.raises(PnpError, match=r"^--pdfx 3: expected 1a \(PDF/X-1a:2001, the default\) or 4 \(PDF/X-4\)$"):
        export(COLOURS, "shop", ExportOptions(pdfx="3"))
    with pytest.raises(PnpError, match=r"^--profile japan: no such press profile; expected one of: fogra39 \(FOGRA39\)"):
        export(COLOURS, "shop", ExportOptions(pdfx="1a", profile="japan"))


@pytest.mark.skipif(shutil.which("gs") is None, reason="needs Ghostscript (apt-get install ghostscript)")
@pytest.mark.parametrize("version", ["1a", "4"])
def test_ghostscript_renders_them_without_a_word(version, x1a, x4, tmp_path):
    path = x1a if version == "1a" else x4
    run = subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r36",
                          f"-sOutputFile={tmp_path / 'page%d.tif'}", str(path)], capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    assert len(list(tmp_path.glob("page*.tif"))) == 6
