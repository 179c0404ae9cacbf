"""Turn nothing into the live preview's page: one HTML document with its style and script inline.

Everything the page shows comes from /api/state and is inserted with textContent, never as markup;
the Content-Security-Policy allows only this script and style (by hash), so even a slip could not run
data as code. Nothing is loaded from the network: thumbnails, state and the fallback font come from
the loopback server itself.
"""
from __future__ import annotations

import base64
import hashlib

STYLE = r"""
@font-face { font-family: "pnpgen Noto Sans JP"; src: url(/font/regular.ttf); font-weight: 400; }
@font-face { font-family: "pnpgen Noto Sans JP"; src: url(/font/bold.ttf); font-weight: 700; }
:root { --mono: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", "pnpgen Noto Sans JP", monospace;
  --ink: #1d232b; --muted: #5f6b7a; --line: #dde2e8; --paper: #f4f5f7; --card: #fff;
  --pass: #1f7a3d; --fail: #b3261e; --warn: #9a6400; --accent: #2357c6; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink); line-height: 1.55;
  /* system-ui comes last: on Linux it stands for a font without Japanese and stops the fallback there */
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Hiragino Sans", "Hiragino Kaku Gothic ProN",
    "Yu Gothic UI", Meiryo, "Noto Sans JP", "Noto Sans CJK JP", "pnpgen Noto Sans JP", system-ui, sans-serif; }
header { position: sticky; top: 0; z-index: 5; display: flex; gap: 16px; align-items: center; flex-wrap: wrap;
  padding: 10px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 17px; margin: 0; }
#status { font-size: 13px; color: var(--muted); display: flex; align-items: center; gap: 6px; }
#status::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: #aab2bd; }
body[data-mode="sse"] #status::before { background: #2fa35a; }
body[data-mode="polling"] #status::before { background: #d99a00; }
body[data-mode="offline"] #status::before { background: var(--fail); }
#counts { display: flex; gap: 8px; margin-left: auto; font-size: 13px; }
.count { padding: 2px 10px; border-radius: 999px; background: var(--paper); font-weight: 600; }
.count.pass { color: var(--pass); } .count.fail { color: var(--fail); } .count.warn { color: var(--warn); }
main { padding: 16px 24px 64px; max-width: 1500px; }
section.box { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; margin-bottom: 16px; }
#error { border-color: #e4b4b0; background: #fdf3f2; }
#error h2 { color: var(--fail); font-size: 15px; margin: 0 0 6px; }
#error pre { margin: 0; white-space: pre-wrap; font-size: 13px; font-family: var(--mono); }
#error p { margin: 6px 0 0; font-size: 13px; color: var(--muted); }
#changes { font-size: 13px; color: var(--muted); margin: 0 0 12px; }
#findings h2 { font-size: 15px; margin: 0 0 6px; }
ul.findings { list-style: none; margin: 0; padding: 0; }
ul.findings li { display: grid; grid-template-columns: 1.4em 1fr; gap: 2px 6px; padding: 5px 0; font-size: 13px;
  border-top: 1px solid #f0f2f5; }
ul.findings li:first-child { border-top: 0; }
.sym { font-weight: 700; text-align: center; }
.pass .sym { color: var(--pass); } .fail .sym { color: var(--fail); } .warn .sym { color: var(--warn); }
.fail .check { color: var(--fail); font-weight: 600; }
.where { font-family: var(--mono); font-size: 12px; color: var(--muted); margin-right: 6px; }
.quote { display: block; color: var(--muted); font-size: 12px; }
details summary { cursor: pointer; font-size: 13px; color: var(--muted); padding-top: 4px; }
details[open] > summary { margin-bottom: 2px; }
.all-hold { margin: 0; font-size: 13px; color: var(--pass); font-weight: 600; }
h2.game { font-size: 20px; margin: 28px 0 4px; }
.component { margin: 12px 0 20px; }
.component h3 { font-size: 15px; margin: 0 0 8px; display: flex; gap: 10px; align-items: baseline; }
.component h3 small { color: var(--muted); font-weight: 400; font-size: 12px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, var(--tile, 200px)); gap: 12px; }
button.card { all: unset; box-sizing: border-box; cursor: pointer; background: var(--card); border: 1px solid var(--line);
  border-radius: 10px; padding: 8px; display: flex; flex-direction: column; gap: 6px; transition: box-shadow .15s, border-color .15s; }
button.card:hover, button.card:focus-visible { border-color: var(--accent); box-shadow: 0 2px 10px rgba(35,87,198,.18); }
button.card.selected { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
button.card.changed { animation: changed 2.5s ease-out; }
@keyframes changed { from { box-shadow: 0 0 0 4px #ffcf33; } to { box-shadow: 0 0 0 0 transparent; } }
.faces { display: flex; gap: 6px; justify-content: center; align-items: flex-start; }
.faces img { display: block; height: var(--face-h, 150px); width: auto; max-width: 100%; object-fit: contain;
  border-radius: 4px; background: #eef0f3;
  box-shadow: 0 1px 3px rgba(0,0,0,.25); }
.round .faces img, .round .big img { border-radius: 50%; }
.faces .face { min-width: 0; display: flex; justify-content: center; }
.caption { font-size: 13px; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.meta { font-size: 12px; color: var(--muted); display: flex; gap: 6px; flex-wrap: wrap; }
.badge { background: var(--paper); border-radius: 4px; padding: 0 5px; }
.badge.tbd { background: #fff1cc; color: var(--warn); }
#panel { position: fixed; top: 0; right: 0; bottom: 0; width: min(440px, 100vw); z-index: 10; background: #fff;
  border-left: 1px solid var(--line); box-shadow: -8px 0 24px rgba(0,0,0,.12); padding: 16px 20px; overflow: auto; }
#panel[hidden] { display: none; }
@media (min-width: 1100px) { body.panel-open main { margin-right: min(440px, 100vw); } }
#panel details.shared { margin-top: 10px; }
#panel h2 { font-size: 18px; margin: 0 28px 2px 0; word-break: break-word; }
#panel .close { all: unset; cursor: pointer; position: absolute; top: 12px; right: 16px; font-size: 22px; line-height: 1;
  color: var(--muted); padding: 4px; }
#panel .location { font-family: var(--mono); font-size: 13px; background: var(--paper);
  padding: 2px 6px; border-radius: 4px; user-select: all; }
#panel .big { display: flex; gap: 10px; margin: 14px 0; }
#panel .big img { max-width: 100%; height: auto; flex: 1 1 0; min-width: 0; object-fit: contain; border-radius: 6px;
  box-shadow: 0 1px 4px rgba(0,0,0,.3); }
#panel table { border-collapse: collapse; width: 100%; font-size: 13px; }
#panel th, #panel td { text-align: left; vertical-align: top; padding: 5px 6px; border-top: 1px solid var(--line); }
#panel th { color: var(--muted); font-weight: 600; white-space: nowrap; width: 1%; }
#panel td { white-space: pre-wrap; word-break: break-word; }
#panel td.blank { color: var(--muted); font-style: italic; }
.empty { color: var(--muted); font-size: 14px; }
"""

SCRIPT = r"""
"use strict";
const SYMBOL = {pass: "✓", fail: "✗", warn: "⚠"};
let state = null, selected = null, pollTimer = null;
const folded = {};  // the reader's open or closed lists of findings, kept across rebuilds

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function add(parent, ...children) { for (const c of children) if (c) parent.appendChild(c); return parent; }
function show(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(show).join(", ");
  if (typeof value === "object") return "{" + Object.entries(value).map(([k, v]) => k + ": " + show(v)).join(", ") + "}";
  return String(value);
}
function faceImage(key, alt) {
  const img = el("img");
  img.alt = alt; img.loading = "lazy"; img.decoding = "async";
  img.src = "/face/" + key + ".png";
  return img;
}
function setMode(mode, text) {
  document.body.dataset.mode = mode;
  document.getElementById("status").textContent = text;
}

function renderFindings(findings) {
  const box = document.getElementById("findings");
  box.replaceChildren();
  const counts = {pass: 0, fail: 0, warn: 0};
  for (const f of findings) counts[f.status] = (counts[f.status] || 0) + 1;
  const bar = document.getElementById("counts");
  bar.replaceChildren();
  for (const s of ["pass", "fail", "warn"]) add(bar, el("span", "count " + s, SYMBOL[s] + " " + counts[s]));
  box.hidden = findings.length === 0;
  add(box, el("h2", "", "Checks"));
  const item = f => {
    const li = el("li", f.status);
    add(li, el("span", "sym", SYMBOL[f.status] || "?"));
    const body = el("div");
    add(body, el("span", "where", f.file + (f.line ? ":" + f.line : "")), document.createTextNode(" "),
        el("span", "check", f.check));
    if (f.expected !== null || f.found !== null) add(body, document.createTextNode(": expected " + show(f.expected) + ", found " + show(f.found)));
    if (f.detail) add(body, document.createTextNode(" — " + f.detail));
    if (f.source) add(body, el("span", "quote", f.source.document + ": 「" + f.source.quote + "」"));
    return add(li, body);
  };
  const fold = (list, kind, label, open) => {
    if (!list.length) return;
    const more = add(el("details"), el("summary", "", label));
    more.open = kind in folded ? folded[kind] : open;
    more.addEventListener("toggle", () => { folded[kind] = more.open; });
    add(box, add(more, add(el("ul", "findings"), ...list.map(item))));
  };
  const failed = findings.filter(f => f.status === "fail");
  const warned = findings.filter(f => f.status === "warn");
  const passed = findings.filter(f => f.status === "pass");
  if (failed.length) add(box, add(el("ul", "findings"), ...failed.map(item)));
  else add(box, el("p", "all-hold", "✓ No check fails."));
  fold(warned, "warn", warned.length + (warned.length === 1 ? " warning" : " warnings"), warned.length <= 5);
  fold(passed, "pass", passed.length + (passed.length === 1 ? " check holds" : " checks hold"), false);
}

function cardId(game, component, card) { return game.id + "/" + component.id + "/" + card.index; }
function signature(card) { return JSON.stringify([card.front, card.back, card.copies, card.fields]); }

function renderGallery(previous) {
  const gallery = document.getElementById("gallery");
  const before = new Map();
  if (previous) for (const g of previous.games) for (const c of g.components) for (const card of c.cards)
    before.set(cardId(g, c, card), signature(card));
  gallery.replaceChildren();
  if (!state.games.length) {
    add(gallery, el("p", "empty", state.building ? "Building the gallery…" : "No components yet."));
    return;
  }
  for (const game of state.games) {
    add(gallery, el("h2", "game", game.title));
    for (const component of game.components) {
      const section = el("section", "component" + (component.shape === "round" ? " round" : ""));
      section.dataset.component = game.id + "/" + component.id;
      const title = el("h3", "", component.name);
      add(title, el("small", "", component.id + " · " + component.kind + " · " + component.size_mm.join(" × ") +
        " mm · " + component.cards.length + " distinct, " + component.pieces + " pieces"));
      add(section, title);
      const grid = el("div", "grid");
      // faces keep a hint of their real size: a 16 mm marker shows smaller than a poker card
      const [w, h] = component.size_mm;
      const sides = component.cards.some(c => c.back) ? 2 : 1;
      const faceH = Math.max(64, Math.min(140, h * 1.7, 230 * h / w));
      grid.style.setProperty("--face-h", Math.round(faceH) + "px");
      grid.style.setProperty("--tile", Math.max(130, Math.round(faceH * w / h * sides + 6 * (sides - 1) + 18)) + "px");
      for (const card of component.cards) {
        const id = cardId(game, component, card);
        const tile = el("button", "card");
        tile.type = "button";
        tile.dataset.card = id;
        if (id === selected) tile.classList.add("selected");
        if (previous && before.get(id) !== signature(card)) tile.classList.add("changed");
        const faces = el("div", "faces");
        add(faces, add(el("div", "face"), faceImage(card.front, "front of " + card.caption)));
        if (card.back) add(faces, add(el("div", "face"), faceImage(card.back, "back of " + card.caption)));
        const meta = el("div", "meta");
        add(meta, el("span", "badge", "#" + card.index), el("span", "badge", "×" + card.copies));
        if (card.tbd.length) add(meta, el("span", "badge tbd", "tbd: " + card.tbd.join(", ")));
        add(tile, faces, el("div", "caption", card.caption), meta);
        tile.title = card.location;
        tile.addEventListener("click", () => select(id));
        add(grid, tile);
      }
      add(gallery, add(section, grid));
    }
  }
}

function find(id) {
  if (!state) return null;
  for (const game of state.games) for (const component of game.components) for (const card of component.cards)
    if (cardId(game, component, card) === id) return {game, component, card};
  return null;
}

function select(id) {
  selected = id;
  for (const tile of document.querySelectorAll("button.card")) tile.classList.toggle("selected", tile.dataset.card === id);
  renderPanel();
}

function renderPanel() {
  const panel = document.getElementById("panel");
  const found = selected && find(selected);
  if (!found) { panel.hidden = true; panel.replaceChildren(); document.body.classList.remove("panel-open"); return; }
  const {game, component, card} = found;
  panel.replaceChildren();
  panel.className = component.shape === "round" ? "round" : "";
  const close = el("button", "close", "×");
  close.type = "button"; close.title = "Close (Esc)";
  close.addEventListener("click", () => select(null));
  add(panel, close, el("h2", "", card.caption));
  add(panel, el("div", "meta", game.title + " / " + component.name + " #" + card.index + " · ×" + card.copies));
  const where = el("p");
  add(where, el("code", "location", card.location));
  add(panel, where);
  const big = el("div", "big");
  add(big, faceImage(card.front, "front"));
  if (card.back) add(big, faceImage(card.back, "back"));
  add(panel, big);
  // the fields that tell this card from the others first; the ones every card shares (defaults) folded below
  const same = name => component.cards.every(c => JSON.stringify(c.fields[name]) === JSON.stringify(card.fields[name]));
  const names = Object.keys(card.fields);
  const table = names => {
    const table = el("table", "fields");
    for (const name of names) {
      const text = show(card.fields[name]);
      const td = el("td", text === "" ? "blank" : "", text === "" ? "(empty)" : text);
      if (card.tbd.includes(name)) add(td, document.createTextNode(" "), el("span", "badge tbd", "tbd"));
      add(table, add(el("tr"), el("th", "", name), td));
    }
    return table;
  };
  const own = names.filter(name => component.cards.length === 1 || !same(name));
  const shared = names.filter(name => !own.includes(name));
  add(panel, table(own));
  if (shared.length) {
    const more = add(el("details", "shared"), el("summary", "", shared.length + " fields every " + component.name + " shares"));
    more.open = Boolean(folded.shared);
    more.addEventListener("toggle", () => { folded.shared = more.open; });
    add(panel, add(more, table(shared)));
  }
  panel.hidden = false;
  document.body.classList.add("panel-open");
}

function render(next) {
  const previous = state;
  state = next;
  document.title = (next.error ? "✗ " : "") + next.project + " — pnpgen serve";
  document.getElementById("project").textContent = next.project;
  document.body.dataset.version = String(next.version);
  const error = document.getElementById("error");
  error.replaceChildren();
  error.hidden = !next.error;
  if (next.error) {
    add(error, el("h2", "", "✗ The build failed"), el("pre", "", next.error.join("\n")));
    if (next.games.length) add(error, el("p", "", "Below: the last gallery that built. Fix the problem and save again."));
  }
  const changes = document.getElementById("changes");
  changes.textContent = next.changes.length ? "Last change: " + next.changes.join("; ") : "";
  changes.hidden = !next.changes.length;
  renderFindings(next.findings);
  renderGallery(previous && previous.version > 0 ? previous : null);
  renderPanel();
}

async function load() {
  try {
    const response = await fetch("/api/state", {cache: "no-store"});
    const next = await response.json();
    if (!state || next.version !== state.version || next.building !== state.building) render(next);
    return true;
  } catch (err) {
    return false;
  }
}

function poll() {
  if (pollTimer) return;
  setMode("polling", "live (polling)");
  pollTimer = setInterval(async () => {
    if (await load()) setMode("polling", "live (polling)"); else setMode("offline", "server not reachable");
  }, 1000);
}

function connect() {
  if (!window.EventSource) { poll(); return; }
  const events = new EventSource("/events");
  events.onopen = () => setMode("sse", "live");
  events.onmessage = message => { if (!state || Number(message.data) !== state.version) load(); };
  events.onerror = () => { events.close(); poll(); };
}

document.addEventListener("keydown", event => { if (event.key === "Escape") select(null); });
load().then(connect);
"""

BODY = """<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pnpgen serve</title>
<link rel="icon" href="data:,">
<style>{style}</style>
</head>
<body data-mode="connecting">
<header><h1 id="project">pnpgen</h1><span id="status">connecting…</span><div id="counts"></div></header>
<main>
<section id="error" class="box" hidden></section>
<p id="changes" hidden></p>
<section id="findings" class="box" hidden></section>
<div id="gallery"><p class="empty">Loading…</p></div>
</main>
<aside id="panel" hidden></aside>
<script>{script}</script>
</body>
</html>
"""


def source_hash(text: str) -> str:
    """The CSP source expression that allows exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


PAGE = BODY.format(style=STYLE, script=SCRIPT).encode("utf-8")
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src {source_hash(SCRIPT)}; style-src {source_hash(STYLE)}; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
