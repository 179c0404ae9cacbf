"""Make tests/hostile/attack.py importable, and give every hostile test a render cache of its own."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch):
    """Nothing a test renders can come from another test's cache."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "render-cache"))
