"""The README's YAML reference is exactly what the schema generates."""
from pathlib import Path

from pnpgen.reference import BEGIN, CLI_BEGIN, CLI_END, END, render_cli_reference, render_reference

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_reference_matches_the_schema():
    text = README.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] == render_reference(), "run `python -m pnpgen.reference` to update the README"


def test_readme_cli_reference_matches_the_commands():
    text = README.read_text(encoding="utf-8")
    start, end = text.index(CLI_BEGIN), text.index(CLI_END) + len(CLI_END)
    assert text[start:end] == render_cli_reference(), "run `python -m pnpgen.reference` to update the README"
