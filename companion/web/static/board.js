// The board: its spaces drawn once per ruleset, the owners' bars, buildings and tokens on them, and a destination
// picked with a tap.

import { t } from "./words.js";
import { $, el, svg, app, playerColour, spaceName } from "./state.js";
import { openDeed } from "./deeds.js";

export function drawBoard() {
  const board = app.board;
  const root = svg("svg", { viewBox: `0 0 ${board.width} ${board.height}`, role: "img", "aria-label": t("{name}: the board", { name: board.name }) });
  for (const [a, b] of board.links) {
    const p = board.byId[a], q = board.byId[b];
    root.append(svg("line", { class: "link", x1: p.x + 0.5, y1: p.y + 0.5, x2: q.x + 0.5, y2: q.y + 0.5 }));
  }
  for (const space of board.spaces) {
    const g = svg("g", { "data-space": space.id });
    const rect = svg("rect", { class: "cell", x: space.x + 0.03, y: space.y + 0.03, width: 0.94, height: 0.94, rx: 0.06 });
    g.append(rect);
    if (space.colour) g.append(svg("rect", { x: space.x + 0.03, y: space.y + 0.03, width: 0.94, height: 0.2, fill: space.colour }));
    const words = space.name.split(/\s+/).slice(0, 3);
    words.forEach((word, i) => {
      const text = svg("text", { x: space.x + 0.5, y: space.y + 0.4 + i * 0.19, "text-anchor": "middle" });
      text.textContent = word.length > 8 ? word.slice(0, 7) + "…" : word;
      g.append(text);
    });
    const title = svg("title");
    title.textContent = space.name;
    g.append(title);
    // A tap picks a destination the prompt offers; any other tap opens the space's card.
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", "0");
    g.setAttribute("aria-label", space.name);
    g.addEventListener("click", () => (app.choices && app.choices.has(space.id) ? pickSpace(space.id) : openDeed(space.id)));
    g.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); g.dispatchEvent(new Event("click")); } });
    root.append(g);
  }
  root.append(svg("g", { id: "marks" }));
  root.append(svg("g", { id: "tokens" }));
  const zoom = el("button", { type: "button", class: "secondary zoom", "aria-pressed": "false", on: { click: () => {
    const big = $("board").classList.toggle("big");
    zoom.setAttribute("aria-pressed", String(big));
    zoom.textContent = big ? t("Fit the board") : t("Larger board");
  } } }, t("Larger board"));
  $("board").classList.remove("big");
  $("board").replaceChildren(el("div", { class: "board-scroll" }, root), zoom);
}

export function renderTokens(state) {
  if (!app.board) return;
  const marks = $("marks"), tokens = $("tokens");
  marks.replaceChildren();
  tokens.replaceChildren();
  for (const [id, rec] of Object.entries(state.spaces || {})) {
    const space = app.board.byId[id];
    if (!space) continue;
    const cell = document.querySelector(`[data-space="${id}"] .cell`);
    if (cell) cell.classList.toggle("mortgaged", !!rec.mortgaged);
    // Ownership: a bar along the foot of the space in the owner's colour (a token is a lettered disc).
    if (rec.owner) marks.append(svg("rect", { class: "owned", x: space.x + 0.03, y: space.y + 0.87, width: 0.94, height: 0.1, fill: playerColour(rec.owner) }));
    const count = rec.hotel ? 1 : rec.houses || 0;
    for (let i = 0; i < count; i++) {
      marks.append(svg("rect", { x: space.x + 0.08 + i * 0.17, y: space.y + 0.06, width: rec.hotel ? 0.3 : 0.13, height: 0.13,
        fill: rec.hotel ? "#e03131" : "#2f9e44", stroke: "#000", "stroke-width": 0.02 }));
    }
  }
  const here = {};
  state.players.filter((p) => !p.bankrupt).forEach((p) => {
    const space = app.board.byId[p.space];
    if (!space) return;
    const k = (here[p.space] = (here[p.space] || 0) + 1) - 1;
    const cx = space.x + 0.2 + (k % 3) * 0.3, cy = space.y + 0.66 - Math.floor(k / 3) * 0.3;
    const token = svg("g", { class: "token", "data-token": p.name });
    token.append(svg("circle", { cx, cy, r: 0.15, fill: playerColour(p.name) }));
    const initial = svg("text", { x: cx, y: cy + 0.065, "text-anchor": "middle", class: "initial" });
    initial.textContent = p.name.slice(0, 1).toUpperCase();
    const title = svg("title");
    title.textContent = p.name;
    token.append(initial, title);
    tokens.append(token);
  });
}

export function highlightChoices(options) {
  if (!app.board) return;
  app.choices = new Set(options.filter((o) => app.board.byId[o]));
  document.querySelectorAll("#board [data-space]").forEach((g) => {
    g.querySelector(".cell").classList.toggle("pick", app.choices.has(g.dataset.space));
  });
}

function pickSpace(id) {
  // A tap on the map picks, it does not answer: the cells are small on a phone and a mis-tap would move the token
  // (and pay a fare). The choice is confirmed with the prompt's own button.
  if (!app.choices || !app.choices.has(id)) return;
  const list = $("answer-list");
  const button = list ? $("answer-choose") : document.querySelector(`#act-prompt [data-answer="${CSS.escape(id)}"]`);
  if (list) {
    list.value = id;
    button.textContent = t("Choose {space}", { space: spaceName(id) });
  }
  if (button) { button.focus(); button.scrollIntoView({ block: "nearest" }); }
}
