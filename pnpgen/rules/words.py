"""Turn an edition's language into pnpgen's own words on a rulebook's pages: the contents' heading, the lists of
assumed figures and contradictions, their marks, and the helpers' table headers and units.

A rulebook's own text is the designer's, one file per edition; these are the words pnpgen prints around it. Each
is given in Japanese and English (tests hold every one to both); another language prints the Japanese, the
language pnpgen's rulebooks were first set in. `{…}` marks where a value goes.
"""
from __future__ import annotations

ORIGINAL = "ja"  # the words of a language not listed here

WORDS: dict[str, dict[str, str]] = {
    # the rulebook's pages
    "contents": {"ja": "目次", "en": "Contents"},
    "rulebook": {"ja": "{title} — ルールブック", "en": "{title} — Rulebook"},  # the PDF's subject
    "rules sheet": {"ja": "{title} — ルールシート", "en": "{title} — Rules sheet"},
    "untitled rulebook": {"ja": "{title} ルールブック", "en": "{title} Rulebook"},  # a rulebook without a # heading
    "booklet short": {"ja": "冊子印刷：両面・短辺とじ（flip on short edge）で印刷 → 重ねて二つ折り → 折り目をホチキス留め",
                      "en": "Booklet: print both sides, flipping on the short edge → stack and fold in half → "
                            "staple along the fold"},
    "booklet long": {"ja": "冊子印刷：両面・長辺とじ（flip on long edge）で印刷 → 重ねて二つ折り → 折り目をホチキス留め",
                     "en": "Booklet: print both sides, flipping on the long edge → stack and fold in half → "
                           "staple along the fold"},
    # the sections that list what the marks stand for
    "assumptions": {"ja": "仮の数値", "en": "Assumed figures"},
    "assumptions lead": {"ja": "右肩に{mark}とある数は、資料に書かれていないため仮に決めたものです。",
                         "en": "Figures marked {mark} are not given in the documents and have been assumed for now."},
    "contradictions": {"ja": "資料との食い違い", "en": "Conflicts in the documents"},
    "contradictions lead": {"ja": "右肩に{mark}とある箇所は、資料の記述どうしが食い違っています。",
                            "en": "Passages marked {mark} are where the documents contradict each other."},
    "undefined terms": {"ja": "定義のない用語", "en": "Undefined terms"},
    "undefined terms lead": {"ja": "次の用語は資料に定義がないため、仮に次のように読んでいます。",
                             "en": "The documents do not define these terms; for now they are read as follows."},
    "listed": {"ja": "{mark}{what}", "en": "{mark} {what}"},  # an item of those lists: its mark, what it is of
    "assumed value": {"ja": "：{value}", "en": ": {value}"},
    "source": {"ja": "（資料：{source}）", "en": " (document: {source})"},
    "term": {"ja": "「{term}」", "en": "“{term}”"},
    # the marks: set small and raised after what they mark; in plain text (the contents, bookmarks) as written here
    "assumed mark": {"ja": "仮", "en": "TBD"},
    "known mark": {"ja": "注", "en": "NOTE"},
    "assumed mark plain": {"ja": "仮", "en": " (TBD)"},
    "known mark plain": {"ja": "注", "en": " (NOTE)"},
    # what an assumed number or a contradiction is of, in those lists
    "count of": {"ja": "{component}の数", "en": "Number of {component}"},
    "figure of": {"ja": "{name}（{words}）", "en": "{name} ({words})"},
    "setup of": {"ja": "{component}（{players}）", "en": "{component} ({players})"},
    "players": {"ja": "{p}人", "en": "{p} players"},
    "list": {"ja": "・", "en": ", "},  # between the items of a list in a line (1・2・3・down)
    # table(): the unit after the component's name, its default, and the total's column
    "unit": {"ja": "（{unit}）", "en": " ({unit})"},
    "default unit": {"ja": "枚", "en": ""},
    "total": {"ja": "計", "en": "Total"},
    # bullet_table() and quickdraw_table()
    "player count": {"ja": "人数", "en": "Players"},
    "bullets used": {"ja": "使うバレットチップ", "en": "Bullet chips used"},
    "beats down": {"ja": "downを倒せる数字", "en": "Beats down"},
    "per player": {"ja": "１人", "en": "Per player"},
    "all players": {"ja": "全員", "en": "All players"},
    "chips": {"ja": "{n}枚", "en": "{n}"},
    "players by bullet": {"ja": "人数＼バレット", "en": "Players \\ Bullet"},
    "player row": {"ja": "{p}人", "en": "{p}"},
    "downed": {"ja": "{n}人", "en": "{n}"},
}


def word(key: str, language: str | None, **values) -> str:
    """pnpgen's word `key` in the edition's language (the Japanese for a language not given), its values filled in."""
    words = WORDS[key]
    text = words[language] if language in words else words[ORIGINAL]
    return text.format(**values) if values else text
