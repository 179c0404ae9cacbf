"""Turn a project folder into the folders its fonts come from: the bundled family's, then the project's fonts/.

Apart from the font reader (fonts.py), for the digest an up-to-date build takes of a project's fonts reads no font.
"""
from __future__ import annotations

from pathlib import Path

BUNDLED_FONTS = Path(__file__).resolve().parents[1] / "fonts"  # shipped in the package (wheel included)


def font_dirs(project_root: Path) -> list[Path]:
    """The folders a project's fonts come from: the bundled family first, then the project's fonts/."""
    dirs = {d.resolve(): d for d in (Path(project_root) / "fonts", BUNDLED_FONTS) if d.is_dir()}
    return sorted(dirs.values(), key=lambda d: d != BUNDLED_FONTS)
