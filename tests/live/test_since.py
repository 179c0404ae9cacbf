"""The comparison in a browser: changes.html opened from disk, and `serve --since REF` marking changed cards."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from diff.gitrepo import commit_all, git
from live.test_serve import CHROMIUM, FIXTURES, TEXT, chromium, edit, get, running
from pnpgen.diff.run import DiffOptions, diff

NEEDS_CHROMIUM = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")


def edited_minimal(tmp_path: Path) -> Path:
    """The minimal deck in git, then one card renamed and one added: two cards changed since HEAD."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    git(project, "init", "-q")
    commit_all(project)
    edit(project / "cards.yaml", "name: 盾,", "name: 大盾,")
    edit(project / "cards.yaml", '          - {name: 弓,', '          - {name: 槍, number: 4}\n          - {name: 弓,')
    edit(project / "cards.yaml", "equals: 6", "equals: 7")
    return project


@NEEDS_CHROMIUM
def test_changes_html_opens_from_disk_with_every_image(tmp_path):
    project = edited_minimal(tmp_path)
    diff(project, DiffOptions(out_dir=tmp_path / "out"))
    with chromium(tmp_path / "profile") as page:
        page.call("Page.enable")
        page.call("Page.navigate", url=(tmp_path / "out" / "changes.html").as_uri())
        # the renamed card: old, new, overlay; the added card: front and back
        page.wait("document.images.length === 5 && [...document.images].every(i => i.complete && i.naturalWidth > 100)")
        text = page.evaluate(TEXT)
        assert "name: 盾 → 大盾" in text and "card 3 (number=4, name=槍)" in text and "added" in text
        widths = page.evaluate("[...document.images].map(i => i.getBoundingClientRect().width)")
        assert all(40 < w <= 262 for w in widths), widths  # at most 260 px and its border


@NEEDS_CHROMIUM
def test_serve_since_marks_changed_cards_and_serves_the_comparison(tmp_path):
    project = edited_minimal(tmp_path)
    with running(project, since="HEAD") as url, chromium(tmp_path / "profile") as page:
        page.call("Page.enable")
        page.call("Page.navigate", url=url)
        page.wait("document.querySelectorAll('button.card').length === 4 && !document.getElementById('since').hidden")
        assert "2 cards changed or added since HEAD" in page.evaluate("document.getElementById('since').innerText")
        marked = page.evaluate("[...document.querySelectorAll('button.card.since')].map(b => b.dataset.card)")
        assert marked == ["tiny/deck/2", "tiny/deck/3"]
        page.evaluate("document.querySelector('#since input').click()")
        page.wait("[...document.querySelectorAll('button.card')].filter(b => b.offsetParent !== null).length === 2")
        status, headers, body = get(url + "changes.html")
        assert status == 200 and "default-src 'none'" in headers["Content-Security-Policy"]
        assert "盾 → 大盾" in body.decode("utf-8")
        edit(project / "cards.yaml", "name: 大盾,", "name: 盾,")  # undone: only the added card is left
        page.wait("document.querySelectorAll('button.card.since').length === 1", timeout=60)
