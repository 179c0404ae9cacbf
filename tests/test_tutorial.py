"""docs/tutorial.md as a new user follows it, with pnpgen installed from a wheel (conftest.py): every file it shows
written, every command run in order in an empty folder, each PDF with the pages the page says and each picture it
shows there to render (docs/make_tutorial_pictures.py renders them)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pypdfium2
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "docs"))

from tutorial_steps import read_steps, run_tutorial  # noqa: E402

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first



def test_the_tutorial_runs_as_written_from_a_wheel_install(wheel_python, tmp_path):
    python = wheel_python
    shims = tmp_path / "bin"  # `pnpgen` in the reader's shell: the installed package's `python -m pnpgen`
    shims.mkdir()
    (shims / "pnpgen").write_text(f'#!/bin/sh\nexec "{python}" -m pnpgen "$@"\n', encoding="utf-8")
    (shims / "pnpgen").chmod(0o755)
    env = {"PATH": f"{shims}{os.pathsep}{os.defpath}", "HOME": str(tmp_path), "LANG": "C.UTF-8",
           "PNPGEN_CACHE": str(tmp_path / "cache")}
    shown = []

    def check_picture(pdf: Path, page: int, image: Path, crop: bool) -> None:
        assert page < len(pypdfium2.PdfDocument(str(pdf))), f"{pdf.name} has no page {page + 1}"
        assert image.is_file(), f"{image.relative_to(REPO)} is missing: run `python3 docs/make_tutorial_pictures.py`"
        shown.append(image.name)

    work = tmp_path / "work"
    work.mkdir()
    ran = run_tutorial(work, env, check_picture)
    assert ran >= 8 and len(shown) == 5
    where = subprocess.run([str(python), "-c", "import pnpgen; print(pnpgen.__file__)"], env=env, cwd=work,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert not Path(where).is_relative_to(REPO)  # the wheel's package ran, not the checkout's


def test_every_file_the_tutorial_shows_is_run_and_every_picture_is_committed():
    steps = read_steps((REPO / "docs" / "tutorial.md").read_text(encoding="utf-8"))
    files = {step.path for step in steps if step.kind == "file"}
    assert {"cards.yaml", "data/fruit.csv", "templates/fruit.svg.j2", "rules/orchard.md"} <= files
    pictures = {step.options["to"] for step in steps if step.kind == "picture"}
    assert all((REPO / "docs" / picture).is_file() for picture in pictures)
