"""Turn docs/tutorial.md into its steps and run them in a folder: the files it shows written, its commands run.

The page marks what is run, so that reading it and running it cannot part:
- a fenced block with `title="PATH"` is a file, written to PATH (relative to the folder) as shown;
- a ```console block holds commands (`$ pnpgen build`) each followed by lines its output must hold, in order
  (`…` stands for any text); every command must exit 0 unless an `<!-- tutorial: exit N -->` comes first;
- `<!-- tutorial: copy FROM TO -->` copies FROM (relative to docs/) into TO, as a reader downloads pictures;
- `<!-- tutorial: pdf PATH pages=N -->` says the PDF has N pages;
- `<!-- tutorial: picture PATH page=N to=IMAGE [crop] -->` is the picture of that PDF page the page shows
  (IMAGE relative to docs/; docs/make_tutorial_pictures.py renders it there).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

DOCS = Path(__file__).resolve().parent
PAGE = DOCS / "tutorial.md"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)
MARK = re.compile(r"^<!-- tutorial: (\w+) (.*?) -->\s*$", re.M)


@dataclass
class Step:
    kind: str  # file, console, copy, pdf, picture, exit
    line: int  # where the page shows it
    path: str = ""
    text: str = ""
    options: dict = field(default_factory=dict)


def read_steps(text: str) -> list[Step]:
    """The page's steps in the order it shows them."""
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        title = re.search(r'title="([^"]+)"', match.group(2))
        if title:
            found.append(Step("file", line, path=title.group(1), text=match.group(3)))
        elif match.group(1) == "console":
            found.append(Step("console", line, text=match.group(3)))
    for match in MARK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        words = match.group(2).split()
        options = dict(word.split("=", 1) if "=" in word else (word, True) for word in words[1:])
        found.append(Step(match.group(1), line, path=words[0], text=" ".join(words[1:2]), options=options))
    return sorted(found, key=lambda step: step.line)


def read_console(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown after it) for each `$ ` line of a console block."""
    commands: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:].strip(), []))
        elif line.strip() and commands:
            commands[-1][1].append(line.strip())
    return commands


def holds_in_order(output: str, expected: list[str]) -> list[str]:
    """The expected lines the output does not hold in that order (`…` matching any text)."""
    lines, at, missing = output.splitlines(), 0, []
    for want in expected:
        pattern = re.compile(".*".join(re.escape(part) for part in want.split("…")))
        for index in range(at, len(lines)):
            if pattern.fullmatch(lines[index].strip()):
                at = index + 1
                break
        else:
            missing.append(want)
    return missing


def run_tutorial(folder: Path, env: dict, on_picture, page: Path = PAGE) -> int:
    """Run every step of the page in folder; on_picture(pdf, page index, image path, crop) at each picture.
    Raises AssertionError naming the page's line of the first step that does not do what the page says.
    Returns how many commands ran."""
    cwd, exit_code, ran = Path(folder), 0, 0
    for step in read_steps(page.read_text(encoding="utf-8")):
        where = f"{page.name}:{step.line}"
        if step.kind == "file":
            target = cwd / step.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
        elif step.kind == "copy":
            destination = cwd / step.text
            destination.mkdir(parents=True, exist_ok=True)
            for source in sorted((DOCS / step.path).parent.glob((DOCS / step.path).name)):
                shutil.copy(source, destination / source.name)
        elif step.kind == "exit":
            exit_code = int(step.path)
        elif step.kind == "console":
            for command, expected in read_console(step.text):
                cwd = run_command(command, cwd, env, exit_code, expected, where)
                ran += 1
            exit_code = 0
        elif step.kind == "pdf":
            pages = count_pages(cwd / step.path)
            assert pages == int(step.options["pages"]), f"{where}: {step.path} has {pages} pages, the page says " \
                                                        f"{step.options['pages']}"
        elif step.kind == "picture":
            pdf = cwd / step.path
            assert pdf.is_file(), f"{where}: {step.path} was not written"
            on_picture(pdf, int(step.options["page"]) - 1, DOCS / step.options["to"], bool(step.options.get("crop")))
    return ran


def run_command(command: str, cwd: Path, env: dict, exit_code: int, expected: list[str], where: str) -> Path:
    """Run one line as a shell would, `cd` included; the folder it leaves the reader in."""
    for part in command.split(" && "):
        if part.startswith("cd "):
            cwd = cwd / part[3:].strip()
            continue
        done = subprocess.run(["sh", "-c", part], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        output = done.stdout + done.stderr
        assert done.returncode == exit_code, f"{where}: `{part}` exited {done.returncode}, the page expects " \
                                             f"{exit_code}:\n{output[-3000:]}"
        missing = holds_in_order(output, expected)
        assert not missing, f"{where}: `{part}` did not print {missing}; it printed:\n{output[-3000:]}"
    return cwd


def count_pages(pdf: Path) -> int:
    import pypdfium2

    return len(pypdfium2.PdfDocument(str(pdf)))
