"""Turn a comparison into changes.html: one self-contained page (images as data: URIs, no script, no server)."""
from __future__ import annotations

import base64
from html import escape

from .compare import CardChange
from .report import describe_causes, describe_change, describe_field
from .session import Comparison

# Card data comes from an untrusted project: everything is escaped, and the page may load nothing at all.
POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
STYLE = """
body{font-family:"Noto Sans JP",system-ui,sans-serif;margin:2em;color:#222;background:#fafafa}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.8em 1em;margin:1em 0}
.card.added{border-left:6px solid #2a8a3a}.card.removed{border-left:6px solid #999}
.card.changed{border-left:6px solid #e0003c}.where{color:#777;font-size:.85em}
ul{margin:.3em 0 .6em}.faces{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
figure{margin:0;text-align:center}figcaption{font-size:.8em;color:#555}
img{max-width:260px;border:1px solid #ccc;background:#fff}.none{color:#777}
"""


def render_figure(png: bytes | None, caption: str, role: str) -> str:
    if png is None:
        return ""
    uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return (f'<figure class="{role}"><img src="{uri}" alt="{escape(caption)}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def render_card(change: CardChange, comparison: Comparison) -> str:
    parts = [f'<div class="card {change.status}"><div><b>{escape(describe_change(change))}</b> '
             f'<span class="where">{escape(str(change.location))}</span></div>']
    if change.fields:
        parts.append("<ul>" + "".join(f"<li>{escape(describe_field(f))}</li>" for f in change.fields) + "</ul>")
    if change.because:
        parts.append(f"<p>{escape(describe_causes(change))}</p>")
    for face in change.faces:
        picture = comparison.pictures[face.pair]
        parts.append(f'<div class="faces" data-side="{face.side}">'
                     + render_figure(picture.old, f"{face.side} before ({comparison.label})", "old")
                     + render_figure(picture.new, f"{face.side} now", "new")
                     + render_figure(picture.overlay, f"{face.side}: changed pixels", "overlay") + "</div>")
    parts.append("</div>")
    return "".join(parts)


def render_html(comparison: Comparison) -> str:
    body = [f"<h1>{escape(comparison.project.name)}: changes since {escape(comparison.label)}</h1>"]
    if comparison.files:
        body.append(f"<p>Changed files: {escape(', '.join(comparison.files))}</p>")
    if not comparison.cards and not comparison.sections:
        body.append('<p class="none">No card and no rulebook section changed.</p>')
    group = None
    for change in comparison.cards:
        if (change.game, change.component) != group:
            group = (change.game, change.component)
            body.append(f"<h2>{escape(change.game)} / {escape(change.component)}</h2>")
        body.append(render_card(change, comparison))
    if comparison.sections:
        body.append("<h2>Rulebooks</h2><ul>")
        for s in comparison.sections:
            title = s.heading.lstrip("#").strip() or "(before the first heading)"
            body.append(f"<li>{escape(s.game)} {escape(s.file)}:{s.line}: 「{escape(title)}」 {s.status}</li>")
        body.append("</ul>")
    return ("<!doctype html>\n<html lang=\"ja\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
            f"<title>changes since {escape(comparison.label)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
