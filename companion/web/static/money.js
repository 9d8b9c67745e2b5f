// The money story (each player's payments in and out, newest first) and the game-over summary with its chart of
// everyone's worth over the game, drawn here as SVG (no chart library).

import { t } from "./words.js";
import { $, el, svg } from "./dom.js";
import { app, money, playerColour, signed, spaceName } from "./state.js";
import { api } from "./talk.js";

async function loadMoney() {
  try {
    return await api("/api/money");
  } catch {
    return null;  // the panels say nothing rather than something wrong
  }
}

// The story of one player's money: what came in and went out, with the other party, newest first.
export async function renderMoneyStory(state) {
  const panel = $("money-panel");
  const names = state.players.filter((p) => "cash" in p).map((p) => p.name);
  panel.hidden = !names.length;
  if (panel.hidden || !$("money-details").open) return;
  const select = $("money-who");
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
    select.value = names.includes(app.session && app.session.player) ? app.session.player : names[0];
  }
  const key = `${app.game}:${state.seq}:${select.value}`;
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const story = await loadMoney();
  if (!story || panel.dataset.key !== key) return;
  const who = select.value;
  const lines = story.payments.filter((p) => p.payer === who || p.payee === who);
  $("money-list").replaceChildren(...lines.map((p) => {
    const change = p.payee === who ? p.amount : -p.amount;
    return el("li", { class: change > 0 ? "in" : "out" }, el("span", { class: "amount" }, signed(change)), " ", p.text);
  }));
  if (!lines.length) $("money-list").append(el("li", { class: "where" }, `No payments of ${who}'s yet.`));
}

// Game over: the winner, each player's final worth, rent paid and received, the most landed spaces, and one line
// per player of their worth over the game (cash where the ruleset counts nothing else).
export async function renderGameOver(state) {
  const panel = $("over-panel");
  panel.hidden = !state.winner;
  if (!state.winner) return;
  const key = `${app.game}:${state.seq}`;
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  $("over-winner").textContent = `${state.winner} wins!`;
  if (panel.dataset.shown !== String(app.game)) {  // the end of a game is news: shown once, at the top
    panel.dataset.shown = String(app.game);
    scrollTo(0, 0);
  }
  const story = await loadMoney();
  try {  // the Pi's points carry each player's worth (the stream's own points only the cash)
    app.history = (await api("/api/history")).points;
  } catch { /* the cash the page has */ }
  if (panel.dataset.key !== key) return;
  const points = app.history.filter((p) => p.worth || p.cash);
  const last = points[points.length - 1] || { cash: {} };
  const worthOf = (name) => (last.worth && name in last.worth ? last.worth[name] : (last.cash || {})[name]);
  const rows = state.players.map((p) => el("tr", { "data-player": p.name },
    el("th", { scope: "row" }, el("span", { class: "swatch", "aria-hidden": "true" }), p.name + (p.name === state.winner ? " (winner)" : "")),
    el("td", {}, p.bankrupt ? "out" : worthOf(p.name) !== undefined ? money(worthOf(p.name)) : ""),
    el("td", {}, story && story.rent[p.name] ? money(story.rent[p.name].paid) : ""),
    el("td", {}, story && story.rent[p.name] ? money(story.rent[p.name].received) : "")));
  rows.forEach((row) => row.querySelector(".swatch").style.setProperty("--pc", playerColour(row.dataset.player)));
  $("over-table").replaceChildren(el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Worth")),
    el("th", { scope: "col" }, t("Rent paid")), el("th", { scope: "col" }, t("Rent received")))), el("tbody", {}, ...rows));
  $("over-chart").replaceChildren(worthChart(state, points));
  $("over-landed").textContent = story && story.landed.length
    ? t("Most landed: {spaces}", { spaces: story.landed.map((l) => `${spaceName(l.space)} (${l.times})`).join(", ") }) : "";
}

function worthChart(state, points) {
  const series = state.players.map((p) => ({ name: p.name, values: points.map((pt) => (pt.worth || pt.cash)[p.name]) }));
  const all = series.flatMap((s) => s.values).filter((v) => v !== undefined);
  const top = Math.max(...all, 1), bottom = Math.min(...all, top);
  // Both ends of the axis in dollars, whole, and room left for the longer one ("$16560" lost its "$" to the edge).
  const W = 320, H = 160, PAD = Math.max(34, 8 + 6 * Math.max(money(top).length, money(bottom).length));
  const margin = Math.max((top - bottom) * 0.1, 10);  // the differences between players, not the distance from $0
  const hi = top + margin, lo = Math.max(bottom - margin, 0);
  const x = (i) => PAD + (points.length > 1 ? (i / (points.length - 1)) * (W - PAD - 6) : 0);
  const y = (v) => 8 + (1 - (v - lo) / (hi - lo || 1)) * (H - 28);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": t("Worth over the game: {players}", { players: series.map((s) => s.name).join(", ") }) });
  chart.append(svg("line", { class: "axis", x1: PAD, y1: y(lo), x2: W - 6, y2: y(lo) }));
  for (const [v, label] of [[top, money(top)], [bottom, money(bottom)]]) {
    const text = svg("text", { x: PAD - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    text.textContent = label;
    chart.append(text);
  }
  const ends = [];
  for (const s of series) {
    const xy = s.values.map((v, i) => (v === undefined ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
    if (!xy.length) continue;
    chart.append(svg("polyline", { points: xy.join(" "), fill: "none", stroke: playerColour(s.name), "stroke-width": 2.5,
      "data-line": s.name, "stroke-linejoin": "round" }));
    const [ex, ey] = xy[xy.length - 1].split(",").map(Number);
    ends.push({ name: s.name, x: Math.min(ex, W - 40), y: ey - 5 });
  }
  // Each line's name at its end (colour is not the only sign), pushed apart where lines end close together.
  ends.sort((a, b) => a.y - b.y).forEach((end, i, all) => {
    if (i && end.y - all[i - 1].y < 12) end.y = all[i - 1].y + 12;
    const name = svg("text", { x: end.x, y: end.y, class: "tick name" });
    name.textContent = end.name;
    chart.append(name);
  });
  const under = svg("text", { x: W - 6, y: H - 4, "text-anchor": "end", class: "tick" });
  under.textContent = t("{n} inputs", { n: points.length });
  chart.append(under);
  return chart;
}
