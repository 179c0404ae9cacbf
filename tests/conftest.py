"""Make tests/pdfprobe.py importable, give the test run a cache of its own (never the user's), start each test as a
fresh process, start the longest tests first, and make one wheel of this checkout for the tests that install it."""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
os.environ["PNPGEN_CACHE"] = tempfile.mkdtemp(prefix="pnpgen-test-cache-")


def pytest_configure(config):
    config.addinivalue_line("markers", "long: takes many seconds (an install, several whole builds): its file starts first")


def pytest_collection_modifyitems(items):
    """Files with a long test start first. Each file runs on one worker (`--dist loadfile`, pyproject.toml), so a
    module-scoped build is made once; a long file begun near the end of the run would keep the other worker idle."""
    first = {item.path for item in items if item.get_closest_marker("long")}
    items.sort(key=lambda item: item.path not in first)


@pytest.fixture(autouse=True)
def builds_keep_no_reads():
    """watch and serve make their process keep the face records it read (store/recall.py): each test starts as a
    fresh process does, and a test of a damaged cache file sees the file, not what an earlier test read."""
    from pnpgen.store.recall import READS

    yield
    READS.on = False
    READS.rows.clear()
    READS.size = 0


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """A wheel of this checkout, as `pip wheel` makes it: built from a copy, since setuptools builds in the source
    folder and two workers building there at once collide in its build/ folder."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "pnpgen", source / "pnpgen", ignore=shutil.ignore_patterns("__pycache__"))
    made = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder), str(source)],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    return next(folder.glob("pnpgen-*.whl"))


@pytest.fixture(scope="session")
def wheel_python(wheel, tmp_path_factory) -> Path:
    """The python of a fresh venv with the wheel installed (no -e), its dependencies from this environment."""
    venv = tmp_path_factory.mktemp("wheel-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the checkout must not look installed
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, env=clean)
    # The dependencies come from this environment (no network). Its site-packages go on the venv's path as
    # plain entries, not as site folders (as --system-site-packages would): their .pth files are not run,
    # so an editable install of the checkout there cannot shadow the installed wheel.
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    (Path(own) / "outside.pth").write_text("\n".join(p for p in sys.path if p.endswith("-packages")) + "\n")
    return python
