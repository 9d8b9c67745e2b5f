// The phone page: draws the state of DESIGN.md, follows the live stream, and sends inputs. This is its entry module
// (page.html loads it). Plain JavaScript modules served as they are, no framework, no build step, no external file:
// the table has no internet.

import { $, el } from "./dom.js";
import { actor, app, cardName, deedsOf, groupName, money, player, playing, signed, sortedDeeds, spaceName } from "./state.js";
import { act, api, deedAct, drawWith, input, loadSession, made, notice, send } from "./talk.js";
import { renderGameOver, renderMoneyStory } from "./money.js";
import { bridgeEnds, playerNames, readOptions, readStart, showOptions, showProgress } from "./setup.js";
import { drawBoard, highlightChoices, renderTokens } from "./board.js";
import { deedChip, drawDeed } from "./deedcard.js";
import { renderBank, renderPlayers } from "./players.js";
import { renderStory } from "./story.js";

// Answers that take a player out of the game (or to magie-1904's poorhouse): their words, and a confirmation.
const LEAVING = { bankrupt: "Go bankrupt", out: "Leave the game", poorhouse: "Go to the poorhouse" };
const HOST_VERBS_WITH_DETAILS = new Set(["send-to-jail", "move-bridge"]);  // their own controls, with a target
const KNOWN_VERBS = new Set(["build", "sell", "mortgage", "unmortgage", "bid", "pass", "pay-fine", "use-card",
  "bankrupt", "trade", "accept", "reject", "travel", "improve", "sign", "sell-idle", "buy-idle", "borrow", "repay",
  "loan", "move-bridge"]);

async function refresh() {
  await loadSession();
  try {
    const state = await api("/api/state");
    if (!app.board || app.ruleset !== state.ruleset) await loadBoard(state.ruleset);
    const history = await api("/api/history");
    app.history = history.points;
    render(state, app.session.game_id);
  } catch (error) {
    $("prompt").textContent = error.message;
  }
}

async function loadBoard(ruleset) {
  const board = await api("/api/board?ruleset=" + encodeURIComponent(ruleset));
  board.byId = Object.fromEntries(board.spaces.map((s) => [s.id, s]));
  app.board = board;
  app.ruleset = ruleset;
  drawBoard();
}

function follow() {
  clearTimeout(follow.again);
  if (app.stream) app.stream.close();
  const stream = new EventSource("/api/stream");
  app.stream = stream;
  stream.addEventListener("open", () => {
    follow.pause = 0;
    $("live").textContent = "live";
    $("live").className = "live on";
  });
  stream.addEventListener("error", () => {
    $("live").textContent = "reconnecting…";
    $("live").className = "live";
    if (stream.readyState === EventSource.CLOSED && app.stream === stream) followAgain();
  });
  stream.addEventListener("state", async (event) => {
    const state = JSON.parse(event.data);
    const game = Number(event.lastEventId.split(":")[0]);  // the event id is GAME:SEQ
    const newTurn = app.state && app.state.turn.number !== state.turn.number;
    if (!app.board || app.ruleset !== state.ruleset || (app.board.dynamic_links && newTurn)) await loadBoard(state.ruleset);
    if (app.state && game === app.game && state.seq >= app.state.seq) {
      const cash = Object.fromEntries(state.players.filter((p) => "cash" in p).map((p) => [p.name, p.cash]));
      if (!app.history.length || app.history[app.history.length - 1].seq !== state.seq) app.history.push({ seq: state.seq, cash });
    } else if (app.state) {
      app.history = (await api("/api/history")).points;
    }
    render(state, game);
  });
}

// The browser reconnects a dropped stream by itself, but gives up on one the Pi refused (429: too many open from
// this address, or every slot held): open it again after a pause that doubles up to 30 s, and fetch the state,
// the history and this phone's rights afresh, since inputs were missed meanwhile.
function followAgain() {
  follow.pause = Math.min(2 * (follow.pause || 500), 30000);
  follow.again = setTimeout(async () => {
    try { await refresh(); } catch { /* the Pi is unreachable: the stream's own error tries again */ }
    follow();
  }, follow.pause);
}

// A phone that sleeps loses its stream without a word: iOS suspends the page, and the connection it finds on waking
// may look open yet be gone (Wi-Fi went to sleep too), so no error comes. When the page is shown again (the screen
// back on, the tab brought forward, or the page restored from the back-forward cache), fetch what was missed and
// open the stream anew.
async function wake() {
  if (document.visibilityState !== "visible" || !app.stream) return;  // hidden, or not following yet (table code)
  try { await refresh(); } catch { /* the Pi is unreachable: the new stream's error tries again */ }
  follow();
}
document.addEventListener("visibilitychange", wake);
addEventListener("pageshow", (event) => { if (event.persisted) wake(); });

// ------------------------------------------------------------------ drawing the state
// `game` is the id of the state's game (null: not known yet). Only an older state of the game shown is dropped (an
// input's reply arriving after the stream's next state): another game always replaces it, even one of the same
// ruleset and players, whose first state has seq 0 too.
function render(state, game) {
  if (app.state && game != null && game === app.game && state.seq < app.state.seq) return;
  app.state = state;
  app.game = game;
  document.body.dataset.seq = state.seq;
  // Each panel on its own: one that fails must not leave the join, host or prompt panels undrawn (the error is
  // still thrown, after the others, so that it is seen).
  const failures = [];
  // The host panel first: it sets whom the host acts for, which the prompt, auction, trade and deed panels read.
  // renderMe last: it holds under the header the panel the table waits on, once that panel is drawn.
  for (const panel of [renderHost, renderTurn, renderGameOver, renderMoneyStory, renderPlayers, renderBank, renderStory, renderTokens,
    renderAuction, renderTrade, renderMine, renderJoin, renderMe]) {
    try { panel(state); } catch (error) { failures.push(error); }
  }
  if ($("deed-card").open) drawDeed();
  if (failures.length) setTimeout(() => { throw failures[0]; });
}

function renderTurn(state) {
  $("turn").textContent = state.winner ? "Game over" : `Turn ${state.turn.number}: ${state.turn.player}`;
  const prompt = state.prompt;
  $("prompt").textContent = state.winner ? `${state.winner} wins!` : prompt ? prompt.text : "";
  const box = $("act-prompt");
  const me = actor();
  const mine = Boolean(prompt && me) && (prompt.player === me || (prompt.player === null && app.session.host));
  // Rebuilt only when what it offers changes: another player's act must not reset dice or a list half chosen.
  const jailCards = prompt && prompt.purpose === "jail" && prompt.player === me ? player(me).cards : null;
  const key = JSON.stringify([prompt, me, state.winner, app.session.host, app.session.phone_dice, jailCards, Boolean(app.board)]);
  if (box.dataset.key === key) {
    highlightChoices(mine ? prompt.options || [] : []);
    return;
  }
  box.dataset.key = key;
  box.replaceChildren();
  if (!prompt || !me || state.winner) return;
  const label = (option) => priced(prompt, option) || LEAVING[option] || (app.board && app.board.byId[option] ? app.board.byId[option].name : option);
  if (mine && prompt.kind === "airplane" && prompt.options.includes(prompt.space)) {  // staying put is one tap
    box.append(el("button", { type: "button", "data-answer": prompt.space, on: { click: () => input({ answer: prompt.space }) } },
      `Stay on ${label(prompt.space)}`));
  }
  if (mine && prompt.options && prompt.options.length > 8) {  // a destination: a list, or a tap on the map
    const select = el("select", { id: "answer-list", "aria-label": "choose" }, ...prompt.options.map((o) => el("option", { value: o }, label(o))));
    select.addEventListener("change", () => { $("answer-choose").textContent = "Choose"; });
    box.append(select, el("button", { type: "button", id: "answer-choose", on: { click: () => input({ answer: select.value }) } }, "Choose"));
    if (prompt.options.some((o) => app.board && app.board.byId[o])) box.append(el("p", { class: "where" }, "or tap a green space on the board, then Choose"));
  } else if (mine && prompt.options && prompt.options.length) {
    for (const option of prompt.options) {
      const leaving = option in LEAVING;  // taking oneself out of the game: asked twice, as on the table's buttons
      box.append(el("button", { type: "button", class: leaving ? "danger" : "", "data-answer": option, on: {
        click: () => (!leaving || confirm(`${prompt.player}: ${LEAVING[option].toLowerCase()}?`)) && input({ answer: option }) } },
      label(option)));
    }
  }
  if (prompt.kind === "roll" && mine) rollControls(box, prompt);
  if (!mine && prompt.player && prompt.kind !== "auction") box.append(el("p", { class: "where" }, `${prompt.player} decides.`));
  if (prompt.kind === "roll" && prompt.purpose === "jail" && prompt.player === me) {
    const fine = state.options && state.options.jail_fine;
    box.append(el("button", { type: "button", class: "secondary", on: { click: () => act("pay-fine") } },
      "Pay the fine" + (fine ? " " + signed(-fine) : "")));
    for (const card of player(me).cards.filter((c) => c.includes("jail"))) {
      box.append(el("button", { type: "button", class: "secondary", on: { click: () => act("use-card", { card }) } }, "Use " + cardName(card)));
    }
  }
  highlightChoices(mine ? prompt.options || [] : []);
}

// A prompt's answer that costs money says how much: "Buy Baltic Avenue −$60"; declining it "No, auction it".
function priced(prompt, option) {
  if (prompt.kind === "buy" && prompt.price !== undefined) {
    if (option === "yes") return `Buy ${prompt.space ? spaceName(prompt.space) + " " : ""}${signed(-prompt.price)}`;
    if (option === "no") return "Don't buy";
  }
  return null;
}

// Me first: once joined, the header holds this player's cash in the largest type, whose turn it is and what the
// table waits for from them; their prompt's panel stays under it while they scroll (if it is not too tall).
function renderMe(state) {
  const me = app.session && app.session.player, p = me && player(me);
  $("me-cash").hidden = $("me-now").hidden = !p;
  document.body.toggleAttribute("data-me", !!p);
  if (!p) return;
  $("me-cash").textContent = "cash" in p ? money(p.cash) : "";
  const prompt = state.prompt;
  const waiting = prompt && (prompt.player === me || (prompt.waiting || []).includes(me));
  const offer = state.trade && state.trade.with === me;
  $("me-now").textContent = state.winner ? `Game over: ${state.winner} wins` : p.bankrupt ? "Out of the game"
    : waiting ? `Your move: ${prompt.text}` : offer ? `${state.trade.from} offers you a trade`
      : `Turn ${state.turn.number}: ${state.turn.player}${state.turn.player === me ? " (you)" : ""}`;
  $("me-now").href = waiting ? (prompt.kind === "auction" ? "#auction-panel" : "#turn-panel") : offer ? "#trade-panel" : "#players-panel";
  $("me-now").classList.toggle("waiting", !!(waiting || offer));
  // The panel with the buttons the table waits for (the prompt's, the bid's, the offer's) stays under the header.
  const wanted = state.winner ? null : waiting ? (prompt.kind === "auction" ? "auction-panel" : "turn-panel") : offer ? "trade-panel" : null;
  let stuck = 0;
  for (const id of ["turn-panel", "auction-panel", "trade-panel"]) {
    const panel = $(id), here = id === wanted && !panel.hidden;
    panel.classList.toggle("mine", here);
    panel.classList.toggle("stuck", here && panel.offsetHeight < innerHeight * 0.35);
    if (panel.classList.contains("stuck")) stuck = panel.offsetHeight;
  }
  // What is scrolled into view (a focused field, a deed) stops below the header and the panel held under it.
  document.documentElement.style.setProperty("--stuck", stuck + "px");
}

function rollControls(box, prompt) {
  const dice = prompt.dice || 2;
  if (app.session.phone_dice === "software") {
    box.append(el("button", { type: "button", id: "roll-button", on: { click: () => send("/api/roll", made({})) } }, "Roll"));
  } else if (app.session.phone_dice === "manual" || app.session.host) {
    const selects = [];
    for (let i = 0; i < dice; i++) {
      const select = el("select", { "aria-label": `die ${i + 1}` });
      for (let face = 1; face <= 6; face++) select.append(el("option", { value: face }, String(face)));
      selects.push(select);
      box.append(select);
    }
    let cube = null;
    if (prompt.with_cube) {  // magie-1924: the throw after doubles adds the chance cube (5 to 30)
      cube = el("select", { "aria-label": "chance cube" });
      for (let face = 5; face <= 30; face += 5) cube.append(el("option", { value: face }, String(face)));
      box.append(cube);
    }
    const line = () => {
      const roll = { roll: selects.map((s) => Number(s.value)) };
      if (cube) roll.cube = Number(cube.value);
      return roll;
    };
    box.append(el("button", { type: "button", on: { click: () => input(line()) } }, "Enter dice"));
  } else {
    box.append(el("p", { class: "where" }, "Roll on the table (the roller or the ROLL button)."));
  }
}

// ------------------------------------------------------------------ acting
function renderAuction(state) {
  const auction = state.auction, prompt = state.prompt;
  const open = !!auction && prompt && prompt.kind === "auction";
  $("auction-panel").hidden = !open;
  if (!open) return;
  const me = actor();
  const lot = auction.space ? spaceName(auction.space) : `a ${auction.building}`;
  $("auction-text").textContent = `${lot}: ${auction.bidder ? `${auction.bidder} bids ${money(auction.bid)}` : "no bid yet"}` +
    ` · waiting for ${(prompt.waiting || []).filter((n) => n !== auction.bidder).join(", ")}`;  // not the highest bidder
  const bidding = me && (prompt.waiting || []).includes(me);
  $("bid-form").hidden = !bidding;
  const amount = $("bid-amount");
  amount.min = Math.max(auction.bid + 1, auction.minimum || 1);
  if (Number(amount.value) < Number(amount.min)) amount.value = amount.min;
  bidLabel();
  $("pass-button").disabled = auction.bidder === me;
}

const bidLabel = () => { $("bid-button").textContent = "Bid " + money(Number($("bid-amount").value) || 0); };

function renderTrade(state) {
  const me = actor();
  const showPanel = playing(me) && !state.winner && state.players.length > 1 && "cash" in state.players[0];
  $("trade-panel").hidden = !showPanel && !state.trade;
  const offer = $("trade-offer");
  offer.replaceChildren();
  if (state.trade) {
    const t = state.trade;
    const bundle = (b) => [b.cash ? money(b.cash) : null, ...b.spaces.map(spaceName), ...b.cards.map(cardName)].filter(Boolean).join(", ") || "nothing";
    const text = t.loan  // magie-1904: a loan between players is offered and answered like a trade
      ? `${t.from} offers ${t.with} a loan of ${money(t.loan.amount)} at ${money(t.loan.interest)} each wages, on ${t.loan.spaces.map(spaceName).join(", ")}`
        + (t.loan.terms ? ` (terms: ${t.loan.terms})` : "")
      : `${t.from} offers ${t.with}: ${bundle(t.give)} for ${bundle(t.get)}`;
    const box = el("div", { class: "offer" }, el("p", {}, text));
    const buttons = el("div", { class: "actions" });
    if (me === t.with) {
      buttons.append(el("button", { type: "button", on: { click: () => act("accept") } }, "Accept"),
        el("button", { type: "button", class: "secondary", on: { click: () => act("reject") } }, "Reject"));
    } else if (me === t.from) {
      buttons.append(el("button", { type: "button", class: "secondary", on: { click: () => act("reject") } }, "Withdraw"));
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

function fillTradeItems(boxId, owner) {
  const box = $(boxId);
  const p = owner && player(owner);
  const keep = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  box.replaceChildren();
  if (!p) return;
  const cards = (p.cards || []).filter((card) => !card.endsWith("-hidden"));  // another's face-down cards: not askable
  for (const id of deedsOf(app.state, owner).filter((id) => !cards.includes(id))) {  // magie-1924: the card is the deed
    box.append(el("label", {}, el("input", { type: "checkbox", value: "space:" + id, checked: keep.has("space:" + id) }), spaceName(id)));
  }
  for (const card of cards) {
    box.append(el("label", {}, el("input", { type: "checkbox", value: "card:" + card, checked: keep.has("card:" + card) }), cardName(card)));
  }
}

function bundleFrom(boxId, cashId) {
  const picked = [...$(boxId).querySelectorAll("input:checked")].map((i) => i.value);
  return { cash: Number($(cashId).value) || 0, spaces: picked.filter((v) => v.startsWith("space:")).map((v) => v.slice(6)),
    cards: picked.filter((v) => v.startsWith("card:")).map((v) => v.slice(5)) };
}

function renderMine(state) {
  const me = actor();
  // A ruleset with no deeds and no voluntary acts (chambers) has nothing to show here.
  $("mine-panel").hidden = !playing(me) || !app.board || (!(app.board.verbs || []).length && !Object.keys(state.spaces || {}).length);
  if ($("mine-panel").hidden) return;
  // Rebuilt only when what it offers changes: a form half filled in (a loan, the bridge's ends, idle land) must not
  // be reset by another player's roll or by the stream's first state.
  const key = JSON.stringify([me, state.spaces, player(me).cash, player(me).cards, state.prompt, state.trade, state.loans,
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
      space.kind === "street" && !rec.mortgaged && !rec.hotel && button("build", rec.houses === 4 ? "Build hotel" : "Build house", ""),
      (rec.houses || rec.hotel) && button("sell", rec.hotel ? "Sell hotel" : "Sell house"),
      !rec.mortgaged && !rec.houses && !rec.hotel && button("mortgage", "Mortgage"),
      rec.mortgaged && button("unmortgage", "Lift mortgage", ""),
      space.kind === "land" && !rec.improvement && button("improve", "Improve"),  // magie-1924, before the throw
      space.kind === "land" && !rec.sign && button("sign", "Put sign here"),
    ];
    row.append(...offered.filter(Boolean));  // a verb the ruleset lacks gives null: never the text "null"
    box.append(row);
  }
  if (!box.children.length) box.append(el("p", { class: "where" }, "No deeds yet."));
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
    travel.append(el("button", { type: "button", on: { click: () => act("travel", { cards: checks.filter((c) => c.checked).map((c) => c.value) }) } }, "Travel with these cards"));
  }
  const more = $("more-actions");
  more.replaceChildren();
  if (verbs.has("bankrupt")) {
    more.append(el("button", { type: "button", class: "danger", on: { click: () => confirm(`${me}: give up and go bankrupt?`) && act("bankrupt") } }, "Go bankrupt"));
  }
  const other = [...verbs].filter((v) => !KNOWN_VERBS.has(v));
  if (other.length) {
    const verb = el("select", { "aria-label": "action" }, ...other.map((v) => el("option", { value: v }, v)));
    const params = el("input", { "aria-label": "details (JSON)", placeholder: '{"space": "..."}' });
    more.append(verb, params, el("button", { type: "button", on: { click: () => {
      let extra = {};
      try { extra = params.value ? JSON.parse(params.value) : {}; } catch { return notice("details must be JSON"); }
      act(verb.value, extra);
    } } }, "Do"));
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
  if ($("deed-card").open) drawDeed();
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

function bridgePicker(move) {
  // addon: the bridge joins a space of the outer board to one of the inner board (the host, or the player who
  // passed over it with option bridge_moves).
  const { outer, inner, boxes } = bridgeEnds(app.board, "bridge-" + (bridgePicker.made = (bridgePicker.made || 0) + 1));
  return el("div", { class: "actions" }, ...boxes, el("button", { type: "button", class: "secondary", on: {
    click: () => move({ outer: outer.value, inner: inner.value }) } }, "Move the bridge"));
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
        act("sell-idle", { cards: checks.filter((c) => c.checked).map((c) => c.value) }) } }, "Sell these") : "",
      verbs.has("buy-idle") ? el("span", {}, count, el("button", { type: "button", class: "secondary", on: { click: () =>
        act("buy-idle", { count: Number(count.value) }) } }, "Buy idle land")) : ""));
  }
  // magie-1904: bank loans on lots, and repaying one's loans.
  if (verbs.has("borrow")) {
    const lots = deedsOf(state, me).filter((id) => !state.spaces[id].mortgaged);
    const checks = lots.map((id) => el("input", { type: "checkbox", value: id }));
    const note = (state.options && state.options.note) || 100;
    const amount = el("input", { type: "number", min: note, step: note, value: note, "aria-label": "loan amount" });
    if (lots.length) {
      box.append(el("div", { class: "mine-row" }, el("span", {}, "Borrow from the bank on:"),
        ...lots.map((id, i) => el("label", {}, checks[i], " " + spaceName(id))), amount,
        el("button", { type: "button", class: "secondary", on: { click: () =>
          act("borrow", { amount: Number(amount.value), spaces: checks.filter((c) => c.checked).map((c) => c.value) }) } }, "Borrow")));
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
      box.append(el("div", { class: "mine-row" }, el("span", {}, "Lend to"), to, amount, el("span", {}, "interest"), interest,
        el("span", {}, "on"), lots, terms, el("button", { type: "button", class: "secondary", on: { click: () => act("loan", {
          to: to.value, amount: Number(amount.value), interest: Number(interest.value), terms: terms.value,
          spaces: [...lots.querySelectorAll("input:checked")].map((c) => c.value) }) } }, "Offer the loan")));
    }
  }
  if (verbs.has("repay")) {
    for (const loan of (state.loans || []).filter((l) => l.borrower === me)) {
      box.append(el("div", { class: "mine-row" }, el("span", { class: "deed" }, `Loan ${loan.id}: ${money(loan.amount)} from `
        + `${loan.lender === "bank" ? "the bank" : loan.lender}`),
      el("button", { type: "button", class: "secondary", on: { click: () => act("repay", { loan: loan.id }) } }, "Repay")));
    }
  }
}

function renderJoin(state) {
  const wanted = document.body.dataset.view === "join" || (!app.session.player && !app.session.host && document.body.dataset.view !== "host");
  $("join-panel").hidden = !wanted || !!app.session.player;
  const select = $("join-player");
  const names = state.players.filter((p) => !p.bankrupt).map((p) => p.name);
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => el("option", { value: n }, n + (app.session.seats.includes(n) ? " (joined)" : ""))));
  }
}

// ------------------------------------------------------------------ host
function renderHost(state) {
  const view = document.body.dataset.view === "host";
  $("host-panel").hidden = !view && !app.session.host;
  $("pin-form").hidden = app.session.host;
  $("host-tools").hidden = !app.session.host;
  document.body.toggleAttribute("data-host-in", !!app.session.host);  // the logged-in host sees the game first
  if (!app.session.host) return;
  const names = state.players.map((p) => p.name);
  const select = $("act-as");
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
    select.value = [app.actAs, app.session.player].find((n) => names.includes(n)) || names[0];
  }
  app.actAs = select.value;
  const actions = $("host-actions");
  actions.replaceChildren(el("button", { type: "button", class: "secondary", on: { click: () => send("/api/host/undo", made({})) } }, "Undo"));
  const hostVerbs = (app.board && app.board.host_verbs) || [];
  for (const verb of hostVerbs.filter((v) => !HOST_VERBS_WITH_DETAILS.has(v))) {
    const ending = verb === "end-game";
    actions.append(el("button", { type: "button", class: ending ? "danger" : "secondary", on: { click: () =>
      (!ending || confirm("End the game now? The highest total worth wins.")) && input({ act: { player: "host", do: verb } }) } },
    verb === "end-game" ? "End the game (worth)" : verb));
  }
  if (hostVerbs.includes("move-bridge") && app.board) {
    actions.append(bridgePicker((ends) => input({ act: { player: "host", do: "move-bridge", ...ends } })));
  }
  const list = $("host-players");
  list.replaceChildren();
  for (const name of names) {
    const row = el("div", { class: "mine-row" }, el("span", { class: "deed" }, name + (app.session.seats.includes(name) ? " · phone joined" : "")));
    const to = el("input", { "aria-label": `new name for ${name}`, placeholder: "new name" });
    row.append(to, el("button", { type: "button", class: "secondary", on: { click: () => to.value && send("/api/host/rename-player", { player: name, to: to.value.trim() }, "renamed") } }, "Rename"),
      el("button", { type: "button", class: "secondary", on: { click: () => send("/api/host/free-seat", { player: name }, "seat freed").then(loadSession) } }, "Free seat"),
      el("button", { type: "button", class: "danger", on: { click: () => confirm(`Remove ${name}?`) && send("/api/host/remove-player", made({ player: name })) } }, "Remove"));
    if (hostVerbs.includes("send-to-jail")) {  // the landlord's games: a player who refuses a rule goes to jail
      row.append(el("button", { type: "button", class: "secondary", on: { click: () => confirm(`Send ${name} to jail?`)
        && input({ act: { player: "host", do: "send-to-jail", target: name } }) } }, "Send to jail"));
    }
    list.append(row);
  }
}

async function showJoin() {
  const join = await api("/api/host/join");
  const qr = new DOMParser().parseFromString(join.svg, "image/svg+xml").documentElement;
  const renew = el("button", { type: "button", class: "secondary", on: { click: async () => {
    if (confirm("A new join code? The old one stops working; joined phones keep their seats.")
        && await send("/api/host/join-code", {}, "new join code")) await showJoin();
  } } }, "New join code");
  const shown = [];
  if (join.wifi) {  // the table's own Wi-Fi: a phone scans this first, then the page's code
    const wifiQr = new DOMParser().parseFromString(join.wifi.svg, "image/svg+xml").documentElement;
    shown.push(el("p", {}, "1. Join the table's Wi-Fi ", el("span", { class: "code" }, join.wifi.ssid)),
      document.importNode(wifiQr, true),
      el("p", { class: "wifi-password" }, "Password: ", el("span", { class: "code" }, join.wifi.password),
        el("br"), el("span", { class: "where" }, spell(join.wifi.password))),
      el("p", {}, "2. Then open the page:"));
  }
  $("join-show").replaceChildren(...shown, el("p", {}, "Join code: ", el("span", { class: "code" }, join.code)),
    document.importNode(qr, true), el("div", { class: "actions" }, renew));
}

// The NFC reader's cards (docs/table.md, Cards): pick a deed or a player, then tap its tag on the table's reader;
// the reader then asks for the next one, as the OLED's "Register cards" does.
async function showCards(status) {
  const found = status || await api("/api/host/cards").catch(() => null);
  const box = $("host-cards-box");
  box.hidden = !found || !found.reader;
  clearTimeout(showCards.timer);
  if (box.hidden) return;
  const asking = found.asking;
  const pick = async (body, path) => showCards(await send(path, body));
  $("cards-asking").replaceChildren(...(asking
    ? [el("strong", {}, asking.kind === "deeds" ? `Tap the sticker of ${asking.name} on the reader` : `${asking.name}: tap your card on the reader`),
       " ", el("button", { type: "button", class: "secondary", on: { click: () => pick({}, "/api/host/cards/stop") } }, "Stop")]
    : ["Pick a card, then tap its tag on the table's reader. A new tag replaces a lost one."]));
  $("host-cards").replaceChildren(...found.cards.map((c) => el("div", { class: "mine-row card-row", "data-card": c.id },
    el("span", { class: "deed" }, `${c.kind === "players" ? c.name + "'s card" : c.name} · ${c.registered ? "registered" : "no tag yet"}`),
    el("button", { type: "button", class: "secondary", on: { click: () => pick({ kind: c.kind, id: c.id }, "/api/host/cards/register") } },
      c.registered ? "Replace" : "Register"))));
  if (asking) showCards.timer = setTimeout(() => showCards(), 1000);  // each tap moves the reader on
}

// A password read out: each letter and digit by name, the groups apart ("k7mq-..." → "k · seven · m · q, ...").
const DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
function spell(password) {
  return password.split("-").map((group) => [...group].map((ch) =>
    /[0-9]/.test(ch) ? DIGITS[+ch] : /[a-z]/.test(ch) ? ch : /[A-Z]/.test(ch) ? `capital ${ch}` : `"${ch}"`).join(" · "))
    .join(", dash, ");
}

async function hostSetup() {
  await showJoin();
  await showCards();
  const rulesets = await api("/api/host/rulesets");
  app.rulesets = rulesets;
  const select = $("new-ruleset");
  select.replaceChildren(...rulesets.map((r) => el("option", { value: r.id }, r.name)));
  // Each option a labelled field of its own (setup.js), from the board file's option table.
  select.onchange = () => showOptions(rulesets.find((x) => x.id === select.value));
  await select.onchange();
  const games = await api("/api/host/games");
  $("games").replaceChildren(...games.map((g) => el("div", { class: "mine-row" },
    el("span", {}, `#${g.id} ${g.ruleset}: ${g.players.join(", ")} · ${g.inputs} inputs${g.winner ? " · " + g.winner + " won" : ""}`),
    g.problem ? el("span", { class: "where" }, g.problem) : g.current ? el("span", { class: "where" }, "playing now") :
      el("button", { type: "button", class: "secondary", on: { click: () => send("/api/host/resume", { game: g.id }, "resumed").then(refresh) } }, "Resume"))));
}

// ------------------------------------------------------------------ forms
function wire() {
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await send("/api/join", { code: $("join-code").value.trim(), player: $("join-player").value });
    if (result) { notice(`You are ${result.player}`, true); await refresh(); follow(); }  // the stream shows this seat's cards
  });
  $("code-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await send("/api/look", { code: $("table-code").value.trim() })) { await refresh(); follow(); }
  });
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await send("/api/host/login", { pin: $("host-pin").value.trim() });
    $("host-pin").value = "";
    if (result) { await refresh(); await hostSetup(); follow(); }
  });
  $("logout-button").addEventListener("click", async () => { await send("/api/host/logout", {}); await refresh(); });
  $("leave-button").addEventListener("click", async () => {
    if (confirm(`Give up ${app.session.player}'s seat on this phone? Another phone can then join as ${app.session.player}.`)
        && await send("/api/leave", {}, "seat given up")) { await refresh(); follow(); }
  });
  $("act-as").addEventListener("change", () => { app.actAs = $("act-as").value; render(app.state, app.game); });
  $("bid-form").addEventListener("submit", (event) => { event.preventDefault(); act("bid", { amount: Number($("bid-amount").value) }); });
  $("pass-button").addEventListener("click", () => act("pass"));
  $("bid-amount").addEventListener("input", bidLabel);
  $("trade-with").addEventListener("change", () => fillTradeItems("get-items", $("trade-with").value));
  $("trade-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const ok = await act("trade", { with: $("trade-with").value, give: bundleFrom("give-items", "give-cash"), get: bundleFrom("get-items", "get-cash") });
    if (ok) $("trade-new").open = false;
  });
  $("new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const ruleset = app.rulesets.find((r) => r.id === $("new-ruleset").value);
    const setup = { ruleset: ruleset.id, players: playerNames(), options: readOptions(ruleset) };
    if ($("new-seed").value) setup.seed = Number($("new-seed").value);
    if ($("new-progress").open) setup.start = readStart();
    if (await send("/api/host/new-game", { setup }, "new game started")) await refresh();
  });
  $("new-progress").addEventListener("toggle", showProgress);
  $("money-details").addEventListener("toggle", () => app.state && renderMoneyStory(app.state));
  $("money-who").addEventListener("change", () => app.state && renderMoneyStory(app.state));
  $("new-players").addEventListener("change", showProgress);
  $("import-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await send("/api/host/import", { text: $("import-text").value }, "game imported")) await refresh();
  });
  $("export-button").addEventListener("click", async () => {
    const response = await fetch("/api/host/export", { credentials: "same-origin" });
    if (!response.ok) return notice((await response.json()).message);
    const url = URL.createObjectURL(await response.blob());
    const name = (response.headers.get("Content-Disposition") || "").match(/filename="(.+)"/);
    const link = el("a", { href: url, download: name ? name[1] : "game.jsonl" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}

// The header's height, for the prompt's panel that stays under it.
new ResizeObserver(([entry]) => document.documentElement.style.setProperty("--head", entry.target.offsetHeight + "px"))
  .observe(document.querySelector("header"));

async function start() {
  // A join code from the QR code's URL fragment: read it, then remove it from the history at once.
  // A player's own QR code holds their name too: that phone joins as them at once.
  const fragment = new URLSearchParams(location.hash.slice(1));
  const code = fragment.get("code");
  if (code) {
    $("join-code").value = code;
    history.replaceState(null, "", location.pathname);
  }
  wire();
  await refresh();
  const player = fragment.get("player");
  if (code && player && app.session.player !== player
      && await send("/api/join", { code, player }, `You are ${player}`)) await refresh();
  if (app.session.host) await hostSetup();
  if (!app.session.table_code) follow();
}

drawWith(render, refresh);

// The page's state and its stream, for the browser's console (and the tests that drop the stream): a module's
// names are its own, so these two are handed to the window on purpose.
Object.assign(globalThis, { app, follow });

start();
