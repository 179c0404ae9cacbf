"""The documentation site builds with `mkdocs build --strict` (every link, anchor and picture found), offline: no
page asks the network for a font or a script."""
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = ["index.html", "tutorial/index.html", "how-to/printing-at-home/index.html", "how-to/print-shops/index.html",
         "how-to/spreadsheets/index.html", "how-to/rulebooks/index.html", "how-to/checker/index.html",
         "how-to/designers-loop/index.html", "how-to/untrusted-projects/index.html", "reference/cli/index.html",
         "reference/yaml/index.html", "reference/templates/index.html", "contributors/index.html"]


def test_the_site_builds_strictly_and_fetches_nothing(tmp_path):
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"),
                           "-d", str(site)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    assert [page for page in PAGES if not (site / page).is_file()] == []
    remote = set()
    for page in site.rglob("*.html"):
        remote |= set(re.findall(r'<(?:link|script)[^>]+(?:href|src)="(https?://[^"]+)"', page.read_text("utf-8")))
    assert remote == set()
    assert (site / "images" / "tutorial" / "deck.png").is_file()
