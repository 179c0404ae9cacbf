"""Render the README's pictures from the bundled project's real PDFs: `python3 docs/make_pictures.py`."""
import sys
import tempfile
from pathlib import Path

import pypdfium2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pnpgen  # noqa: E402

PICTURES = {  # picture name -> (game, component PDF, page index)
    "battle-cards-sheet": ("three-times-undress", "battle-cards", 8),
    "area-map-sheet": ("otogi-taisen", "area-map", 0),
    "bullet-chips-sheet": ("last-wan-standing-quickdraw", "bullet-chips", 0),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as out:
        pnpgen.build(ROOT, pnpgen.Options(out_dir=Path(out)))
        for name, (game, component, page) in PICTURES.items():
            document = pypdfium2.PdfDocument(str(Path(out) / game / f"{component}.pdf"))
            document[page].render(scale=100 / 72).to_pil().convert("RGB").save(ROOT / "docs" / "images" / f"{name}.png", optimize=True)
            print(f"docs/images/{name}.png")


if __name__ == "__main__":
    main()
