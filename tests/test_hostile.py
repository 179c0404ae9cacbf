"""Hostile projects: sandbox escapes, XXE and entity bombs, YAML tags and bombs, files and symlinks that leave
the project, unwritable output, two builds at once and Ctrl-C. Each is refused with a located one-line
message (no traceback, nothing written) or is harmless; xfail(strict=True) marks a reported bug."""
from __future__ import annotations

import errno
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import sys
import time
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import pnpgen
from pnpgen import Options, PnpError
from pnpgen.cli import main
from pnpgen.faces.fonts import BUNDLED_FONTS

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
MINIMAL = REPO / "tests" / "fixtures" / "minimal"
BUNDLED_FONT = BUNDLED_FONTS / "NotoSansJP-Regular.ttf"
CARDS = """games:
  - id: g
    title: G
    components:
      - id: deck
        front: front.svg.j2
        cards:
          - {name: 剣}
"""
WHERE = "cards.yaml:8:13: deck card (name=剣)"  # where every template problem of CARDS is reported
SECRET = "PNPGEN-SECRET-7f3a9c"  # the content of a file outside the project that must never leak
PASSWD = "root:x:0:0"
symlinks = pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="needs symlinks")


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch):
    """Every test gets its own render cache: nothing a test renders can come from another test."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "render-cache"))


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder next to the project holding a secret, a template, an icon, a YAML file and a font."""
    folder = tmp_path / "outside"
    (folder / "tpl").mkdir(parents=True)
    (folder / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (folder / "tpl" / "front.svg.j2").write_text(f'<text x="2" y="10" font-size="4">{SECRET}</text>\n', encoding="utf-8")
    (folder / "x.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                  f'<text x="0" y="5" font-size="3">{SECRET}</text></svg>', encoding="utf-8")
    (folder / "game.yaml").write_text(CARDS.replace("id: g", "id: outsider"), encoding="utf-8")
    (folder / "rules.md").write_text(f"# {SECRET}\n", encoding="utf-8")
    shutil.copy(BUNDLED_FONT, folder / "Outside.ttf")
    return folder


def make_project(tmp_path: Path, front: str = '<rect width="{{ W }}" height="{{ H }}" fill="#fff"/>',
                 cards: str = CARDS, files: dict | None = None) -> Path:
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    (root / "cards.yaml").write_text(cards, encoding="utf-8")
    (root / "templates" / "front.svg.j2").write_text(front + "\n", encoding="utf-8")
    for name, content in (files or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def link(path: Path, target: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    path.symlink_to(target, target_is_directory=target.is_dir())


def build(root: Path, out: Path | None = None, *args: str):
    out = out or root.parent / "out"
    return CliRunner().invoke(main, ["build", str(root), "-o", str(out), *args]), out


def crash(result) -> str:
    if result.exc_info and not isinstance(result.exception, SystemExit):
        return "".join(traceback.format_exception(*result.exc_info))
    return result.output


def assert_no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), crash(result)
    assert "Traceback" not in result.output


def assert_refused(result, out: Path, expected: str) -> None:
    """Exit 1, no traceback, exactly the expected located message, and not a file written."""
    assert_no_traceback(result)
    assert result.exit_code == 1, result.output
    assert result.stderr == expected + "\n"
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def written_text(out: Path) -> str:
    """Every byte written under out, plus the text pypdf extracts from each PDF."""
    parts = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()) if out.exists() else ():
        parts.append(path.read_bytes().decode("latin-1"))
        if path.suffix == ".pdf":
            parts.extend(page.extract_text() for page in PdfReader(path).pages)
    return "\n".join(parts)


def assert_nothing_leaked(result, out: Path, *secrets: str) -> None:
    seen = result.output + written_text(out)
    for secret in secrets:
        assert secret not in seen


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*.pdf"))}


def leftovers(*folders: Path) -> list[str]:
    """Temporary and staging files a build must never leave behind."""
    return sorted(str(p) for folder in folders if folder.exists() for p in folder.rglob("*")
                  if p.name.endswith((".tmp", ".staged")) or ".staged" in p.name)


def subprocess_env(cache: Path) -> dict:
    env = dict(os.environ, PNPGEN_CACHE=str(cache))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


# --- Jinja sandbox -------------------------------------------------------------------------------------------

SANDBOX = [
    ("str-mro", "{{ ''.__class__.__mro__ }}",
     "front.svg.j2 line 1: refused by the sandbox (access to attribute '__class__' of 'str' object is unsafe.)"),
    ("cycler-globals", "{{ cycler.__init__.__globals__ }}",
     "front.svg.j2 line 1: refused by the sandbox (access to attribute '__init__' of 'type' object is unsafe.)"),
    ("lipsum-os", "{{ lipsum.__globals__['os'].popen('id').read() }}",
     "front.svg.j2 line 1: refused by the sandbox (access to attribute '__globals__' of 'function' object is unsafe.)"),
    ("format-string", "{{ '{0.__class__}'.format(card) }}",
     "front.svg.j2 line 1: refused by the sandbox (access to attribute '__class__' of 'Fields' object is unsafe.)"),
    ("template-reference", "{{ self._TemplateReference__context }}",
     "front.svg.j2 line 1: refused by the sandbox (access to attribute '_TemplateReference__context' of "
     "'TemplateReference' object is unsafe.)"),
    ("include-parent", "{% include '../../etc/passwd' %}",
     "template '../../etc/passwd' not found; expected it under templates/"),
    ("include-absolute", "{% include '/etc/passwd' %}",
     "template '/etc/passwd' not found; expected it under templates/"),
    ("import-project-yaml", "{% import '../cards.yaml' as data %}",
     "template '../cards.yaml' not found; expected it under templates/"),
    ("extends-absolute", "{% extends '/etc/passwd' %}",
     "template '/etc/passwd' not found; expected it under templates/"),
    ("range-limit", "{{ range(10**9)|list }}",
     "front.svg.j2 line 1: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."),
    ("loop-range-limit", "{% for i in range(10**8) %}{% endfor %}",
     "front.svg.j2 line 1: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."),
]


@pytest.mark.parametrize("template, expected", [c[1:] for c in SANDBOX], ids=[c[0] for c in SANDBOX])
def test_templates_cannot_reach_python_or_files(tmp_path: Path, template: str, expected: str):
    result, out = build(make_project(tmp_path, template))
    assert_refused(result, out, f"{WHERE}: {expected}")
    assert_nothing_leaked(result, out, PASSWD)


def test_card_data_is_text_never_template_code(tmp_path: Path):
    cards = CARDS.replace("{name: 剣}", "{name: \"{{ 7*7 }}{% include '/etc/passwd' %}\"}")
    result, out = build(make_project(tmp_path, "{{ text(card.name, 2, 2, 59, 20) }}", cards))
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    text = PdfReader(out / "g" / "deck.pdf").pages[0].extract_text()
    assert "{{ 7*7 }}" in text and "49" not in text and PASSWD not in written_text(out)


# --- SVG: entities, external DTDs, images, external references ---------------------------------------------

ENTITY_ICONS = {
    "xxe-passwd": ('<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
                   '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text y="5">&xxe;</text></svg>'),
    "xxe-secret": ('<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file://{secret}">]>'
                   '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text y="5">&xxe;</text></svg>'),
    "parameter-entity": ('<!DOCTYPE svg [<!ENTITY % p SYSTEM "file://{secret}"> %p;]>'
                         '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="1" height="1"/></svg>'),
    "external-dtd-over-network": ('<!DOCTYPE svg SYSTEM "http://192.0.2.1/evil.dtd">'
                                  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="1" height="1"/></svg>'),
    "billion-laughs": ('<!DOCTYPE svg [<!ENTITY l0 "lol">'
                       + "".join(f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 10))
                       + ']><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text y="5">&l9;</text></svg>'),
    "billion-laughs-in-attribute": ('<!DOCTYPE svg [<!ENTITY l0 "0 0 ">'
                                    + "".join(f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 10))
                                    + ']><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                      '<path d="M &l9;"/></svg>'),
}
ICON_USES = {"icon": '{{ icon("x", 2, 2, 20) }}', "inline": '{{ text("a :x: b", 2, 2, 50, 10) }}'}


@pytest.mark.parametrize("use", ICON_USES)
@pytest.mark.parametrize("name", ENTITY_ICONS)
def test_icon_entities_are_never_resolved_nor_expanded(tmp_path: Path, outside: Path, name: str, use: str):
    icon = ENTITY_ICONS[name].replace("{secret}", str(outside / "secret.txt"))
    root = make_project(tmp_path, ICON_USES[use], files={"templates/icons/x.svg": icon})
    start = time.monotonic()
    result, out = build(root)
    assert time.monotonic() - start < 300, "entity expansion or a network fetch (a hang guard only)"
    assert_no_traceback(result)
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 1:
        assert result.stderr.startswith(WHERE + ": ") and result.stderr.count("\n") == 1, result.stderr
        assert not out.exists() or not list(out.rglob("*.pdf"))
    assert_nothing_leaked(result, out, SECRET, PASSWD)


@pytest.mark.parametrize("name", ["xxe-passwd", "billion-laughs"])
def test_an_icon_with_entities_is_refused_naming_the_icon(tmp_path: Path, name: str):
    root = make_project(tmp_path, ICON_USES["icon"], files={"templates/icons/x.svg": ENTITY_ICONS[name]})
    result, out = build(root)
    assert_no_traceback(result)
    assert result.exit_code == 1 and "templates/icons/x.svg" in result.stderr, result.stderr


IMAGES = [
    ("file-url", '<image href="file:///etc/passwd" width="10" height="10"/>',
     '<image href="file:///etc/passwd">: images must be files in the project, not URLs or data; '
     "expected a path such as images/ron.png"),
    ("http-url", '<image href="http://192.0.2.1/x.png" width="10" height="10"/>',
     '<image href="http://192.0.2.1/x.png">: images must be files in the project, not URLs or data; '
     "expected a path such as images/ron.png"),
    ("xlink-http-url", '<image xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="https://192.0.2.1/x.png" '
                       'width="10" height="10"/>',
     '<image href="https://192.0.2.1/x.png">: images must be files in the project, not URLs or data; '
     "expected a path such as images/ron.png"),
    ("absolute-path", '<image href="/etc/passwd" width="10" height="10"/>',
     '<image href="/etc/passwd"> points outside the project folder; expected a path inside it'),
    ("parent-path", '<image href="../../../../../etc/passwd" width="10" height="10"/>',
     '<image href="../../../../../etc/passwd"> points outside the project folder; expected a path inside it'),
]


@pytest.mark.parametrize("template, expected", [c[1:] for c in IMAGES], ids=[c[0] for c in IMAGES])
def test_images_outside_the_project_are_refused(tmp_path: Path, template: str, expected: str):
    result, out = build(make_project(tmp_path, template))
    assert_refused(result, out, f"{WHERE}: {expected}")


@pytest.mark.parametrize("href", ["../../outside/x.svg#a", "/etc/x.svg#a", "file:///etc/passwd"])
def test_use_of_a_file_outside_the_project_is_refused(tmp_path: Path, outside: Path, href: str):
    result, out = build(make_project(tmp_path, f'<use href="{href}"/>'))
    assert_no_traceback(result)
    assert result.exit_code == 1 and result.stderr.startswith(WHERE + ": "), result.output


# --- YAML ----------------------------------------------------------------------------------------------------


def alias_bomb(levels: int) -> str:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "\n".join(lines + [f"games: *a{levels - 1}"]) + "\n"


YAML_ATTACKS = [
    ("python-object-apply", 'games: !!python/object/apply:os.system ["touch {marker}"]\n',
     "cards.yaml:1:8: the tag !!python/object/apply:os.system is not allowed; expected plain YAML values"),
    ("python-name", "games:\n  - id: g\n    title: !!python/name:os.system\n",
     "cards.yaml:3:12: the tag !!python/name:os.system is not allowed; expected plain YAML values"),
    ("python-object-new", 'games:\n  - !!python/object/new:subprocess.Popen [["touch", "{marker}"]]\n',
     "cards.yaml:2:5: the tag !!python/object/new:subprocess.Popen is not allowed; expected plain YAML values"),
    ("python-module", "project:\n  name: !!python/module:os\n",
     "cards.yaml:2:9: the tag !!python/module:os is not allowed; expected plain YAML values"),
    ("alias-bomb-10-levels", alias_bomb(10),
     "cards.yaml:1:18: more than 200000 values once aliases are expanded; expected a project file, not an alias bomb"),
]


@pytest.mark.parametrize("text, expected", [c[1:] for c in YAML_ATTACKS], ids=[c[0] for c in YAML_ATTACKS])
def test_yaml_is_loaded_safely(tmp_path: Path, text: str, expected: str):
    marker = tmp_path / "PWNED"
    root = make_project(tmp_path, cards=text.replace("{marker}", str(marker)))
    start = time.monotonic()
    result, out = build(root)
    assert time.monotonic() - start < 300  # a hang guard only: a loaded machine is slow, never wrong
    assert_refused(result, out, expected)
    assert not marker.exists()


@pytest.mark.parametrize("depth", [5000])
def test_deeply_nested_yaml_is_a_clear_error(tmp_path: Path, depth: int):
    root = make_project(tmp_path, cards="games: " + "[" * depth + "]" * depth + "\n")
    result, out = build(root)
    assert_no_traceback(result)
    assert result.exit_code == 1 and result.stderr.startswith("cards.yaml:1:") and result.stderr.count("\n") == 1


# --- Paths and symlinks that leave the project ----------------------------------------------------------------


@symlinks
def test_a_template_symlinked_outside_is_refused(tmp_path: Path, outside: Path):
    root = make_project(tmp_path)
    link(root / "templates" / "front.svg.j2", outside / "tpl" / "front.svg.j2")
    result, out = build(root)
    assert_refused(result, out, "cards.yaml:6:16: 'front.svg.j2' points outside the project folder; "
                                "expected a template inside it")


@symlinks
@pytest.mark.parametrize("linked", ["file", "folder"])
def test_an_include_symlinked_outside_is_refused(tmp_path: Path, outside: Path, linked: str):
    root = make_project(tmp_path, cards="include: [games/game.yaml]\n")
    if linked == "file":
        link(root / "games" / "game.yaml", outside / "game.yaml")
    else:
        link(root / "games", outside)
    result, out = build(root)
    assert_refused(result, out, "cards.yaml:1:11: 'games/game.yaml' points outside the project folder; "
                                "expected a YAML file inside it")


@symlinks
def test_a_rulebook_symlinked_outside_is_refused(tmp_path: Path, outside: Path):
    cards = CARDS.replace("    title: G\n", "    title: G\n    rulebook: rules/rules.md\n")
    root = make_project(tmp_path, cards=cards)
    link(root / "rules" / "rules.md", outside / "rules.md")
    result, out = build(root)
    assert_refused(result, out, "cards.yaml:4:15: 'rules/rules.md' points outside the project folder; "
                                "expected a Markdown file inside it")


@symlinks
def test_an_image_symlinked_outside_is_refused(tmp_path: Path, outside: Path):
    from PIL import Image

    Image.new("RGB", (4, 4), "red").save(outside / "leak.png")
    root = make_project(tmp_path, '<image href="images/leak.png" width="10" height="10"/>')
    link(root / "images" / "leak.png", outside / "leak.png")
    result, out = build(root)
    assert_refused(result, out, f'{WHERE}: <image href="images/leak.png"> points outside the project folder; '
                                "expected a path inside it")


SYMLINK_ESCAPES = {
    # what the project holds -> (front template, symlink inside the project, its target in `outside`)
    "jinja-include": ('{% include "leak.svg.j2" %}', "templates/leak.svg.j2", "tpl/front.svg.j2"),
    "jinja-include-via-folder": ('{% include "shared/front.svg.j2" %}', "templates/shared", "tpl"),
    "templates-folder": (None, "templates", "tpl"),
    "icon": ('{{ icon("x", 2, 2, 30) }}', "templates/icons/x.svg", "x.svg"),
    "icons-folder": ('{{ text("a :x: b", 2, 2, 50, 20) }}', "templates/icons", "."),
}


@symlinks
@pytest.mark.parametrize("case", SYMLINK_ESCAPES)
def test_templates_and_icons_symlinked_outside_are_refused(tmp_path: Path, outside: Path, case: str):
    front, inside, target = SYMLINK_ESCAPES[case]
    root = make_project(tmp_path, front or "")
    link(root / inside, (outside / target).resolve())
    result, out = build(root)
    assert_no_traceback(result)
    assert_nothing_leaked(result, out, SECRET)
    assert result.exit_code == 1 and "outside the project" in result.stderr, result.output


@symlinks
@pytest.mark.parametrize("linked", ["file", "folder"])
def test_fonts_symlinked_outside_are_refused(tmp_path: Path, outside: Path, linked: str):
    root = make_project(tmp_path)
    if linked == "file":
        link(root / "fonts" / "Outside.ttf", outside / "Outside.ttf")
    else:
        link(root / "fonts", outside)
    result, out = build(root)
    assert_no_traceback(result)
    assert result.exit_code == 1 and "outside the project" in result.stderr, result.output
    assert "fonts/Outside.ttf" in result.stderr


# --- Output folder --------------------------------------------------------------------------------------------


def test_an_output_folder_under_a_file_is_a_clear_error(tmp_path: Path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    result, out = build(make_project(tmp_path), blocker / "out")
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {blocker / 'out' / 'g'}: cannot write the PDF here (Not a directory); "
                             "expected a writable folder\n")
    assert blocker.read_text() == "a file where a folder should be"


def test_an_output_folder_that_is_a_file_is_a_clear_error(tmp_path: Path):
    blocker = tmp_path / "out"
    blocker.write_text("a file where a folder should be")
    result, _ = build(make_project(tmp_path), blocker)
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {blocker / 'g'}: cannot write the PDF here (Not a directory); "
                             "expected a writable folder\n")


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root ignores folder permissions")
def test_a_read_only_output_folder_is_a_clear_error(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o500)
    try:
        result, _ = build(make_project(tmp_path), out)
    finally:
        out.chmod(0o700)
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "cannot write the PDF here" in result.stderr
    assert "expected a writable folder" in result.stderr and result.stderr.count("\n") == 1


def test_a_full_disk_is_a_clear_error_and_keeps_the_previous_pdfs(tmp_path: Path, monkeypatch):
    root = make_project(tmp_path, '{{ text(card.name, 2, 2, 50, 20) }}')
    out = tmp_path / "out"
    first, _ = build(root, out)
    assert first.exit_code == 0, crash(first)
    before = digests(out)
    (root / "cards.yaml").write_text(CARDS.replace("剣", "盾"), encoding="utf-8")

    def full(_fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)  # a full disk shows when the data is flushed
    result, _ = build(root, out)
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {out / 'g'}: cannot write the PDF here (No space left on device); "
                             "expected a writable folder\n")
    assert digests(out) == before
    assert leftovers(out, root) == []


# --- Two builds at once ---------------------------------------------------------------------------------------


def make_cff_font(path: Path, family: str = "Hostile CFF") -> Path:
    """A one-glyph CFF (PostScript-outline) OTF: pnpgen converts it once into the project's font cache."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef", "space", "A"])
    fb.setupCharacterMap({32: "space", 65: "A"})
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    pen = T2CharStringPen(600, None)
    for op, point in (("moveTo", (100, 0)), ("lineTo", (500, 0)), ("lineTo", (300, 700))):
        getattr(pen, op)(point)
    pen.closePath()
    blank = {name: T2CharStringPen(width, None).getCharString() for name, width in ((".notdef", 500), ("space", 250))}
    fb.setupCFF(family.replace(" ", "") + "-Regular", {"FullName": family}, {**blank, "A": pen.getCharString()}, {})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "space": (250, 0), "A": (600, 100)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200, usWeightClass=400, fsType=0)
    fb.setupPost()
    fb.save(str(path))
    return path


def concurrent_project(tmp_path: Path, with_cff_font: bool) -> Path:
    root = tmp_path / "minimal"
    shutil.copytree(MINIMAL, root)
    if with_cff_font:
        (root / "fonts").mkdir()
        make_cff_font(root / "fonts" / "HostileCFF.otf")
        front = root / "templates" / "front.svg.j2"
        front.write_text(front.read_text(encoding="utf-8")
                         + '{{ text("A A A", 3, 70, 40, 10, family="Hostile CFF") }}\n', encoding="utf-8")
    return root


def run_builds(root: Path, out: Path, cache: Path, count: int,
               clock: Path | None = None) -> list[subprocess.CompletedProcess]:
    """count builds at once; clock, when given, is a folder put first on their PYTHONPATH (its sitecustomize sets
    their clock)."""
    command = [sys.executable, "-m", "pnpgen", "build", str(root), "-o", str(out)]
    env = subprocess_env(cache)
    if clock is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(clock), env["PYTHONPATH"]])
    processes = [subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(count)]
    results = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))
    return results


def test_a_second_process_with_a_warm_cache_writes_the_same_pdfs(tmp_path: Path):
    """Cached drawings name fonts that a fresh process must register (a KeyError traceback before 005a505)."""
    root = concurrent_project(tmp_path, with_cff_font=False)
    first, second = (run_builds(root, tmp_path / name, tmp_path / "cache", 1)[0] for name in ("first", "second"))
    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    assert digests(tmp_path / "second") == digests(tmp_path / "first")


@pytest.mark.parametrize("with_cff_font", [False, True], ids=["minimal", "minimal-with-cff-font"])
def test_two_builds_at_once_agree_with_one_build(tmp_path: Path, with_cff_font: bool):
    root = concurrent_project(tmp_path, with_cff_font)
    [single] = run_builds(root, tmp_path / "single", tmp_path / "cache-single", 1)
    assert single.returncode == 0, single.stderr
    expected = digests(tmp_path / "single")
    assert expected and all(len(PdfReader(tmp_path / "single" / name).pages) >= 1 for name in expected)
    for attempt, cache in enumerate(["cold", "cold", "warm"]):  # two builds with a cold render cache, then a warm one
        out = tmp_path / f"same-{attempt}"
        results = run_builds(root, out, tmp_path / f"cache-{cache}", 2)
        assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
        assert not any("Traceback" in r.stderr for r in results)
        assert digests(out) == expected
        for name in expected:
            assert len(PdfReader(out / name).pages) == len(PdfReader(tmp_path / "single" / name).pages)
        assert leftovers(out, root, tmp_path / f"cache-{cache}") == []


def test_fonts_converted_again_later_and_at_once_give_the_same_pdfs(tmp_path: Path):
    root = concurrent_project(tmp_path, with_cff_font=True)
    [first] = run_builds(root, tmp_path / "first", tmp_path / "cache-first", 1)
    assert first.returncode == 0, first.stderr
    # a rebuild from a fresh checkout happens later: these builds' clock is a day ahead; cache-again is a new
    # cache folder, so the converted-font cache in it starts cold and both builds convert the font
    results = run_builds(root, tmp_path / "again", tmp_path / "cache-again", 2, clock=FIXTURES / "clock-a-day-ahead")
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    assert digests(tmp_path / "again") == digests(tmp_path / "first")
    assert leftovers(root, tmp_path / "again") == []


# --- Ctrl-C ---------------------------------------------------------------------------------------------------


def many_cards(count: int, start: int = 0) -> str:
    cards = "\n".join(f"          - {{n: {i}, name: \"カード{i}: a card with a name long enough to wrap, {i}\"}}"
                      for i in range(start, start + count))
    return CARDS.replace("          - {name: 剣}", cards)


BIG_FRONT = ('<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#eee"/>\n'
             '{{ text(card.name, 3, 3, W - 6, 30, size=14, min_size=6) }}\n'
             '{{ text(card.n|string, 3, 50, 30, 20, size=30) }}')


def wait_until_building(process: subprocess.Popen, cache: Path) -> None:
    """Until the build has the face store open: its imports are done, and Ctrl-C is the build's to handle."""
    fds = Path(f"/proc/{process.pid}/fd")
    if not fds.is_dir():
        pytest.skip("the build's open files cannot be seen (no /proc): nothing tells when the build has begun")
    store, deadline = str(cache.resolve()), time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if any(os.readlink(fd).startswith(store) for fd in fds.iterdir()):
                return
        except OSError:  # a file closed while it was looked at
            pass
        time.sleep(0.01)


def test_ctrl_c_keeps_the_previous_pdfs_and_leaves_no_temporary_files(tmp_path: Path):
    root = make_project(tmp_path, BIG_FRONT, many_cards(9))
    out, cache = tmp_path / "out", tmp_path / "cache"
    env = subprocess_env(cache)
    command = [sys.executable, "-m", "pnpgen", "build", str(root), "-o", str(out)]
    subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True)
    before = digests(out)
    assert set(before) == {"g/deck.pdf", "g/g-print-and-play.pdf"}
    (root / "cards.yaml").write_text(many_cards(3000, start=100), encoding="utf-8")  # every face is new
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_until_building(process, cache)  # interrupt the build, not Python's start-up, however loaded
    still_running = process.poll() is None
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert still_running, "the build finished before Ctrl-C: make the project bigger"
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    # After a handled Ctrl-C CPython itself may end the process by SIGINT on its way out (its exit path, seen under
    # strace); a shell reports 130 either way.
    assert process.returncode in (1, 130, -signal.SIGINT), (process.returncode, stderr)
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert digests(out) == before
    assert leftovers(out, root) == []  # the render cache: see the next test


def test_an_interrupt_right_after_the_temp_file_is_made_leaves_no_temp_file(tmp_path: Path, monkeypatch):
    from pnpgen.files import atomic

    real_open = os.open

    def interrupted(path, flags, *args, **kwargs):
        os.close(real_open(path, flags, *args, **kwargs))
        raise KeyboardInterrupt  # Ctrl-C as the temp file comes into being, before its handle is returned

    monkeypatch.setattr(atomic.os, "open", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_atomically(tmp_path / "cache" / "entry.svg", b"<svg/>", "cache entry", durable=False)
    assert leftovers(tmp_path) == []


def test_an_interrupt_while_writing_keeps_every_previous_pdf(tmp_path: Path, monkeypatch):
    """Ctrl-C between two renames must not leave a new deck.pdf next to an old print-and-play PDF."""
    root = tmp_path / "minimal"
    shutil.copytree(MINIMAL, root)
    out = tmp_path / "out"
    pnpgen.build(root, Options(out_dir=out))
    before = digests(out)
    cards = root / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: 盾", "name: 大盾"), encoding="utf-8")
    replace, calls = os.replace, []

    def interrupted_replace(source, target, *args, **kwargs):
        if Path(target).suffix == ".pdf":
            calls.append(target)
            if len(calls) == 2:
                raise KeyboardInterrupt
        return replace(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "replace", interrupted_replace)
    with pytest.raises(KeyboardInterrupt):
        pnpgen.build(root, Options(out_dir=out))
    monkeypatch.setattr(os, "replace", replace)
    assert leftovers(out, root) == []
    assert digests(out) == before


def test_library_refusals_are_pnperrors_with_located_problems(tmp_path: Path):
    """The library raises PnpError for a sandbox escape, with the card's location (the CLI only prints it)."""
    root = make_project(tmp_path, SANDBOX[0][1])
    with pytest.raises(PnpError) as caught:
        pnpgen.build(root, Options(out_dir=tmp_path / "out"))
    [problem] = caught.value.problems
    assert (problem.location.file, problem.location.line, problem.location.col) == ("cards.yaml", 8, 13)


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() != 0, reason="runs the build as another user, which needs root")
def test_a_read_only_output_folder_is_a_clear_error_for_a_user_without_rights():
    """As root permissions do not bind, so the build runs as 'nobody' against a folder it may not write."""
    import pwd

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no 'nobody' user on this machine")
    work = Path(tempfile.mkdtemp(prefix="pnpgen-readonly-"))
    try:
        work.chmod(0o755)
        shutil.copytree(MINIMAL, work / "project")
        out, cache = work / "out", work / "cache"
        out.mkdir(mode=0o555)
        cache.mkdir(mode=0o777)
        for folder in (work / "project", *(p for p in (work / "project").rglob("*") if p.is_dir())):
            folder.chmod(0o755)
        env = dict(os.environ, PNPGEN_CACHE=str(cache), HOME=str(cache))
        try:
            result = subprocess.run([sys.executable, "-m", "pnpgen", "build", str(work / "project"), "-o", str(out)],
                                    cwd=work, env=env, capture_output=True, text=True, timeout=120,
                                    preexec_fn=lambda: (os.setgid(nobody.pw_gid), os.setuid(nobody.pw_uid)))
        except PermissionError:
            pytest.skip(f"'nobody' may not run {sys.executable} (Python installed in a private folder)")
        if "No module named" in result.stderr or f"Permission denied: '{Path.home()}" in result.stderr:
            pytest.skip("'nobody' cannot read the Python installation or pnpgen here")
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode == 1
        assert result.stderr == (f"error: {out / 'tiny'}: cannot write the PDF here (Permission denied); "
                                 "expected a writable folder\n")
        assert list(out.iterdir()) == []
    finally:
        shutil.rmtree(work, ignore_errors=True)
