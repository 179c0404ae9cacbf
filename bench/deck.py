"""Turn a card count into the bench deck: its pnpgen project, its edits, and the same pages drawn by plain reportlab.

Run: python3 bench/deck.py OUT_FOLDER --cards N   (the reference alone, as one whole process: what peer.py times)
Nothing here imports pnpgen, so the reference process loads reportlab and the standard library only.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "pnpgen" / "fonts"

FRONT = """\
<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#f4ecd8"/>
<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" rx="2" fill="none" stroke="#b3262d" stroke-width="0.5"/>
{{ text(card.number|string, SAFE + 1, SAFE + 1, 26, 14, size=28, min_size=20, weight="bold", color="#b3262d") }}
{{ text(card.name, SAFE + 1, 22, W - 2*SAFE - 2, 8, size=12, weight="bold", align="center") }}
{{ text(card.effect, SAFE + 2, 56, W - 2*SAFE - 4, 24, size=8, min_size=6) }}
"""
BACK = """\
<rect x="{{ -B }}" y="{{ -B }}" width="{{ W + 2*B }}" height="{{ H + 2*B }}" fill="#1d5e48"/>
<rect x="{{ SAFE }}" y="{{ SAFE }}" width="{{ W - 2*SAFE }}" height="{{ H - 2*SAFE }}" rx="2" fill="none" stroke="#b48a3c" stroke-width="0.6"/>
{{ text(game.title, 0, H/2 - 6, W, 12, size=14, weight="bold", align="center", color="#ffffff") }}
"""
TITLE = "ベンチマーク"
CARD_W, CARD_H, PAGE_W, PAGE_H = 63.0, 88.0, 210.0, 297.0  # mm: poker card, A4
TEMPLATE_EDIT = ("templates/front.svg.j2", 'stroke="#b3262d" stroke-width="0.5"', 'stroke="#b3262d" stroke-width="0.6"')

# The sheet pnpgen lays this deck out on (as its PDFs show): 3 × 3 trims abutting, centred on A4; a 6 mm margin
# home printers cannot print, and 3 mm of white beyond the bleed for the crop marks, so the bleed is 3 mm where
# there is room for that and less where not; none between two cards; crop marks 1 mm off the trims, white under black.
BLEED, MARGIN, MARK_WHITE, MARK_START, MARK_END = 3.0, 6.0, 3.0, 1.0, 6.0
X0, Y0 = (PAGE_W - 3 * CARD_W) / 2, (PAGE_H - 3 * CARD_H) / 2  # the trims' bottom-left corner, mm
# Where pnpgen's text() sets this template's lines (mm from the trim's top-left corner, to the baseline).
NUMBER_AT, NAME_AT, EFFECT_AT, EFFECT_STEP, BACK_TITLE_AT = (4.0, 12.6924), 25.7253, (5.0, 58.4836), 3.6688, 42.3462


def effect_lines(n: int) -> list[str]:
    """Two or three lines of Japanese effect text that differ per card."""
    lines = [f"山札からカードを{n % 5 + 1}枚引く。", f"場にカード{n}があれば１点得る。"]
    return lines + ["その後、手札を１枚捨てる。"] if n % 2 else lines


def write_project(root: Path, unique: int, copies: int, prefix: str = "カード") -> Path:
    """A project folder with one game, one poker-card component of `unique` cards × `copies`."""
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    cards = "\n".join(f"          - {{number: {n}, name: {json.dumps(prefix + str(n), ensure_ascii=False)}, "
                      f"effect: {json.dumps(chr(10).join(effect_lines(n)), ensure_ascii=False)}}}"
                      for n in range(1, unique + 1))
    (root / "cards.yaml").write_text(f"""\
games:
  - id: bench
    title: {TITLE}
    components:
      - id: deck
        name: デッキ
        size: poker
        front: front.svg.j2
        back: back.svg.j2
        copies: {copies}
        cards:
{cards}
""", encoding="utf-8")
    return root


def card_tweak(number: int) -> tuple[str, str, str]:
    """The edit of card number's name in a write_project deck: (file, old text, new text)."""
    return "cards.yaml", f'name: "カード{number}"', f'name: "一枚だけ変えたカード{number}"'


def edit(project: Path, change: tuple[str, str, str]) -> None:
    """Save one edit (file, old text, new text) into the project, as a designer's editor would."""
    path = project / change[0]
    text = path.read_text(encoding="utf-8")
    if change[1] not in text:
        raise SystemExit(f"bench: {change[0]} has no {change[1]!r} to edit")
    path.write_text(text.replace(change[1], change[2], 1), encoding="utf-8")


def register_reference_fonts() -> None:
    """The bundled Noto Sans JP as reportlab TTFonts (once a process)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in (("RefJP", "NotoSansJP-Regular.ttf"), ("RefJP-Bold", "NotoSansJP-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))


def draw_reference(folder: Path, unique: int) -> list[Path]:
    """The pages pnpgen writes for write_project(…, unique, 1), drawn straight onto reportlab canvases: the
    component's PDF and the game's print-and-play PDF (here the same pages), a sheet of 9 fronts and then its
    mirrored backs, each face clipped to its bleed, the one back a form. Fonts registered first."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "deck.pdf", folder / "bench-print-and-play.pdf"]
    for path in paths:
        draw_document(path, unique)
    return paths


def draw_document(path: Path, unique: int) -> None:
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path), pagesize=(PAGE_W * mm, PAGE_H * mm), invariant=1)
    canvas.setTitle(f"{TITLE} — デッキ")
    canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    canvas.beginForm("back", -BLEED * mm, -(CARD_H + BLEED) * mm, (CARD_W + BLEED) * mm, BLEED * mm)
    draw_back(canvas, mm)
    canvas.endForm()
    for start in range(0, unique, 9):
        numbers = range(start + 1, min(start + 9, unique) + 1)
        draw_sheet_side(canvas, mm, len(numbers), False, lambda i: draw_front(canvas, mm, numbers[i]))
        draw_sheet_side(canvas, mm, len(numbers), True, lambda i: canvas.doForm("back"))
    canvas.save()


def draw_sheet_side(canvas, mm: float, count: int, mirrored: bool, draw_face) -> None:
    """One page: count faces in reading order (columns mirrored for backs), each clipped to its bleed, crop marks."""
    cells = {(2 - i % 3 if mirrored else i % 3, i // 3): i for i in range(count)}
    clips = []
    for (col, row), i in cells.items():
        left = X0 + col * CARD_W
        top = Y0 + (3 - row) * CARD_H  # mm from the page's bottom edge
        reach = [0.0 if (col + dx, row + dy) in cells else bleed_room(col + dx, row + dy)
                 for dx, dy in ((-1, 0), (0, 1), (1, 0), (0, -1))]  # left, below, right, above
        clip = (left - reach[0], top - CARD_H - reach[1], left + CARD_W + reach[2], top + reach[3])
        clips.append(clip)
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(clip[0] * mm, clip[1] * mm, (clip[2] - clip[0]) * mm, (clip[3] - clip[1]) * mm)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(left * mm, top * mm)
        draw_face(i)
        canvas.restoreState()
    cols = [col for col, _ in cells]
    rows = [row for _, row in cells]
    trims = (X0 + min(cols) * CARD_W, Y0 + (2 - max(rows)) * CARD_H,
             X0 + (max(cols) + 1) * CARD_W, Y0 + (3 - min(rows)) * CARD_H)
    draw_crop_marks(canvas, mm, trims, len(set(cols)), len(set(rows)))
    canvas.setTrimBox([v * mm for v in trims])
    canvas.setBleedBox([min(c[0] for c in clips) * mm, min(c[1] for c in clips) * mm,
                        max(c[2] for c in clips) * mm, max(c[3] for c in clips) * mm])
    canvas.showPage()


def bleed_room(col: int, row: int) -> float:
    """The bleed toward an empty cell: full inside the sheet, less at its edge where the margin and the marks' white
    leave less room."""
    if 0 <= col < 3 and 0 <= row < 3:
        return BLEED
    room = X0 if col < 0 or col > 2 else Y0
    return min(BLEED, room - MARGIN - MARK_WHITE)


def draw_crop_marks(canvas, mm: float, trims: tuple[float, float, float, float], cols: int, rows: int) -> None:
    x0, y0, x1, y1 = trims
    lines = []
    for i in range(cols + 1):
        x = x0 + i * CARD_W
        lines += [(x, y1 + MARK_START, x, y1 + mark_end(PAGE_H - y1)), (x, y0 - MARK_START, x, y0 - mark_end(y0))]
    for i in range(rows + 1):
        y = y0 + i * CARD_H
        lines += [(x1 + MARK_START, y, x1 + mark_end(PAGE_W - x1), y), (x0 - MARK_START, y, x0 - mark_end(x0), y)]
    for color, width in (((1, 1, 1), 1.2), ((0, 0, 0), 0.25)):
        canvas.setStrokeColorRGB(*color)
        canvas.setLineWidth(width)
        canvas.lines([tuple(v * mm for v in line) for line in lines])


def mark_end(room: float) -> float:
    return min(MARK_END, room - MARGIN)


def draw_front(canvas, mm: float, n: int) -> None:
    """Card n's front, from the trim's top-left corner (y grows up, so the template's y is negated)."""
    draw_ground(canvas, mm, (0.957, 0.925, 0.847), (0.702, 0.149, 0.176), 0.5)
    canvas.setFillColorRGB(0.702, 0.149, 0.176)
    canvas.setFont("RefJP-Bold", 28)
    canvas.drawString(NUMBER_AT[0] * mm, -NUMBER_AT[1] * mm, str(n))
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont("RefJP-Bold", 12)
    canvas.drawCentredString(CARD_W / 2 * mm, -NAME_AT * mm, f"カード{n}")
    canvas.setFont("RefJP", 8)
    for k, line in enumerate(effect_lines(n)):
        canvas.drawString(EFFECT_AT[0] * mm, -(EFFECT_AT[1] + k * EFFECT_STEP) * mm, line)


def draw_back(canvas, mm: float) -> None:
    draw_ground(canvas, mm, (0.114, 0.369, 0.282), (0.706, 0.541, 0.235), 0.6)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setFont("RefJP-Bold", 14)
    canvas.drawCentredString(CARD_W / 2 * mm, -BACK_TITLE_AT * mm, TITLE)


def draw_ground(canvas, mm: float, fill: tuple[float, float, float], color: tuple[float, float, float],
                width: float) -> None:
    """The background to the bleed and the rounded border inside the safe zone, as both templates draw them."""
    canvas.setFillColorRGB(*fill)
    canvas.rect(-BLEED * mm, -(CARD_H + BLEED) * mm, (CARD_W + 2 * BLEED) * mm, (CARD_H + 2 * BLEED) * mm,
                stroke=0, fill=1)
    canvas.setStrokeColorRGB(*color)
    canvas.setLineWidth(width * mm)
    canvas.roundRect(3 * mm, -(CARD_H - 3) * mm, (CARD_W - 6) * mm, (CARD_H - 6) * mm, 2 * mm, stroke=1, fill=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder the reference PDFs are written into")
    parser.add_argument("--cards", type=int, default=1000)
    arguments = parser.parse_args()
    register_reference_fonts()
    draw_reference(arguments.out, arguments.cards)


if __name__ == "__main__":
    main()
