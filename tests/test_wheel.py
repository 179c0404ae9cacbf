"""The package as a wheel holds every subpackage and data file: it imports and its CLI runs outside the checkout."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_module_and_runs_outside_the_checkout(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    sources = {str(p.relative_to(REPO)).replace("\\", "/") for p in (REPO / "pnpgen").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert sources - shipped == set()
    env = {"PYTHONPATH": str(tmp_path / "site"), "PATH": "", "HOME": str(tmp_path)}
    shown = subprocess.run([sys.executable, "-c", "import pnpgen, pnpgen.live.page; print(pnpgen.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert Path(shown.stdout.strip()).is_relative_to(tmp_path / "site")
    helped = subprocess.run([sys.executable, "-m", "pnpgen", "--help"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert helped.returncode == 0 and "build" in helped.stdout and "check" in helped.stdout


def test_a_wheel_installed_outside_the_checkout_starts_and_builds_a_new_project(wheel, wheel_python, tmp_path):
    """pip install of the wheel (no -e) into a fresh venv: `pnpgen init` then `pnpgen build` there, with
    the bundled fonts coming from the installed package (the checkout is nowhere on the path)."""
    with zipfile.ZipFile(wheel) as archive:
        assert {"pnpgen/fonts/NotoSansJP-Regular.ttf", "pnpgen/fonts/NotoSansJP-Bold.ttf"} <= set(archive.namelist())
        assert {"pnpgen/profiles/FOGRA39L.icc", "pnpgen/profiles/CGATS-TR006.icc", "pnpgen/profiles/CGATS-TR005.icc",
                "pnpgen/profiles/LICENSE.txt"} <= set(archive.namelist())
    python = wheel_python
    venv = python.parent.parent
    env = {"PATH": f"{venv / 'bin'}", "HOME": str(tmp_path), "PNPGEN_CACHE": str(tmp_path / "cache")}
    where = subprocess.run([str(python), "-c", "import pnpgen.faces.fonts as f; print(f.BUNDLED_FONTS)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(venv) and not Path(where).is_relative_to(REPO)
    started = subprocess.run([str(venv / "bin" / "pnpgen"), "init", "新しいゲーム"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    built = subprocess.run([str(venv / "bin" / "pnpgen"), "build"], cwd=tmp_path / "新しいゲーム", env=env,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    pdfs = sorted((tmp_path / "新しいゲーム" / "output").rglob("*.pdf"))
    assert pdfs, built.stdout
    from pypdf import PdfReader

    fonts = {str(f.get_object().get("/BaseFont")) for pdf in pdfs for page in PdfReader(pdf).pages
             for form in (page["/Resources"].get("/XObject") or {}).values()
             for f in ((form.get_object().get("/Resources") or {}).get("/Font") or {}).values()}
    assert any("NotoSansJP" in name for name in fonts), fonts
