"""Turn components into what print-on-demand shops ask for: a one-card-per-page PDF with bleed, and PNGs
at a shop's exact pixel size (presets)."""
from __future__ import annotations

from dataclasses import dataclass

from .. import units
from ..errors import PnpError
from .job import DEFAULT_DPI, Job, write_piece_images
from .pdfx import describe, make_pdfx, refuse_transparency
from .pieces import ComponentFaces, face_page
from ..project.model import Component
from ..press.write_png import Raster

NOTE_SCALE = 0.02  # tell the user when a preset stretches or scales a component by more than this
MAX_STRETCH = 0.05  # refuse a preset whose aspect differs from the component's by more than this
AUTO_MATCH = 0.03  # without --preset, a preset fits a component whose trim is this close on both axes


@dataclass(frozen=True)
class Preset:
    """A shop's upload size: a trim in inches and the bleed the shop adds, in pixels at 300 dpi on each
    side, because shops publish (and check) pixels, and MPC's are rounded from 1/8 in to 36."""

    name: str
    shop: str
    trim_in: tuple[float, float]
    bleed_px300: float

    def pixels(self, dpi: float = DEFAULT_DPI) -> tuple[int, int]:
        """The image size the shop asks for at dpi (their published figure at 300 dpi)."""
        bleed = 2 * self.bleed_px300 * dpi / 300
        return round(self.trim_in[0] * dpi + bleed), round(self.trim_in[1] * dpi + bleed)

    def describe(self) -> str:
        w, h = self.pixels()
        return f"{self.name} ({self.shop}, {self.trim_in[0]:g} × {self.trim_in[1]:g} in, {w} × {h} px)"


# Where the numbers come from (shops change their templates: check before a big order):
# - MakePlayingCards publishes upload pixels at 300 dpi with 36 px of bleed a side (0.12 in; its prose says 1/8 in),
#   poker 822 × 1122 (makeplayingcards.com/faq-photo.aspx); not 825 × 1125, which MPC rescales, moving the cut
#   ~0.3 %. Its square sizes are in no public source: no mpc-square preset.
# - DriveThruCards and The Game Crafter: trim plus 1/8 in bleed a side at 300 dpi (poker 825 × 1125 px); The Game
#   Crafter's trims from its published card templates.
PRESETS = {p.name: p for p in (
    Preset("mpc-poker", "MakePlayingCards", (2.5, 3.5), 36),
    Preset("mpc-bridge", "MakePlayingCards", (2.25, 3.5), 36),
    Preset("mpc-tarot", "MakePlayingCards", (2.75, 4.75), 36),
    Preset("mpc-mini", "MakePlayingCards", (1.75, 2.5), 36),
    Preset("dtpc-poker", "DriveThruCards", (2.5, 3.5), 37.5),
    Preset("tgc-poker", "The Game Crafter", (2.5, 3.5), 37.5),
    Preset("tgc-bridge", "The Game Crafter", (2.25, 3.5), 37.5),
    Preset("tgc-tarot", "The Game Crafter", (2.75, 4.75), 37.5),
    Preset("tgc-square", "The Game Crafter", (3.5, 3.5), 37.5),
)}


def find_preset(name: str) -> Preset:
    preset = PRESETS.get(name)
    if preset is None:
        known = "; ".join(p.describe() for p in PRESETS.values())
        raise PnpError(f"--preset {name}: no such print-shop preset; expected one of: {known}")
    return preset


def match_preset(component: Component) -> Preset | None:
    """The preset whose trim is closest to the component's, if one is within AUTO_MATCH on both axes."""
    w, h = (units.to_mm(component.size.width) / 25.4, units.to_mm(component.size.height) / 25.4)
    best = None
    for preset in PRESETS.values():
        off = max(abs(w / preset.trim_in[0] - 1), abs(h / preset.trim_in[1] - 1))
        if off <= AUTO_MATCH and (best is None or off < best[0] - 1e-9):
            best = (off, preset)
    return best[1] if best else None


def stretch(component: Component, preset: Preset, dpi: float) -> tuple[float, float]:
    """How much the component's bleed box is scaled across and down to fill the preset's pixels."""
    w = (component.size.width + 2 * component.bleed) / 72 * dpi
    h = (component.size.height + 2 * component.bleed) / 72 * dpi
    px_w, px_h = preset.pixels(dpi)
    return px_w / w, px_h / h


def judge_fit(job: Job, faces: ComponentFaces, preset: Preset, dpi: float) -> bool:
    """Whether the preset can take the component; notes what the user should know about the fit."""
    c, where = faces.component, f"{faces.game.id}/{faces.component.id}"
    sx, sy = stretch(c, preset, dpi)
    size = f"{units.to_mm(c.size.width):g} × {units.to_mm(c.size.height):g} mm"
    uneven = max(sx, sy) / min(sx, sy) - 1
    if uneven > MAX_STRETCH:
        job.report.notes.append(f"{where}: {size} does not fit {preset.describe()}: its shape differs by "
                                f"{uneven:.0%}; skipped (wrote the shop PDF only)")
        return False
    if uneven > NOTE_SCALE:
        job.report.notes.append(f"{where}: stretched {uneven:.1%} more one way than the other to fill {preset.name}")
    if max(abs(sx - 1), abs(sy - 1)) > NOTE_SCALE:
        job.report.notes.append(f"{where}: printed at {sx:.0%} × {sy:.0%} of its designed size ({size}) "
                                f"by {preset.name}")
    return True


def piece_pages(faces: ComponentFaces) -> list:
    """One single-face page per piece and side, front then back: shops want every card, copies included."""
    return [face_page(faces.component, key, side) for _, side, key in faces.shown()]


def export_shop(job: Job, components: list[ComponentFaces]) -> None:
    """OUTDIR/<game>/shop/<component>.pdf for every component, and shop/<preset>/<component>-NNN-side.png
    for every component a preset fits (the named one, or the one matching its size)."""
    dpi = job.options.dpi or DEFAULT_DPI
    chosen: dict[int, Preset] = {}
    pdfx = make_pdfx(job.options.pdfx, job.options.profile) if job.options.pdfx else None
    for faces in components if pdfx else ():  # before anything is written
        refuse_transparency(faces, pdfx)
    for faces in components:
        job.write(job.folder(faces, "shop") / f"{faces.component.id}.pdf", job.pdf(faces, piece_pages(faces), pdfx),
                  "PDF")
        preset = find_preset(job.options.preset) if job.options.preset else match_preset(faces.component)
        if preset is None:
            c = faces.component
            size = f"{units.to_mm(c.size.width):g} × {units.to_mm(c.size.height):g} mm"
            job.report.notes.append(f"{faces.game.id}/{c.id}: no print-shop preset matches {size}; "
                                    "wrote the shop PDF only (--preset NAME forces one)")
        elif judge_fit(job, faces, preset, dpi):
            chosen[id(faces)] = preset
    fitting = [faces for faces in components if id(faces) in chosen]
    if pdfx:
        job.report.notes.append(f"the shop PDFs are {describe(pdfx)} (CMYK); the PNG images stay RGB")

    def raster_of(faces: ComponentFaces, document: int, page: int) -> Raster:
        size = chosen[id(faces)].pixels(dpi)
        return Raster(document, page, size, (0, 0, *size))

    write_piece_images(job, fitting, lambda faces: job.folder(faces, "shop") / chosen[id(faces)].name, raster_of, dpi)
