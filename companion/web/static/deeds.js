// The "My deeds and cards" panel: each deed with the acts the engine takes now (and why not the others), travel
// cards, magie-1924's idle land, magie-1904's loans, addon's bridge, going bankrupt, and any other verb.

import { nt, t } from "./words.js";
import { $, el, actor, app, cardName, deedsOf, groupName, later, money, player, playing, signed, sortedDeeds, spaceName, viewKey } from "./state.js";
import { act, api, deedAct, notice } from "./talk.js";

// A deed's card (deedcard.js) comes when a deed is first opened; it is drawn again with each state while open.
export const deedCard = later(() => import("./deedcard.js"));
export const openDeed = (id) => deedCard((card) => card.openDeed(id));
export const redrawDeed = () => { if ($("deed-card").open) deedCard((card) => card.drawDeed()); };

// A deed as a chip (in a player's list and in this panel): a tap opens its card.
export function deedChip(id, rec) {
  const space = app.board && app.board.byId[id];
  const chip = el("button", { type: "button", class: "deed" + (rec.mortgaged ? " mortgaged" : ""), "aria-haspopup": "dialog",
    on: { click: () => openDeed(id) } },
    spaceName(id) + (rec.hotel ? " · " + t("hotel") : rec.houses ? " · " + nt("{n} house", "{n} houses", rec.houses) : "") + (rec.mortgaged ? " " + t("(mortgaged)") : "")
      + (rec.improvement ? " · " + t("improved") : "") + (rec.sign ? " · " + t("no trespassing") : ""));
  if (space && space.colour) chip.style.setProperty("--gc", space.colour);
  return chip;
}

const KNOWN_VERBS = new Set(["build", "sell", "mortgage", "unmortgage", "bid", "pass", "pay-fine", "use-card",
  "bankrupt", "trade", "accept", "reject", "travel", "improve", "sign", "sell-idle", "buy-idle", "borrow", "repay",
  "loan", "move-bridge"]);

export function renderMine(state) {
  const me = actor();
  // A ruleset with no deeds and no voluntary acts (chambers) has nothing to show here.
  $("mine-panel").hidden = !playing(me) || !app.board || !!state.winner  // after the game: no acts to offer
    || (!(app.board.verbs || []).length && !Object.keys(state.spaces || {}).length);
  if ($("mine-panel").hidden) return;
  // Rebuilt only when what it offers changes: a form half filled in (a loan, the bridge's ends, idle land) must not
  // be reset by another player's roll or by the stream's first state.
  const key = viewKey([me, state.spaces, player(me).cash, player(me).cards, state.prompt, state.trade, state.loans,
    state.bridge_mover, state.players.map((p) => [p.name, p.bankrupt]), app.board.ruleset]);
  if ($("mine-panel").dataset.key === key) return;
  $("mine-panel").dataset.key = key;
  const verbs = new Set(app.board.verbs || []);
  const box = $("mine");
  box.replaceChildren();
  let group;
  for (const id of sortedDeeds(state, me)) {  // grouped by colour, each group under its name
    const rec = state.spaces[id], space = app.board.byId[id] || {};
    if (space.group && space.group !== group) {
      const heading = el("h3", { class: "group-name" }, groupName(space.group));
      heading.style.setProperty("--gc", space.colour);
      box.append(heading);
    }
    group = space.group;
    const row = el("div", { class: "mine-row", "data-deed": id }, deedChip(id, rec));
    const button = (verb, label, cls = "secondary") => verbs.has(verb)
      ? el("button", { type: "button", class: cls, "data-verb": verb, "data-label": label, on: { click: () => deedAct(verb, id) } }, label)
      : null;
    const offered = [
      space.kind === "street" && !rec.mortgaged && !rec.hotel && button("build", rec.houses === 4 ? t("Build hotel") : t("Build house"), ""),
      (rec.houses || rec.hotel) && button("sell", rec.hotel ? t("Sell hotel") : t("Sell house")),
      !rec.mortgaged && !rec.houses && !rec.hotel && button("mortgage", t("Mortgage")),
      rec.mortgaged && button("unmortgage", t("Lift mortgage"), ""),
      space.kind === "land" && !rec.improvement && button("improve", t("Improve")),  // magie-1924, before the throw
      space.kind === "land" && !rec.sign && button("sign", t("Put sign here")),
    ];
    row.append(...offered.filter(Boolean));  // a verb the ruleset lacks gives null: never the text "null"
    box.append(row);
  }
  if (!box.children.length) box.append(el("p", { class: "where" }, t("No deeds yet.")));
  offerOnlyLegalActs(state, me, (app.mineBuilt = (app.mineBuilt || 0) + 1));
  landlordControls(state, me, verbs, box);
  if (verbs.has("move-bridge") && state.bridge_mover === me) box.append(bridgePicker((ends) => act("move-bridge", ends)));
  const travel = $("travel");
  travel.replaceChildren();
  const cards = (player(me).cards || []).filter((c) => c.startsWith("travel-"));
  const prompt = state.prompt;
  if (verbs.has("travel") && cards.length && prompt && prompt.kind === "roll" && prompt.player === me) {
    const checks = cards.map((card) => el("input", { type: "checkbox", value: card, id: "travel-" + card }));
    cards.forEach((card, i) => travel.append(el("label", { for: "travel-" + card }, checks[i], " " + cardName(card))));
    travel.append(el("button", { type: "button", on: { click: () => act("travel", { cards: checks.filter((c) => c.checked).map((c) => c.value) }) } }, t("Travel with these cards")));
  }
  const more = $("more-actions");
  more.replaceChildren();
  if (verbs.has("bankrupt")) {
    more.append(el("button", { type: "button", class: "danger", on: { click: () => confirm(t("{player}: give up and go bankrupt?", { player: me })) && act("bankrupt") } }, t("Go bankrupt")));
  }
  const other = [...verbs].filter((v) => !KNOWN_VERBS.has(v));
  if (other.length) {
    const verb = el("select", { "aria-label": "action" }, ...other.map((v) => el("option", { value: v }, v)));
    const params = el("input", { "aria-label": "details (JSON)", placeholder: '{"space": "..."}' });
    more.append(verb, params, el("button", { type: "button", on: { click: () => {
      let extra = {};
      try { extra = params.value ? JSON.parse(params.value) : {}; } catch { return notice("details must be JSON"); }
      act(verb.value, extra);
    } } }, t("Do")));
  }
}

async function offerOnlyLegalActs(state, me, built) {
  // The engine says which acts on deeds it takes now (a house only on a whole group, with the cash, no debt...):
  // the others' buttons are hidden, as the table's buttons offer only those. Until it answers, all are shown.
  let reply;
  try {
    reply = await api(`/api/acts?player=${encodeURIComponent(me)}`);
  } catch {
    return;  // every button stays: a refusal still says why
  }
  // Rebuilt meanwhile (even into the same key, after an undo): that rebuild's own answer comes.
  if (app.mineBuilt !== built) return;
  app.acts = reply;
  redrawDeed();
  // Each act taken says what it does to the player's cash ("Mortgage +$50"), as the engine priced it.
  const legal = new Map(reply.acts.map((a, i) => [`${a.do} ${a.space}`, (reply.cash || [])[i] || 0]));
  for (const button of $("mine").querySelectorAll("[data-deed] [data-verb]")) {
    const key = `${button.dataset.verb} ${button.closest("[data-deed]").dataset.deed}`;
    button.hidden = !legal.has(key);
    button.disabled = false;
    const change = legal.get(key);
    button.textContent = button.dataset.label + (change ? " " + signed(change) : "");
  }
  sayWhyNot(state, me, reply.refused || []);
}

function sayWhyNot(state, me, refused) {
  // Where a player looks for a button the engine refuses now (a house on a whole group, a mortgage to lift, a
  // mortgage under buildings), the button is shown disabled and its deed's own line says why, in the engine's words
  // after the colon ("build evenly, ...", "it costs $110"). A house on half a group is not explained on every street:
  // the group's colour says it. A cause shared by every deed offering that button is said once, above them.
  for (const old of $("mine").querySelectorAll(".why")) old.remove();  // said once, whatever answered before
  const notes = [];
  for (const { act, why } of refused) {
    const row = act.space && $("mine").querySelector(`[data-deed="${CSS.escape(act.space)}"]`);
    const button = row && row.querySelector(`[data-verb="${CSS.escape(act.do)}"]`);
    if (!button || (act.do === "build" && !ownsGroup(state, me, act.space))) continue;
    const reason = why.includes(": ") ? why.slice(why.indexOf(": ") + 2) : why;
    notes.push({ row, button, verb: act.do, label: button.dataset.label, reason });
  }
  const byReason = new Map();  // (not Map.groupBy: older phones' browsers lack it)
  for (const n of notes) byReason.set(`${n.verb} ${n.reason}`, [...(byReason.get(`${n.verb} ${n.reason}`) || []), n]);
  const shared = [];
  for (const same of byReason.values()) {
    const offering = $("mine").querySelectorAll(`[data-deed] [data-verb="${CSS.escape(same[0].verb)}"]`).length;
    const text = `${same[0].label}: ${same[0].reason}`;
    // The same for every deed offering it (1924: "in one's own turn, before the throw"): said once.
    const together = same.length > 1 && same.length >= offering;
    if (together) shared.push(el("p", { class: "why", "data-why": same[0].verb, id: `why-${same[0].verb}` }, text));
    for (const n of same) {
      const id = together ? `why-${n.verb}` : `why-${n.verb}-${n.row.dataset.deed}`;
      n.button.hidden = false;
      n.button.disabled = true;
      n.button.setAttribute("aria-describedby", id);
      if (!together) n.row.append(el("p", { class: "why", "data-why": n.verb, id }, text));
    }
  }
  $("mine").prepend(...shared);
}

function ownsGroup(state, me, id) {
  const group = (app.board.byId[id] || {}).group;
  const members = group && app.board.groups && app.board.groups[group] ? app.board.groups[group].spaces : [id];
  return members.every((m) => (state.spaces[m] || {}).owner === me);
}

// A select of the board's spaces (those `keep` says), with "none" first when `none` names it.
export function spaceSelect(board, keep, attrs, none) {
  const options = board.spaces.filter(keep).map((s) => el("option", { value: s.id }, s.name));
  return el("select", attrs, ...(none ? [el("option", { value: "" }, none)] : []), ...options);
}

// addon's bridge: a space of the outer board and one of the inner board, each with its visible label.
export function bridgeEnds(board, prefix, none) {
  const outerTrack = board.spaces[0].track;
  const end = (which) => {
    const id = `${prefix}-${which}`;
    const select = spaceSelect(board, (s) => (which === "outer") === (s.track === outerTrack), { id }, none);
    return { select, box: el("span", { class: "end" }, el("label", { for: id }, which === "outer" ? "Outer end" : "Inner end"), select) };
  };
  const outer = end("outer"), inner = end("inner");
  return { outer: outer.select, inner: inner.select, boxes: [outer.box, inner.box] };
}

export function bridgePicker(move) {
  // addon: the bridge joins a space of the outer board to one of the inner board (the host, or the player who
  // passed over it with option bridge_moves).
  const { outer, inner, boxes } = bridgeEnds(app.board, "bridge-" + (bridgePicker.made = (bridgePicker.made || 0) + 1));
  return el("div", { class: "actions" }, ...boxes, el("button", { type: "button", class: "secondary", on: {
    click: () => move({ outer: outer.value, inner: inner.value }) } }, t("Move the bridge")));
}

function landlordControls(state, me, verbs, box) {
  // magie-1924's real estate office: idle land sold (chosen cards) or bought (how many, drawn blind).
  const prompt = state.prompt;
  const cards = player(me).cards || [];
  if (prompt && prompt.kind === "real-estate-office" && prompt.player === me) {
    const idle = cards.filter((c) => !(app.board.byId[c]));
    const checks = idle.map((card) => el("input", { type: "checkbox", value: card }));
    const count = el("input", { type: "number", min: 1, value: 1, "aria-label": "idle land cards to buy" });
    box.append(el("div", { class: "mine-row" }, ...idle.map((card, i) => el("label", {}, checks[i], " " + cardName(card))),
      verbs.has("sell-idle") && idle.length ? el("button", { type: "button", on: { click: () =>
        act("sell-idle", { cards: checks.filter((c) => c.checked).map((c) => c.value) }) } }, t("Sell these")) : "",
      verbs.has("buy-idle") ? el("span", {}, count, el("button", { type: "button", class: "secondary", on: { click: () =>
        act("buy-idle", { count: Number(count.value) }) } }, t("Buy idle land"))) : ""));
  }
  // magie-1904: bank loans on lots, and repaying one's loans.
  if (verbs.has("borrow")) {
    const lots = deedsOf(state, me).filter((id) => !state.spaces[id].mortgaged);
    const checks = lots.map((id) => el("input", { type: "checkbox", value: id }));
    const note = (state.options && state.options.note) || 100;
    const amount = el("input", { type: "number", min: note, step: note, value: note, "aria-label": "loan amount" });
    if (lots.length) {
      box.append(el("div", { class: "mine-row" }, el("span", {}, t("Borrow from the bank on:")),
        ...lots.map((id, i) => el("label", {}, checks[i], " " + spaceName(id))), amount,
        el("button", { type: "button", class: "secondary", on: { click: () =>
          act("borrow", { amount: Number(amount.value), spaces: checks.filter((c) => c.checked).map((c) => c.value) }) } }, t("Borrow"))));
    }
  }
  if (verbs.has("loan") && !state.trade) {  // magie-1904: lend to another player on their lots
    const others = state.players.filter((p) => p.name !== me && !p.bankrupt).map((p) => p.name);
    const to = el("select", { "aria-label": "lend to" }, ...others.map((n) => el("option", { value: n }, n)));
    const lots = el("span", {});
    const showLots = () => lots.replaceChildren(...deedsOf(state, to.value).filter((id) => !state.spaces[id].mortgaged)
      .map((id) => el("label", {}, el("input", { type: "checkbox", value: id }), " " + spaceName(id))));
    to.addEventListener("change", showLots);
    showLots();
    const amount = el("input", { type: "number", min: 1, value: 100, "aria-label": "amount lent" });
    const interest = el("input", { type: "number", min: 0, value: 0, "aria-label": "interest at each of their wages" });
    const terms = el("input", { "aria-label": "terms", placeholder: "terms (optional)" });
    if (others.length) {
      box.append(el("div", { class: "mine-row" }, el("span", {}, t("Lend to")), to, amount, el("span", {}, "interest"), interest,
        el("span", {}, "on"), lots, terms, el("button", { type: "button", class: "secondary", on: { click: () => act("loan", {
          to: to.value, amount: Number(amount.value), interest: Number(interest.value), terms: terms.value,
          spaces: [...lots.querySelectorAll("input:checked")].map((c) => c.value) }) } }, t("Offer the loan"))));
    }
  }
  if (verbs.has("repay")) {
    for (const loan of (state.loans || []).filter((l) => l.borrower === me)) {
      box.append(el("div", { class: "mine-row" }, el("span", { class: "deed" }, t("Loan {id}: {amount} from {lender}",
        { id: loan.id, amount: money(loan.amount), lender: loan.lender === "bank" ? t("the bank") : loan.lender })),
      el("button", { type: "button", class: "secondary", on: { click: () => act("repay", { loan: loan.id }) } }, t("Repay"))));
    }
  }
}
