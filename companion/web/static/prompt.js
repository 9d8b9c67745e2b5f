// The prompt's panel: whose turn it is, what the table asks, and the answers this phone may give (a destination
// from a list or the map, the dice, the jail's fine and cards).

import { t } from "./words.js";
import { $, el, actor, app, cardName, money, player, said, signed, spaceName, viewKey } from "./state.js";
import { act, api, deedAct, input, made, send } from "./talk.js";
import { highlightChoices } from "./board.js";

// Answers that take a player out of the game (or to magie-1904's poorhouse): their words, and a confirmation.
const LEAVING = { bankrupt: () => t("Go bankrupt"), out: () => t("Leave the game"), poorhouse: () => t("Go to the poorhouse") };

export function renderTurn(state) {
  $("turn").textContent = state.winner ? t("Game over") : t("Turn {n}: {player}", { n: state.turn.number, player: state.turn.player });
  const prompt = state.prompt;
  $("turn-panel").hidden = !!(prompt && prompt.kind === "auction" && state.auction);  // the auction's panel says it all
  const box = $("act-prompt");
  const me = actor();
  const ownDebt = Boolean(prompt && me) && prompt.kind === "debt" && prompt.player === me && "amount" in prompt;
  $("prompt").textContent = state.winner ? t("{player} wins!", { player: state.winner }) : ownDebt ? debtLine(state, prompt, me) : prompt ? said(prompt) : "";
  const mine = Boolean(prompt && me) && (prompt.player === me || (prompt.player === null && app.session.host));
  // Rebuilt only when what it offers changes: another player's act must not reset dice or a list half chosen.
  const jailCards = prompt && prompt.purpose === "jail" && prompt.player === me ? player(me).cards : null;
  const key = viewKey([prompt, me, state.winner, app.session.host, app.session.phone_dice, jailCards, Boolean(app.board)]);
  if (box.dataset.key === key) {
    highlightChoices(mine ? prompt.options || [] : []);
    return;
  }
  box.dataset.key = key;
  box.replaceChildren();
  if (!prompt || !me || state.winner) return;
  const label = (option) => priced(prompt, option) || (LEAVING[option] && LEAVING[option]()) || (app.board && app.board.byId[option] ? app.board.byId[option].name : t(option));
  if (ownDebt) debtHelp(box, prompt, me);  // the ways out first
  if (mine && prompt.kind === "airplane" && prompt.options.includes(prompt.space)) {  // staying put is one tap
    box.append(el("button", { type: "button", "data-answer": prompt.space, on: { click: () => input({ answer: prompt.space }) } },
      t("Stay on {space}", { space: label(prompt.space) })));
  }
  if (mine && prompt.options && prompt.options.length > 8) {  // a destination: a list, or a tap on the map
    const select = el("select", { id: "answer-list", "aria-label": t("choose") }, ...prompt.options.map((o) => el("option", { value: o }, label(o))));
    select.addEventListener("change", () => { $("answer-choose").textContent = t("Choose"); });
    box.append(select, el("button", { type: "button", id: "answer-choose", on: { click: () => input({ answer: select.value }) } }, t("Choose")));
    if (prompt.options.some((o) => app.board && app.board.byId[o])) box.append(el("p", { class: "where" }, t("or tap a green space on the board, then Choose")));
  } else if (mine && prompt.options && prompt.options.length) {
    for (const option of prompt.options) {
      const leaving = option in LEAVING;  // taking oneself out of the game: asked twice, as on the table's buttons
      box.append(el("button", { type: "button", class: leaving ? "danger" : "", "data-answer": option, on: {
        click: () => (!leaving || confirm(t("{player}: {choice}?", { player: prompt.player, choice: LEAVING[option]().toLowerCase() }))) && input({ answer: option }) } },
      label(option)));
    }
  }
  if (prompt.kind === "roll" && mine) rollControls(box, prompt);
  if (!mine && prompt.player && prompt.kind !== "auction") box.append(el("p", { class: "where" }, t("{player} decides.", { player: prompt.player })));
  if (prompt.kind === "roll" && prompt.purpose === "jail" && prompt.player === me) {
    const fine = state.options && state.options.jail_fine;
    box.append(el("button", { type: "button", class: "secondary", on: { click: () => act("pay-fine") } },
      fine ? t("Pay the fine {amount}", { amount: signed(-fine) }) : t("Pay the fine")));
    for (const card of player(me).cards.filter((c) => c.includes("jail"))) {
      box.append(el("button", { type: "button", class: "secondary", on: { click: () => act("use-card", { card }) } }, t("Use {card}", { card: cardName(card) })));
    }
  }
  highlightChoices(mine ? prompt.options || [] : []);
}

// A debt on the debtor's own phone: what is owed and how much is missing, in large type, then each way to raise it
// with what it brings toward the debt ("Mortgage Oriental Avenue: +$50 toward $55"), as the engine prices it (a
// dry run of each act: /api/acts), then trading; going bankrupt comes last (the prompt's own answer, confirmed).
function debtLine(state, prompt, me) {
  const creditor = prompt.creditor === "bank" ? t("the bank") : (state.pools || {})[prompt.creditor] !== undefined
    ? t("the {pool}", { pool: t(prompt.creditor.replace(/-/g, " ")) }) : prompt.creditor;
  return t("You owe {creditor} {amount} and have {cash}", { creditor, amount: money(prompt.amount), cash: money(player(me).cash) });
}

function debtHelp(box, prompt, me) {
  const short = Math.max(prompt.amount - player(me).cash, 0);
  const ways = el("div", { class: "debt-ways", id: "debt-ways" }, el("p", { class: "where" }, said(prompt)));
  box.append(el("p", { class: "short", id: "debt-short" }, t("Short {amount}", { amount: money(short) })), ways);
  const asked = box.dataset.key;
  api(`/api/acts?player=${encodeURIComponent(me)}`).then((reply) => {
    if (box.dataset.key !== asked) return;  // the prompt changed meanwhile: its own answer comes
    const raising = reply.acts.map((act, i) => ({ act, raised: (reply.raised || [])[i] || 0 })).filter((w) => w.raised > 0 && w.act.space);
    raising.sort((a, b) => b.raised - a.raised);
    const buttons = raising.map(({ act: a, raised }) => el("button", { type: "button", class: "secondary", "data-way": `${a.do} ${a.space}`,
      on: { click: () => deedAct(a.do, a.space) } }, t("{act}: {raised} toward {short}", {
        act: t(WAYS[a.do] || "{act} {space}", { act: a.do, space: spaceName(a.space) }), raised: signed(raised), short: money(short) })));
    const trading = (app.board.verbs || []).includes("trade") ? el("p", { class: "where" }, t("Or sell deeds or cards to another player: Trade, below.")) : "";
    ways.replaceChildren(...(buttons.length ? [el("div", { class: "actions" }, ...buttons), trading] : [el("p", { class: "where" }, said(prompt))]));
  }).catch(() => {});  // the engine's advice stays
}
const WAYS = { mortgage: t("Mortgage {space}"), sell: t("Sell a building on {space}"), "sell-idle": t("Sell {space}") };

// A prompt's answer that costs money says how much: "Buy Baltic Avenue −$60"; declining it "No, auction it".
function priced(prompt, option) {
  if (prompt.kind === "buy" && prompt.price !== undefined) {
    if (option === "yes") return prompt.space ? t("Buy {space} {price}", { space: spaceName(prompt.space), price: signed(-prompt.price) })
      : t("Buy {price}", { price: signed(-prompt.price) });
    if (option === "no") return t("Don't buy");
  }
  return null;
}

function rollControls(box, prompt) {
  const dice = prompt.dice || 2;
  if (app.session.phone_dice === "software") {
    box.append(el("button", { type: "button", id: "roll-button", on: { click: () => send("/api/roll", made({})) } }, t("Roll")));
  } else if (app.session.phone_dice === "manual" || app.session.host) {
    const selects = [];
    for (let i = 0; i < dice; i++) {
      const select = el("select", { "aria-label": t("die {n}", { n: i + 1 }) });
      for (let face = 1; face <= 6; face++) select.append(el("option", { value: face }, String(face)));
      selects.push(select);
      box.append(select);
    }
    let cube = null;
    if (prompt.with_cube) {  // magie-1924: the throw after doubles adds the chance cube (5 to 30)
      cube = el("select", { "aria-label": t("chance cube") });
      for (let face = 5; face <= 30; face += 5) cube.append(el("option", { value: face }, String(face)));
      box.append(cube);
    }
    const line = () => {
      const roll = { roll: selects.map((s) => Number(s.value)) };
      if (cube) roll.cube = Number(cube.value);
      return roll;
    };
    box.append(el("button", { type: "button", on: { click: () => input(line()) } }, t("Enter dice")));
  } else {
    box.append(el("p", { class: "where" }, t("Roll on the table (the roller or the ROLL button).")));
  }
}
