"""The console entry: Ctrl-C, even while Python is still importing the pipeline, ends with a message."""
import sys

import pytest

from pnpgen import entry


def test_an_interrupt_while_starting_ends_with_a_message(monkeypatch, capsys):
    class Interrupted:
        def __getattr__(self, name):
            raise KeyboardInterrupt  # as if Ctrl-C arrived while pnpgen.cli was being imported

    monkeypatch.setitem(sys.modules, "pnpgen.cli", Interrupted())
    with pytest.raises(SystemExit) as stopped:
        entry.run()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_importing_pnpgen_imports_no_pipeline():
    import subprocess

    code = "import sys, pnpgen; print(sorted(m for m in sys.modules if m.startswith('pnpgen')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['pnpgen', 'pnpgen._version']"
