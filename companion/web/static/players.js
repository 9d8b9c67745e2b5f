// The players' panel (each one's cash and its line over the game, where they are, their cards and deeds) and the
// bank's and pools' panel.

import { nt, t } from "./words.js";
import { $, el, svg, actor, app, cardName, groupName, money, playerColour, sortedDeeds, spaceName } from "./state.js";
import { deedChip } from "./deeds.js";

function sparkline(name) {
  const points = app.history.map((p) => p.cash[name]).filter((v) => v !== undefined);
  const box = svg("svg", { class: "spark", viewBox: "0 0 100 30", preserveAspectRatio: "none", role: "img",
    "aria-label": t("{player}'s cash over the game", { player: name }) });
  if (points.length < 2) return box;
  const hi = Math.max(...points, 1), lo = Math.min(...points, 0);
  const xy = points.map((v, i) => `${(i / (points.length - 1)) * 100},${28 - ((v - lo) / (hi - lo || 1)) * 26}`);
  box.append(svg("polyline", { points: xy.join(" "), fill: "none", stroke: playerColour(name), "stroke-width": 1.5,
    "vector-effect": "non-scaling-stroke" }));
  return box;
}

export function renderPlayers(state) {
  const list = $("players");
  list.replaceChildren();
  for (const p of state.players) {
    const card = el("article", { class: "player" + (state.turn.player === p.name ? " turn-now" : "") + (p.bankrupt ? " out" : ""),
      "data-player": p.name });
    card.style.setProperty("--pc", playerColour(p.name));
    card.append(el("h3", {}, el("span", {}, p.name), "cash" in p ? el("span", { class: "cash", "data-cash": p.name }, money(p.cash)) : null));
    if ("cash" in p) card.append(sparkline(p.name));
    const visiting = !p.in_jail && app.board && (app.board.byId[p.space] || {}).kind === "jail";  // jail's other side
    const status = p.bankrupt ? t("out of the game") : p.in_jail ? t("in jail") : visiting ? t("just visiting") : "";
    card.append(el("p", { class: "where" }, t("on {space}", { space: spaceName(p.space) }) + (status ? " · " + status : "")
      + (p.laps ? " · " + t("lap {n}", { n: p.laps }) : "")));
    // Travel cards are dealt face down (RULES §2): other phones see how many, not which.
    const hidden = p.name === actor() ? [] : (p.cards || []).filter((c) => c.startsWith("travel-"));
    const shown = (p.cards || []).filter((c) => !hidden.includes(c));
    if (hidden.length) shown.push(nt("{n} travel card", "{n} travel cards", hidden.length));
    if (shown.length) card.append(el("p", { class: "cards" }, t("cards: {cards}", { cards: shown.map(cardName).join(", ") })));
    const groups = new Map();  // each colour group's deeds together, under the group's name
    for (const id of sortedDeeds(state, p.name)) {
      const group = (app.board && app.board.byId[id] || {}).group || "";
      groups.set(group, [...(groups.get(group) || []), id]);
    }
    for (const [group, ids] of groups) {
      card.append(el("div", { class: "deeds" }, group ? el("span", { class: "gname" }, groupName(group)) : null,
        ...ids.map((id) => deedChip(id, state.spaces[id]))));
    }
    list.append(card);
  }
}

export function renderBank(state) {
  const list = $("bank");
  list.replaceChildren();
  for (const [pool, amount] of Object.entries(state.pools || {})) list.append(el("dt", {}, t(pool.replace(/-/g, " "))), el("dd", {}, money(amount)));
  for (const [what, count] of Object.entries(state.bank || {})) list.append(el("dt", {}, t("bank {what}", { what: t(what) })), el("dd", {}, String(count)));
  if (state.dice) list.append(el("dt", {}, t("last roll")), el("dd", {}, state.dice.join(" + ")));
  for (const loan of state.loans || []) {  // magie-1904: who owes whom counts at the end
    list.append(el("dt", {}, `loan ${loan.id}`), el("dd", {}, `${loan.borrower} owes ${loan.lender === "bank" ? "the bank" : loan.lender} `
      + `${money(loan.amount)} (${money(loan.interest)} each wages) on ${loan.spaces.map(spaceName).join(", ")}`
      + (loan.terms ? `; terms: ${loan.terms}` : "")));
  }
  $("bank-panel").hidden = !list.children.length;  // nothing to list (chambers before its first roll): no empty panel
}
