"""`pnpgen build --reprint`: exactly the changed pieces, measured in the PDF, imposed like a full build."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from diff.gitrepo import apply_edits, copy_bundled
from pdfprobe import drawn_forms
from pnpgen import Options, build, units
from pnpgen.diff.reprint import reprint
from pnpgen.faces.inputs import inputs_digest
from pnpgen.faces.render import Renderer
from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.press.write_pdf import form_name
from pnpgen.project.revision import Stamp, project_revision
from pnpgen.project.validate import load_project

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

GAME = "three-times-undress"
A4_WIDTH = 210.0


def expected_fronts(project_path: Path, since: str) -> tuple[Counter, dict]:
    """The front forms a reprint must hold: every copy of the renumbered, re-texted and added battle cards,
    and every score chip (its template changed), rendered with the reprint's stamp (changed since REF)."""
    project = load_project(project_path)
    game = project.game(GAME)
    renderer = Renderer(project, open_fontbook(project), None, inputs_digest(project),
                        Stamp(project_revision(project.root), True, since))
    battle, chips = game.component("battle-cards"), game.component("score-chips")
    wanted = [c for c in battle.cards if c.fields.get("effect") in ("追加カード",) or "新しい効果" in str(c.fields.get("effect"))
              or c.location.line == battle.cards[-1].location.line - 1]  # the renumbered 7s, just above the added card
    fronts = Counter()
    for card in wanted:
        fronts[form_name(renderer.render(game, battle, card, "front").key)] += card.copies
    for card in chips.cards:
        fronts[form_name(renderer.render(game, chips, card, "front").key)] += card.copies
    back = form_name(renderer.render(game, battle, battle.cards[0], "back").key)
    return fronts, {"back": back, "battle": battle, "wanted": wanted}


def test_reprint_holds_exactly_the_changed_pieces_with_backs_behind_fronts(edited_repo, tmp_path):
    report = reprint(edited_repo, Options(out_dir=tmp_path, check=False))
    target = tmp_path / GAME / f"{GAME}-reprint.pdf"
    assert report.written == [target]
    assert not (tmp_path / "otogi-taisen").exists() and not (tmp_path / "last-wan-standing-quickdraw").exists()
    text = "\n".join(report.lines)
    # a full build: 44 battle cards on 5 sheets, 15 players on 2, their two tuck boxes on 1 each, 30 chips on 1;
    # the reprint: 8 cards, the battle deck's box (two cards shallower) and the 30 chips
    assert "reprint: 3 sheets instead of 10" in text
    assert "take out 4 × card 8" in text
    fronts, known = expected_fronts(edited_repo, "HEAD")
    assert [c.copies for c in known["wanted"]] == [1, 5, 2]
    reader = PdfReader(target)
    assert len(reader.pages) == 4  # battle fronts, their backs, the box, the chip sheet (no backs)
    front, back, box, chips = (drawn_forms(reader, page) for page in reader.pages)
    assert box and "×44" in reader.pages[2].extract_text()  # the box's end panels name the deck as it is now
    assert Counter(d.form for d in front + chips) == fronts
    assert [d.form for d in back] == [known["back"]] * 8
    # backs land behind their fronts: mirrored about the sheet's vertical centre line (long-edge duplex)
    battle = known["battle"]
    w, b = units.to_mm(battle.size.width), units.to_mm(battle.bleed)
    mirrored = sorted((round(A4_WIDTH - d.x_mm - (w + 2 * b), 2), round(d.y_mm, 2)) for d in front)
    assert sorted((round(d.x_mm, 2), round(d.y_mm, 2)) for d in back) == mirrored
    # every trim is a poker card, and TrimBox bounds them
    trim = reader.pages[0].trimbox
    assert round(units.to_mm(float(trim.width)) / w) == 3 and round(units.to_mm(float(trim.height)) / units.to_mm(battle.size.height)) == 3
    page_text = reader.pages[0].extract_text()
    assert project_revision(edited_repo) + "*" in page_text  # the stamp says these cards changed
    assert "reprint: 3 sheets instead of 10" in reader.metadata.subject
    reprint(edited_repo, Options(out_dir=tmp_path / "again", check=False))
    assert (tmp_path / "again" / GAME / f"{GAME}-reprint.pdf").read_bytes() == target.read_bytes()  # deterministic


def test_gutterfold_reprint_puts_each_back_beside_its_front(edited_repo, tmp_path):
    reprint(edited_repo, Options(out_dir=tmp_path, check=False, gutterfold=True))
    reader = PdfReader(tmp_path / GAME / f"{GAME}-reprint.pdf")
    assert len(reader.pages) == 4  # four poker cards and their backs to a folded A4 sheet: two for eight; box; chips
    fronts, known = expected_fronts(edited_repo, "HEAD")
    forms = Counter(d.form for i in (0, 1, 3) for d in drawn_forms(reader, reader.pages[i]))
    assert forms == fronts + Counter({known["back"]: 8})
    w, b = units.to_mm(known["battle"].size.width), units.to_mm(known["battle"].bleed)
    for page in reader.pages[:2]:  # each back mirrored about the fold, the page's vertical centre line
        width = units.to_mm(float(page.mediabox.width))
        drawn = drawn_forms(reader, page)
        backs = sorted((round(d.x_mm, 2), round(d.y_mm, 2)) for d in drawn if d.form == known["back"])
        mirrored = sorted((round(width - d.x_mm - (w + 2 * b), 2), round(d.y_mm, 2)) for d in drawn if d.form != known["back"])
        assert backs == mirrored and len(backs) == 4


def test_reprint_since_last_build_without_git_and_the_record_moves_on(tmp_path):
    project = copy_bundled(tmp_path / "p")
    out = tmp_path / "out"
    build(project, Options(out_dir=out, only="components"))
    apply_edits(project)
    report = reprint(project, Options(out_dir=out, check=False), since="last-build")
    target = out / GAME / f"{GAME}-reprint.pdf"
    assert report.written == [target]
    assert "reprint: 3 sheets instead of 10" in "\n".join(report.lines)
    fronts, _ = expected_fronts(project, "last-build")
    reader = PdfReader(target)
    assert Counter(d.form for i in (0, 3) for d in drawn_forms(reader, reader.pages[i])) == fronts
    again = reprint(project, Options(out_dir=out, check=False), since="last-build")  # that reprint was a print
    assert again.written == [] and again.removed == [target] and not target.exists()


def test_reprint_refuses_failed_checks_like_a_build(edited_repo, tmp_path):
    from pnpgen.errors import PnpError

    with pytest.raises(PnpError, match="checks failed"):
        reprint(edited_repo, Options(out_dir=tmp_path))
