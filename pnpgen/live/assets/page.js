
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
        if (card.print && card.print.length) add(meta, el("span", "badge print", "print: " + card.print.length));
        const since = state.since && state.since.cards[id];
        if (since) {
          tile.classList.add("since");
          add(meta, el("span", "badge since", since + " since " + state.since.ref));
        }
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
  if (card.print && card.print.length) {  // what a print shop would refuse, as `pnpgen preflight` finds it
    const flaw = f => add(el("li", f.severity === "error" ? "fail" : "warn"),
                          el("span", "sym", f.severity === "error" ? SYMBOL.fail : SYMBOL.warn),
                          el("div", "", f.side + " · " + f.check + ": " + f.message));
    add(panel, add(el("ul", "findings print"), ...card.print.map(flaw)));
  }
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
  renderSince(next.since);
  renderFindings(next.findings);
  renderGallery(previous && previous.version > 0 ? previous : null);
  renderPanel();
}

// With `serve --since REF`: how many cards changed since REF, a link to the comparison page, and a filter.
function renderSince(since) {
  const box = document.getElementById("since");
  box.replaceChildren();
  box.hidden = !since;
  if (!since) return;
  if (since.error) { add(box, document.createTextNode("Changed since " + since.ref + ": " + since.error)); return; }
  const count = Object.keys(since.cards).length;
  add(box, document.createTextNode(count + " card" + (count === 1 ? "" : "s") + " changed or added since " + since.label +
    (since.removed.length ? "; removed: " + since.removed.join(", ") : "") +
    (since.sections.length ? "; rulebook: " + since.sections.join(", ") : "") + " — "));
  const link = el("a", "", "old and new side by side");
  link.href = "/changes.html";
  const label = el("label", "");
  const only = el("input", "");
  only.type = "checkbox";
  only.checked = document.body.classList.contains("only-since");
  only.addEventListener("change", () => document.body.classList.toggle("only-since", only.checked));
  add(box, link, document.createTextNode(" · "), add(label, only, document.createTextNode(" show only these")));
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
