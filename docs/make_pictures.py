"""Render the README's pictures from the bundled project's real PDFs: `python3 docs/make_pictures.py`."""
import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pnpgen  # noqa: E402
from pnpgen.project.validate import load_project  # noqa: E402

PICTURES = {  # picture name -> (game, component PDF, page index)
    "battle-cards-sheet": ("three-times-undress", "battle-cards", 8),
    "area-map-sheet": ("otogi-taisen", "area-map", 0),
    "bullet-chips-sheet": ("last-wan-standing-quickdraw", "bullet-chips", 0),
}


EDITIONS = {  # picture name -> (game, component PDF, page, which face on it): the Japanese card, its English twin
    "hero-card-ja-en": ("otogi-taisen", "hero-cards", 0, 0),
}
GAP = 24  # white pixels between the two cards of a pair


DIE_CUT = {  # pictures of docs/die-cut/, the README's die-cut examples, cropped to what is printed
    "tuck-box": ("spells-box", 0),
    "hex-tiles": ("terrain", 0),
    "shield-path": ("shields", 0),
    "rounded-cards": ("spells", 0),
    "standees": ("heroes", 0),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as out:
        pnpgen.build(ROOT, pnpgen.Options(out_dir=Path(out), lang="all"))
        for name, (game, component, page) in PICTURES.items():
            save(Path(out) / game / f"{component}.pdf", page, name)
        for name, (game, component, page, face) in EDITIONS.items():
            width = next(c.size.width for g in load_project(ROOT).games if g.id == game for c in g.components
                         if c.id == component)
            cards = [crop_face(Path(out) / game / folder / f"{component}.pdf", page, face, width)
                     for folder in ("", "en")]
            pair = Image.new("RGB", (cards[0].width + GAP + cards[1].width, cards[0].height), "white")
            pair.paste(cards[0], (0, 0))
            pair.paste(cards[1], (cards[0].width + GAP, 0))
            pair.save(ROOT / "docs" / "images" / f"{name}.png", optimize=True)
            print(f"docs/images/{name}.png")
        pnpgen.build(ROOT / "docs" / "die-cut", pnpgen.Options(out_dir=Path(out) / "die-cut"))
        for name, (component, page) in DIE_CUT.items():
            save(Path(out) / "die-cut" / "die-cut" / f"{component}.pdf", page, name, crop=True)


def crop_face(pdf: Path, page: int, face: int, trim_width: float) -> Image.Image:
    """One face of a sheet, cut at its trim (`trim_width` in points): the face's form less its bleed, all round."""
    sheet = pypdfium2.PdfDocument(str(pdf))[page]
    forms = [item for item in sheet.get_objects(max_depth=1) if item.type == pypdfium2.raw.FPDF_PAGEOBJ_FORM]
    left, bottom, right, top = forms[face].get_bounds()
    bleed = (right - left - trim_width) / 2
    scale = 150 / 72
    image = sheet.render(scale=scale).to_pil().convert("RGB")
    height = sheet.get_height()
    return image.crop((round((left + bleed) * scale), round((height - top + bleed) * scale),
                       round((right - bleed) * scale), round((height - bottom - bleed) * scale)))


def save(pdf: Path, page: int, name: str, crop: bool = False) -> None:
    image = pypdfium2.PdfDocument(str(pdf))[page].render(scale=100 / 72).to_pil().convert("RGB")
    if crop:  # to the printed pieces and a little white around them
        printed = image.crop((0, 0, image.width, image.height - 40))  # the label sits in the bottom margin
        box = ImageChops.difference(printed, Image.new("RGB", printed.size, "white")).getbbox()
        image = image.crop((max(0, box[0] - 12), max(0, box[1] - 12), min(image.width, box[2] + 12),
                            min(printed.height, box[3] + 12)))
    image.save(ROOT / "docs" / "images" / f"{name}.png", optimize=True)
    print(f"docs/images/{name}.png")


if __name__ == "__main__":
    main()
