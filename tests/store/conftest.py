"""A copy of the minimal fixture project that a store test may build and edit."""
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture()
def project(tmp_path):
    target = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", target)
    return target
