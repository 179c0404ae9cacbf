"""Measure what cutting along outlines costs: die-cut builds as ratios against the same cards as rectangles.

Run: python3 bench/die_cut.py
Not a test: it prints figures, nothing fails.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pnpgen  # noqa: E402
from pnpgen import Options  # noqa: E402

FRONT = """\
<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#f4ecd8"/>
<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" fill="none" stroke="#b3262d"/>
{{ text(card.number|string ~ " " ~ card.name, SAFE, SAFE, W - 2*SAFE, 12, size=12, min_size=5, weight="bold") }}
"""
BACK = '<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#1d5e48"/>\n'
CARDS = 300
ROUNDS = 4
VARIANTS = {  # name -> the component's shape and size keys
    "rect (reference)": "size: poker",
    "rounded 3 mm": "size: poker\n    shape: {rounded: 3mm}",
    "path (shield)": 'shape: {path: "M0 0 H40 V25 Q40 45 20 50 Q0 45 0 25 Z"}',
    "hex 40 mm": "size: {width: 40mm}\n    shape: hex",
    "standee 40×60": "size: {width: 40mm, height: 60mm}\n    kind: standee",
}


def write_project(root: Path, keys: str) -> Path:
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    cards = "\n".join(f"      - {{number: {n}, name: カード{n}}}" for n in range(CARDS))
    (root / "cards.yaml").write_text(f"""games:
- id: bench
  title: ベンチ
  components:
  - id: pieces
    {keys}
    front: front.svg.j2
    back: back.svg.j2
    cards:
{cards}
""", encoding="utf-8")
    return root


def timed_build(project: Path, out: Path) -> float:
    start = time.perf_counter()
    pnpgen.build(project, Options(out_dir=out, check=False, cache=False))
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        timed_build(write_project(tmp / "warm-up", VARIANTS["rect (reference)"]), tmp / "warm-out")
        projects = {name: write_project(tmp / str(i), keys) for i, (name, keys) in enumerate(VARIANTS.items())}
        seconds: dict[str, list[float]] = {name: [] for name in VARIANTS}
        for run in range(ROUNDS):  # interleaved, so a busy moment of the machine hits every variant alike
            for name, project in projects.items():
                seconds[name].append(timed_build(project, tmp / f"out-{run}" / project.name))
    best = {name: min(values) for name, values in seconds.items()}
    reference = best["rect (reference)"]
    print(f"{CARDS} unique cards with backs, A4, cold (no cache), best of {ROUNDS} interleaved rounds; "
          "ratio to the same cards as rectangles")
    for name, value in best.items():
        print(f"  {name:18} {value / reference:5.2f}×")


if __name__ == "__main__":
    main()
