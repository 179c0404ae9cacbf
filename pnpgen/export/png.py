"""Turn every piece's faces into PNG images at a resolution, with or without bleed."""
from __future__ import annotations

from ..press.write_png import Raster, plan_raster
from .job import DEFAULT_DPI, Job, write_piece_images
from .pieces import ComponentFaces


def export_png(job: Job, components: list[ComponentFaces]) -> None:
    """OUTDIR/<game>/png/<component>-<index>-<side>.png: every piece's faces at dpi, with or without bleed."""
    dpi = job.options.dpi or DEFAULT_DPI

    def raster_of(faces: ComponentFaces, document: int, page: int) -> Raster:
        c = faces.component
        return plan_raster(document, page, c.size.width, c.size.height, c.bleed, dpi, job.options.bleed)

    write_piece_images(job, components, lambda faces: job.folder(faces, "png"), raster_of, dpi)
