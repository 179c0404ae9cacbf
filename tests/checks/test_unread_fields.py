"""Card fields nothing reads: a typo in a card key is a located ✗ with the names the templates do read."""
import pytest

import pnpgen

from slips import edit, failed

TTU = "games/three-times-undress.yaml"
OTOGI = "games/otogi-taisen.yaml"


@pytest.mark.parametrize("file,game,old,new,check,hint", [
    (TTU, "three-times-undress", "          - number: 3\n            ron: true\n            effect:", "          - number: 3\n            ron: true\n            efect:",
     "field efect of battle-cards", "did you mean 'effect'?"),
    (TTU, "three-times-undress", "- {number: 7, copies: 5}", "- {number: 7, copise: 5}", "field copise of battle-cards", "did you mean 'copies'?"),
    (OTOGI, "otogi-taisen", "          - {sheet: 2}", "          - {shet: 2}", "field shet of area-map", "did you mean 'sheet'?"),
    (TTU, "three-times-undress", "- {han: 1, copies: 30}", "- {han: 1, copise: 30}", "field copise of score-chips", "did you mean 'copies'?"),
])
def test_a_card_key_nothing_reads_is_reported_where_it_is_written(project, file, game, old, new, check, hint):
    edit(project, file, old, new)
    line = next(n for n, text in enumerate((project / file).read_text(encoding="utf-8").splitlines(), 1)
                if new.splitlines()[-1].strip() in text)
    found = [f for f in failed(project, game) if f.check == check]
    assert len(found) == 1 and found[0].detail.endswith(hint)
    assert (found[0].location.file, found[0].location.line) == (file, line)


def test_a_field_nothing_reads_that_is_no_typo_is_a_warning_until_something_reads_it(project):
    edit(project, TTU, "- {number: 7, copies: 5}", "- {number: 7, copies: 5, rank: 1}")
    assert failed(project, "three-times-undress") == []
    warned = [f for f in pnpgen.check(project, "three-times-undress") if f.check == "field rank of battle-cards"]
    assert warned[0].status == "warn" and "the templates read: accent, effect" in warned[0].detail
    edit(project, "rules/three-times-undress.md", "## ゲームの準備", "{{ values('battle-cards', 'rank')|length }}\n\n## ゲームの準備")
    assert not [f for f in pnpgen.check(project, "three-times-undress") if f.check == "field rank of battle-cards"]


def test_the_bundled_project_reads_every_field_it_writes():
    assert [f for f in pnpgen.check(pnpgen.__path__[0] + "/..") if f.check.startswith("field ")] == []


def test_a_key_whose_right_name_no_card_has_is_a_warning_the_build_then_names(project):
    """mapname: the template's card.map_name fails when rendering; which side is the typo is for the designer."""
    edit(project, OTOGI, "          map_name: {ja: 地図・壱（仮）,", "          mapname: {ja: 地図・壱（仮）,")
    found = [f for f in pnpgen.check(project, "otogi-taisen") if f.check == "field mapname of area-map"]
    assert found[0].status == "warn" and found[0].detail.endswith("did you mean 'map_name'?")
