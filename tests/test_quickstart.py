"""The README's Quick start, run as written on a fresh clone with the system's own PEP 668 Python."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
# The system's default PATH (glibc: /bin:/usr/bin): what a new user's shell finds as `python3`, not ours.
SYSTEM_PATH = os.confstr("CS_PATH") if "CS_PATH" in getattr(os, "confstr_names", {}) else os.defpath
# pip's words when it cannot reach the package index: the one failure that is the machine's, not the README's.
OFFLINE = ("NewConnectionError", "Temporary failure in name resolution", "Network is unreachable",
           "Max retries exceeded")
# Variables that would let the commands use another Python or install into the system one.
UNSET = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PIP_USER", "PIP_PREFIX",
         "PIP_TARGET", "CONDA_PREFIX")


def read_quick_start(text: str) -> list[str]:
    """The commands of the first code block under the README's `## Quick start` heading."""
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, "the README has no '## Quick start' section"
    block = re.search(r"^```[^\n]*\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, "the Quick start has no code block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def find_pep668_python() -> Path:
    """The `python3` on the system's default PATH, when its distribution marks it externally managed."""
    found = shutil.which("python3", path=SYSTEM_PATH)
    if not found:
        pytest.skip("no python3 on the system's default PATH")
    probe = "import sys, sysconfig; print(sys.version_info >= (3, 10)); print(sysconfig.get_path('stdlib'))"
    newer, stdlib = subprocess.run([found, "-I", "-c", probe], capture_output=True, text=True,
                                   check=True, timeout=60).stdout.splitlines()
    if not (Path(stdlib) / "EXTERNALLY-MANAGED").is_file():
        pytest.skip(f"{found} is not an externally managed (PEP 668) Python")
    if newer != "True":
        pytest.skip(f"{found} is older than the Python 3.10 pnpgen needs")
    return Path(found)


def clone_repo(target: Path) -> Path:
    """A fresh clone of this checkout's commit: what a newcomer gets, without our untracked files."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing to clone")
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(target)], check=True, timeout=300)
    subprocess.run(["git", "-C", str(target), "checkout", "-q", head], check=True, timeout=300)
    return target


def newcomer_env(cache: Path) -> dict:
    """The environment of a new user's shell: the system PATH, no virtual environment, pip allowed the index."""
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    env.update(PATH=SYSTEM_PATH, PNPGEN_CACHE=str(cache), PIP_BREAK_SYSTEM_PACKAGES="0",
               PIP_DISABLE_PIP_VERSION_CHECK="1",
               # the second command runs the suite: collecting every test proves the test extras are installed
               # and every test module imports; CI runs the same command for the whole suite
               PYTEST_ADDOPTS="--collect-only -p no:cacheprovider")
    return env


def run_command(command: str, clone: Path, env: dict) -> str:
    """Run one README line in a shell as typed; its output, or a skip when pip cannot reach the index."""
    done = subprocess.run(["sh", "-c", command], cwd=clone, env=env, capture_output=True, text=True, timeout=1200)
    output = done.stdout + done.stderr
    if done.returncode and any(marker in output for marker in OFFLINE):
        pytest.skip(f"the package index cannot be reached: {command!r} needs it")
    assert done.returncode == 0, f"{command!r} failed (exit {done.returncode}):\n{output[-4000:]}"
    return done.stdout


@pytest.mark.long
def test_quick_start_works_with_the_system_python(tmp_path):
    python = find_pep668_python()
    commands = read_quick_start(README.read_text(encoding="utf-8"))
    assert len(commands) == 2, f"the Quick start should be two commands, found {len(commands)}: {commands}"
    clone = clone_repo(tmp_path / "clone")
    env = newcomer_env(tmp_path / "cache")

    run_command(commands[0], clone, env)
    pdfs = sorted((clone / "output").glob("*/*-print-and-play.pdf"))
    games = sorted(folder for folder in (clone / "output").iterdir() if folder.is_dir() and not folder.name.startswith("."))  # .pnpgen-build: what the build printed
    assert games and len(pdfs) == len(games), f"one print-and-play PDF per game expected, got {pdfs}"
    assert all(len(PdfReader(pdf).pages) > 0 for pdf in pdfs)
    venv_python = clone / ".venv" / "bin" / "python"
    base = subprocess.run([str(venv_python), "-c", "import sys; print(sys.base_prefix)"], capture_output=True,
                          text=True, check=True, env=env).stdout.strip()
    system = subprocess.run([str(python), "-I", "-c", "import sys; print(sys.base_prefix)"], capture_output=True,
                            text=True, check=True).stdout.strip()
    assert base == system, "the Quick start's environment was not made by the system's python3"

    collected = run_command(commands[1], clone, env)
    count = re.search(r"^(\d+) tests? collected", collected, re.M)
    assert count and int(count.group(1)) > 0, f"the second command collected no tests:\n{collected[-2000:]}"

    leftovers = subprocess.run(["git", "-C", str(clone), "status", "--porcelain"], capture_output=True,
                               text=True, check=True).stdout
    assert leftovers == "", f"the Quick start leaves files git does not ignore:\n{leftovers}"


def test_ci_runs_the_quick_starts_test_command_verbatim():
    commands = read_quick_start(README.read_text(encoding="utf-8"))
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[-1] in ci, f".ci/run should run the README's {commands[-1]!r} as a line of its own"
