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
    (OTOGI, "otogi-taisen", "          map_name: 地図・壱（仮）", "          mapname: 地図・壱（仮）", "field mapname of area-map",
     "did you mean 'map_name'?"),
])
def test_a_card_key_nothing_reads_is_reported_where_it_is_written(project, file, game, old, new, check, hint):
    edit(project, file, old, new)
    line = next(n for n, text in enumerate((project / file).read_text(encoding="utf-8").splitlines(), 1)
                if new.splitlines()[-1].strip() in text)
    found = [f for f in failed(project, game) if f.check == check]
    assert len(found) == 1 and found[0].detail.endswith(hint)
    assert (found[0].location.file, found[0].location.line) == (file, line)


def test_a_field_only_an_expectation_or_the_rulebook_reads_is_fine(project):
    edit(project, TTU, "- {number: 7, copies: 5}", "- {number: 7, copies: 5, rank: 1}")
    assert [f.check for f in failed(project, "three-times-undress")] == ["field rank of battle-cards"]
    edit(project, "rules/three-times-undress.md", "## ゲームの準備", "{{ values('battle-cards', 'rank')|length }}\n\n## ゲームの準備")
    assert failed(project, "three-times-undress") == []


def test_the_bundled_project_reads_every_field_it_writes():
    assert [f for f in pnpgen.check(pnpgen.__path__[0] + "/..") if f.check.startswith("field ")] == []
