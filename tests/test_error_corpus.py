"""Every bad project in tests/fixtures/errors/ gets its exact message, exit code 1 and no traceback."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpgen.cli import main

CASES = sorted(p for p in (Path(__file__).parent / "fixtures" / "errors").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_gets_exact_message(case: Path, tmp_path: Path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(case), "-o", str(out)])
    expected = (case / "expected.txt").read_text(encoding="utf-8")
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output + result.stderr
    assert result.stderr == expected
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_corpus_is_large_enough():
    assert len(CASES) >= 40
