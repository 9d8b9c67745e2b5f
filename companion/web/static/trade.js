// The trade's panel: the offer on the table (accept, reject, withdraw) and the form proposing one. Imported when an
// offer is first on the table or the form first opened (stream.js: tradeView).

import { t } from "./words.js";
import { $, el, actor, app, canTrade, cardName, deedsOf, money, player, spaceName } from "./state.js";
import { act } from "./talk.js";

export function renderTrade(state) {
  const me = actor();
  const showPanel = canTrade(state);
  $("trade-panel").hidden = !showPanel && !state.trade;
  const offer = $("trade-offer");
  offer.replaceChildren();
  if (state.trade) {
    const o = state.trade;
    const deed = (id) => spaceName(id) + ((state.spaces[id] || {}).mortgaged && tenth(id) !== null ? t(" (mortgaged: 10% is {amount})", { amount: money(tenth(id)) }) : "");
    const bundle = (b) => [b.cash ? money(b.cash) : null, ...b.spaces.map(deed), ...b.cards.map(cardName)].filter(Boolean).join(", ") || t("nothing");
    const text = o.loan  // magie-1904: a loan between players is offered and answered like a trade
      ? t("{by} offers {to} a loan of {amount} at {interest} each wages, on {spaces}", { by: o.from, to: o.with,
        amount: money(o.loan.amount), interest: money(o.loan.interest), spaces: o.loan.spaces.map(spaceName).join(", ") })
        + (o.loan.terms ? t(" (terms: {terms})", { terms: o.loan.terms }) : "")
      : t("{by} offers {to}: {give} for {get}", { by: o.from, to: o.with, give: bundle(o.give), get: bundle(o.get) });
    const box = el("div", { class: "offer" }, el("p", {}, text));
    const buttons = el("div", { class: "actions" });
    if (me === o.with) {
      buttons.append(el("button", { type: "button", on: { click: () => act("accept") } }, t("Accept")),
        el("button", { type: "button", class: "secondary", on: { click: () => act("reject") } }, t("Reject")));
    } else if (me === o.from) {
      buttons.append(el("button", { type: "button", class: "secondary", on: { click: () => act("reject") } }, t("Withdraw")));
    }
    box.append(buttons);
    offer.append(box);
  }
  $("trade-new").hidden = !showPanel || !!state.trade;
  if (!showPanel) return;
  const others = state.players.filter((p) => p.name !== me && !p.bankrupt).map((p) => p.name);
  const select = $("trade-with");
  const chosen = others.includes(select.value) ? select.value : others[0];
  if ([...select.options].map((o) => o.value).join() !== others.join()) {
    select.replaceChildren(...others.map((n) => el("option", { value: n }, n)));
  }
  select.value = chosen || "";
  fillTradeItems("give-items", me);
  fillTradeItems("get-items", select.value);
}

export function fillTradeItems(boxId, owner) {
  const box = $(boxId);
  const p = owner && player(owner);
  const keep = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  box.replaceChildren();
  if (!p) return;
  const cards = (p.cards || []).filter((card) => !card.endsWith("-hidden"));  // another's face-down cards: not askable
  const pays = boxId === "get-items" ? " mortgaged: you pay the bank {amount} (10%)" : " mortgaged: the taker pays the bank {amount} (10%)";  // who takes a mortgaged deed pays its 10%
  for (const id of deedsOf(app.state, owner).filter((id) => !cards.includes(id))) {  // magie-1924: the card is the deed
    const mortgaged = app.state.spaces[id].mortgaged && tenth(id) !== null;
    box.append(el("label", { "data-mortgaged": mortgaged ? tenth(id) : null },
      el("input", { type: "checkbox", value: "space:" + id, checked: keep.has("space:" + id) }), spaceName(id),
      mortgaged ? el("span", { class: "hint" }, t(pays, { amount: money(tenth(id)) })) : ""));
  }
  for (const card of cards) {
    box.append(el("label", {}, el("input", { type: "checkbox", value: "card:" + card, checked: keep.has("card:" + card) }), cardName(card)));
  }
}

// 10% of a deed's printed mortgage value, rounded up as the engine does: what taking it mortgaged costs (null: none printed).
function tenth(id) {
  const line = ((app.board.deeds || {})[id] || { lines: [] }).lines.find(([label]) => label === "Mortgage value");
  return line ? Math.ceil(Number(line[1].replace(/\D/g, "")) / 10) : null;
}

export function bundleFrom(boxId, cashId) {
  const picked = [...$(boxId).querySelectorAll("input:checked")].map((i) => i.value);
  return { cash: Number($(cashId).value) || 0, spaces: picked.filter((v) => v.startsWith("space:")).map((v) => v.slice(6)),
    cards: picked.filter((v) => v.startsWith("card:")).map((v) => v.slice(5)) };
}
