"""A copy of the bundled project that a mutation test may edit."""
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def project(tmp_path):
    """A copy of the bundled project that a test may edit."""
    target = tmp_path / "project"
    target.mkdir()
    for name in ("cards.yaml", "games", "templates", "documents", "rules"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target / name)
    return target
