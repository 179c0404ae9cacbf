"""Write a project of one N-card poker deck in YAML, a dozen fields a card, for whole-process memory and time figures.

Run: python3 bench/big_deck.py OUT_DIR [--cards 30000]
then: /usr/bin/time -v python3 -m pnpgen build OUT_DIR -o OUT_DIR/out --no-cache
Not a test: it writes files. Every card is distinct (its number, name and effect differ), written in block style as
a designer would, and the front template reads every field, so no field is reported unread.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deck import BACK, TITLE, effect_lines  # noqa: E402

FRONT = """\
<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#f4ecd8"/>
<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" rx="2" fill="none" stroke="#b3262d" stroke-width="0.5"/>
{{ text(card.number|string, SAFE + 1, SAFE + 1, 26, 14, size=28, min_size=20, weight="bold", color="#b3262d") }}
{{ text(card.name, SAFE + 1, 22, W - 2*SAFE - 2, 8, size=12, weight="bold", align="center") }}
{{ text(card.kind ~ " " ~ card.cost ~ "/" ~ card.power ~ "/" ~ card.guard ~ " " ~ card.rarity ~ " " ~ card.series,
        SAFE + 1, 32, W - 2*SAFE - 2, 6, size=7) }}
{{ text(card.effect, SAFE + 2, 56, W - 2*SAFE - 4, 24, size=8, min_size=6) }}
{{ text(card.flavor ~ " " ~ card.artist ~ " " ~ card.tags|join(","), SAFE + 2, H - SAFE - 8, W - 2*SAFE - 4, 6, size=6) }}
"""
KINDS = ("攻撃", "防御", "魔法", "道具")
RARITIES = ("common", "uncommon", "rare")


def card_text(n: int) -> str:
    """One card as a block mapping of twelve fields."""
    return f"""\
          - number: {n}
            name: {json.dumps(f"カード{n}", ensure_ascii=False)}
            kind: {KINDS[n % 4]}
            cost: {n % 7}
            power: {n % 11}
            guard: {n % 5}
            rarity: {RARITIES[n % 3]}
            series: S{n % 9}
            artist: 作者{n % 13}
            flavor: {json.dumps(f"古い物語の{n % 17}章", ensure_ascii=False)}
            tags: [t{n % 3}, u{n % 5}]
            effect: {json.dumps(chr(10).join(effect_lines(n)), ensure_ascii=False)}
"""


def write_big_deck(root: Path, cards: int) -> Path:
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    with (root / "cards.yaml").open("w", encoding="utf-8") as out:
        out.write(f"games:\n  - id: bench\n    title: {TITLE}\n    components:\n      - id: deck\n        name: デッキ\n"
                  "        size: poker\n        front: front.svg.j2\n        back: back.svg.j2\n        cards:\n")
        for n in range(1, cards + 1):
            out.write(card_text(n))
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--cards", type=int, default=30_000)
    arguments = parser.parse_args()
    print(write_big_deck(arguments.out, arguments.cards))


if __name__ == "__main__":
    main()
