"""Render the tutorial's pictures from its own project: `python3 docs/make_tutorial_pictures.py` runs
docs/tutorial.md in a temporary folder (docs/tutorial_steps.py) and saves each page it shows."""
import os
import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageChops

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS))

from tutorial_steps import run_tutorial  # noqa: E402


def save_picture(pdf: Path, page: int, image: Path, crop: bool) -> None:
    picture = pypdfium2.PdfDocument(str(pdf))[page].render(scale=80 / 72).to_pil().convert("RGB")
    if crop:  # to the printed pieces and a little white around them
        box = ImageChops.difference(picture, Image.new("RGB", picture.size, "white")).getbbox()
        picture = picture.crop((max(0, box[0] - 10), max(0, box[1] - 10), min(picture.width, box[2] + 10),
                                min(picture.height, box[3] + 10)))
    image.parent.mkdir(parents=True, exist_ok=True)
    picture.save(image, optimize=True)
    print(image.relative_to(DOCS.parent))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        shims = Path(folder) / "bin"  # `pnpgen` is this checkout's
        shims.mkdir()
        (shims / "pnpgen").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pnpgen "$@"\n', encoding="utf-8")
        (shims / "pnpgen").chmod(0o755)
        env = dict(os.environ, PATH=f"{shims}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
                   PYTHONPATH=str(DOCS.parent), PNPGEN_CACHE=str(Path(folder) / "cache"))
        work = Path(folder) / "work"
        work.mkdir()
        run_tutorial(work, env, save_picture)


if __name__ == "__main__":
    main()
