"""Find the texts of a project of two languages that have no translation: inside a field's mapping or list too (a
list's every entry, a game default's nested words), each reported on its own line."""
from __future__ import annotations

import shutil
from pathlib import Path

from pnpgen.project.translations import find_missing
from pnpgen.project.validate import load_project

from slips import edit, line_of

REPO = Path(__file__).resolve().parents[2]


def copy_bundled(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    for name in ("cards.yaml", "games", "rules", "templates", "documents"):
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, root / name)
    return root


def test_the_bundled_project_has_every_text_translated(tmp_path):
    assert find_missing(load_project(copy_bundled(tmp_path)), ("en",)) == []


def test_a_text_inside_a_list_or_a_game_default_with_no_translation_is_reported_on_its_own_line(tmp_path):
    root = copy_bundled(tmp_path)
    game = "games/otogi-taisen.yaml"
    edit(root, game, "hero: {ja: 英雄, en: HERO}", "hero: {ja: 英雄}")
    edit(root, game, '{occupied: 2, text: {ja: 【仮】共通スキル（占拠２）の効果テキスト未定。, en: "[TBD] Common skill '
                     '(2 stones): effect to come."}}', "{occupied: 2, text: 【仮】共通スキル（占拠２）の効果テキスト未定。}")
    lines = (root / game).read_text(encoding="utf-8").splitlines()
    hero = next(n for n, line in enumerate(lines, 1) if "hero: {ja: 英雄}" in line)
    race_cards = next(n for n, line in enumerate(lines, 1) if "- id: race-cards" in line)
    skills = next(n for n, line in enumerate(lines, 1) if n > race_cards and line.strip() == "skills:")
    found = [(f"{m.location.line}", m.message()) for m in find_missing(load_project(root), ("en",))
             if m.location.file.endswith(game) and "race-cards-box" not in m.what]
    assert found == [
        (f"{hero}", "'words.hero' of the defaults of game otogi-taisen has no en text (the original: '英雄'); "
                    "expected a translation as {…, en: …}"),
        (f"{skills}", "'skills[1].text' of race-cards has no en text (the original: "
                          "'【仮】共通スキル（占拠２）の効果テキスト未定。'); expected a translation as {…, en: …}")]


def test_a_reason_for_an_assumed_or_known_figure_with_no_translation_is_reported_where_it_is_written(tmp_path):
    root = copy_bundled(tmp_path)
    otogi, three = "games/otogi-taisen.yaml", "games/three-times-undress.yaml"
    edit(root, otogi, 'assumed: {ja: エリアマップの枚数は空欄。「２枚１組の地図」を１組とし、２枚とした。, en: "The area map count '
                      'is left blank. The “set of 2 sheets” is taken as 1 set: 2 sheets."}',
         "assumed: エリアマップの枚数は空欄。「２枚１組の地図」を１組とし、２枚とした。")  # one text: the original's only
    edit(root, otogi, 'assumed: {ja: "「半分」は２で割ること（端数切り捨て）。", en: "“Half” means dividing by 2 (rounding down)."}',
         'assumed: {ja: "「半分」は２で割ること（端数切り捨て）。"}')
    edit(root, three, "          arithmetic: {ja: 草案２の矛盾。準備では３人プレイ時に４枚配るが、コンポーネント欄の式は３枚（３×３）で計算している。, "
                      'en: "Contradiction in draft 2. Setup deals 4 cards at 3 players, but the formula in the components '
                      'section counts 3 (3 × 3)."}',
         "          arithmetic: {ja: 草案２の矛盾。準備では３人プレイ時に４枚配るが、コンポーネント欄の式は３枚（３×３）で計算している。}")
    area_map, support = line_of(root, otogi, "エリアマップの枚数は空欄。"), line_of(root, otogi, "support_share:")
    arithmetic = line_of(root, three, "arithmetic: {ja:")
    found = sorted((m.location.file, m.location.line, m.message()) for m in find_missing(load_project(root), ("en",)))
    assert found == sorted([
        (otogi, area_map, "the reason (assumed:) for equals of the total expectation of area-map has no en text (the "
                          "original: 'エリアマップの枚数は空欄。「２枚１組の地図」を１組とし、２枚とした。'); expected a translation as "
                          "{…, en: …}"),
        (otogi, support, "the reason (assumed:) of figure support_share has no en text (the original: "
                         "'「半分」は２で割ること（端数切り捨て）。'); expected a translation as {…, en: …}"),
        (three, arithmetic, "the reason (known:) for arithmetic of the setup expectation of battle-cards has no en text "
                            "(the original: '草案２の矛盾。準備では３人プレイ時に４枚配るが、コンポーネント欄の式は３枚（３×３）で計算している。'); "
                            "expected a translation as {…, en: …}")])
