"""The package as a wheel holds every subpackage and data file: it imports and its CLI runs outside the checkout."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_module_and_runs_outside_the_checkout(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "whl"), str(REPO)],
                   check=True, capture_output=True)
    wheel = next((tmp_path / "whl").glob("pnpgen-*.whl"))
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
