"""Turn components into Tabletop Simulator decks: face sheets of at most 10 × 7 cells and 4096 px whose last
cell is the hidden card, a back image (or back sheets), and a saved-object JSON that references them."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image

from .. import units
from .job import Job, distinct_document
from .pieces import ComponentFaces, PieceFaces, card_caption
from ..press.write_png import encode_png, image_from_raw, page_pixels, plan_raster, rasterise

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096  # TTS deck sheets: 10 × 7 cells, 4096 × 4096 px at most
MAX_DPI = 300
GREY = (128, 128, 128)  # the hidden card, and the back of a component without one
KINDS = ("card", "chip")  # maps and sheets are boards, not decks: export them as png
# TTS card types: 0 rounded rectangle, 1 rectangle, 2 rounded hex, 3 hex, 4 circle.
TYPE_RECT, TYPE_CIRCLE = 0, 4
POKER_MM = (63.5, 88.9)  # TTS's own card mesh is poker-sized: scales are relative to it


@dataclass(frozen=True)
class SheetGrid:
    """Cells across and down, the dpi the trims are drawn at, and one cell's pixels."""

    cols: int
    rows: int
    dpi: float
    cell: tuple[int, int]

    @property
    def capacity(self) -> int:
        """Cards a sheet holds: every cell but the last, which is the hidden card."""
        return self.cols * self.rows - 1

    @property
    def pixels(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


def plan_sheet(cards: int, width: float, height: float, max_dpi: float = MAX_DPI) -> SheetGrid:
    """The grid for cards faces of width × height points (plus the hidden cell), at the largest dpi up
    to max_dpi that keeps the sheet within 4096 px; fewer empty cells, then fewer rows, break ties."""
    need = min(cards, MAX_COLS * MAX_ROWS - 1) + 1
    best = None
    for cols in range(2, MAX_COLS + 1):
        for rows in range(2, MAX_ROWS + 1):
            if cols * rows < need:
                continue
            # (4096 // cols) / width-in-inches rounds to exactly 4096 // cols pixels: never over the limit
            dpi = min(max_dpi, (MAX_PX // cols) * 72 / width, (MAX_PX // rows) * 72 / height)
            rank = (round(dpi, 6), -cols * rows, -rows)
            if best is None or rank > best[0]:
                best = (rank, cols, rows, dpi)
    _, cols, rows, dpi = best
    return SheetGrid(cols, rows, dpi, (page_pixels(width, dpi), page_pixels(height, dpi)))


def cells_of(faces: ComponentFaces) -> list[tuple[str, str | None]]:
    """The distinct (front, back) pairs, in piece order: one cell each; copies share their cell."""
    return list(dict.fromkeys((piece.front, piece.back) for piece in faces.pieces))


def export_tts(job: Job, components: list[ComponentFaces]) -> None:
    """OUTDIR/<game>/tts/<component>-sheet-N.png, <component>-back.png (or -back-sheet-N.png when backs differ per
    piece), and <component>.json, for every card and chip component; deck keys run on across components, so that
    decks spawned together in TTS never share one."""
    last_deck = 0
    for done, faces in enumerate(components, 1):
        job.tell("writing", done, len(components), f"{faces.game.id}/{faces.component.id}")
        if faces.component.kind not in KINDS:
            job.report.notes.append(f"{faces.game.id}/{faces.component.id}: a {faces.component.kind} is a board, not a "
                                    "deck; skipped (`pnpgen export png` gives its image for a Custom Board)")
            continue
        last_deck = export_deck(job, faces, last_deck)


def export_deck(job: Job, faces: ComponentFaces, last_deck: int = 0) -> int:
    """Write one component's sheets and JSON with deck keys from last_deck + 1; return the last key used."""
    c, folder = faces.component, job.folder(faces, "tts")
    cells = cells_of(faces)
    grid = plan_sheet(len(cells), c.size.width, c.size.height, min(MAX_DPI, job.options.dpi or MAX_DPI))
    unique_back = len({piece.back for piece in faces.pieces}) > 1  # backs differ per piece (or some have none)
    images = face_images(job, faces, grid)
    blank = Image.new("RGB", grid.cell, GREY)
    hidden = images[faces.shared_back] if faces.shared_back else blank
    decks = {}
    for number, start in enumerate(range(0, len(cells), grid.capacity), last_deck + 1):
        chunk = cells[start:start + grid.capacity]
        sheet = folder / f"{c.id}-sheet-{number}.png"
        job.write(sheet, sheet_png([images[front] for front, _ in chunk], hidden, grid), "PNG")
        if unique_back:
            back = folder / f"{c.id}-back-sheet-{number}.png"
            job.write(back, sheet_png([images[b] if b else blank for _, b in chunk], blank, grid), "PNG")
        else:
            back = folder / f"{c.id}-back.png"
        decks[number] = deck_entry(image_url(sheet, job), image_url(back, job), grid, unique_back, c.shape)
    if not unique_back:
        job.write(folder / f"{c.id}-back.png", encode_png(hidden, grid.dpi), "PNG")
    # A card's id is its deck (sheet) number × 100 + its cell on that sheet; copies share their cell's id.
    card_id = {pair: (last_deck + i // grid.capacity + 1) * 100 + i % grid.capacity for i, pair in enumerate(cells)}
    ids = [card_id[piece.front, piece.back] for piece in faces.pieces]
    snippet = saved_object(faces, ids, decks)
    job.write(folder / f"{c.id}.json", (json.dumps(snippet, ensure_ascii=False, indent=2) + "\n").encode(), "JSON")
    return max(decks)


def face_images(job: Job, faces: ComponentFaces, grid: SheetGrid) -> dict[str, Image.Image]:
    """Every distinct face, trimmed (TTS shows the trim), at exactly one cell's pixels, RGB."""
    c = faces.component
    document, page_of = distinct_document(job, faces)
    keys = list(page_of)
    rasters = [plan_raster(0, page_of[key], c.size.width, c.size.height, c.bleed, grid.dpi, with_bleed=False)
               for key in keys]
    job.report.faces += len(rasters)
    raw = rasterise([document], rasters, workers=job.options.workers, encode=False)
    return {key: image_from_raw(data, grid.cell) for key, data in zip(keys, raw)}


def sheet_png(cells: list[Image.Image], hidden: Image.Image, grid: SheetGrid) -> bytes:
    """A sheet of grid.cols × grid.rows cells: the faces in reading order, the hidden card in the last cell."""
    sheet = Image.new("RGB", grid.pixels, GREY)
    w, h = grid.cell
    for index, image in enumerate(cells):
        row, col = divmod(index, grid.cols)
        sheet.paste(image, (col * w, row * h))
    sheet.paste(hidden, ((grid.cols - 1) * w, (grid.rows - 1) * h))
    return encode_png(sheet, grid.dpi)


def image_url(path: Path, job: Job) -> str:
    """The image's name beside the JSON (the folder stays portable), or under --base-url where it is hosted."""
    base = job.options.base_url
    return f"{base.rstrip('/')}/{quote(path.name)}" if base else path.name


def deck_entry(sheet: str, back: str, grid: SheetGrid, unique_back: bool, shape: str) -> dict:
    return {"FaceURL": sheet, "BackURL": back, "NumWidth": grid.cols,
            "NumHeight": grid.rows, "BackIsHidden": True, "UniqueBack": unique_back,
            "Type": TYPE_CIRCLE if shape == "round" else TYPE_RECT}


def saved_object(faces: ComponentFaces, ids: list[int], decks: dict[int, dict]) -> dict:
    """A TTS saved object: a DeckCustom holding every piece (copies included), or a Card for a single piece."""
    c = faces.component
    cards = [card_object(faces, piece, card_id, decks) for piece, card_id in zip(faces.pieces, ids)]
    if len(cards) == 1:
        return {"SaveName": c.name, "ObjectStates": cards}
    deck = {"Name": "DeckCustom", "Transform": transform(faces), "Nickname": c.name, "Description": faces.game.title,
            "GUID": guid(faces, 0), "SidewaysCard": c.size.width > c.size.height, "DeckIDs": ids,
            "CustomDeck": {str(number): entry for number, entry in decks.items()}, "ContainedObjects": cards}
    return {"SaveName": c.name, "ObjectStates": [deck]}


def card_object(faces: ComponentFaces, piece: PieceFaces, card_id: int, decks: dict[int, dict]) -> dict:
    c, number = faces.component, card_id // 100
    name = piece.card.fields.get("name")
    named = isinstance(name, (str, int)) and not isinstance(name, bool)
    nickname = str(name) if named else f"{c.name} {piece.index}"
    return {"Name": "Card", "Transform": transform(faces), "Nickname": nickname,
            "Description": card_caption(piece.card, c), "GUID": guid(faces, piece.index), "CardID": card_id,
            "SidewaysCard": c.size.width > c.size.height, "CustomDeck": {str(number): decks[number]}}


def transform(faces: ComponentFaces) -> dict:
    """Face down on the table, sized relative to TTS's poker-sized card."""
    c = faces.component
    sx = units.to_mm(c.size.width) / POKER_MM[0]
    sz = sx if c.shape == "round" else units.to_mm(c.size.height) / POKER_MM[1]
    return {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
            "scaleX": round(sx, 4), "scaleY": 1, "scaleZ": round(sz, 4)}


def guid(faces: ComponentFaces, index: int) -> str:
    """Six hex digits, stable across exports (TTS replaces duplicates when objects are spawned)."""
    return hashlib.sha1(f"{faces.game.id}/{faces.component.id}/{index}".encode()).hexdigest()[:6]
