// This phone's own: the header (its player's cash, and what the table waits for from them, with that panel held
// under it) and the join panel.

import { t } from "./words.js";
import { $, el } from "./dom.js";
import { app, money, player, said } from "./state.js";

// What the header says of a question too long for its line (the question is whole in its panel below).
const SHORT = { roll: () => t("roll the dice"), buy: () => t("buy or not"), auction: () => t("bid or pass"),
  debt: () => t("raise the money"), "income-tax": () => t("pay your income tax"), "use-card": () => t("play a card or not") };

// Me first: once joined, the header holds this player's cash in the largest type, whose turn it is and what the
// table waits for from them; their prompt's panel stays under it while they scroll (if it is not too tall).
export function renderMe(state) {
  const me = app.session && app.session.player, p = me && player(me);
  $("me-cash").hidden = $("me-now").hidden = !p;
  document.body.toggleAttribute("data-me", !!p);
  if (!p) return;
  $("me-cash").textContent = "cash" in p ? money(p.cash) : "";
  const prompt = state.prompt;
  const leading = prompt && prompt.kind === "auction" && state.auction && state.auction.bidder === me;  // nothing to do
  const waiting = prompt && !leading && (prompt.player === me || (prompt.waiting || []).includes(me));
  const offer = state.trade && state.trade.with === me;
  $("me-now").textContent = state.winner ? t("Game over: {player} wins", { player: state.winner }) : p.bankrupt ? t("Out of the game")
    : leading ? t("You lead the auction at {amount}", { amount: money(state.auction.bid) })
    : waiting ? t("Your move: {question}", { question: said(prompt) }) : offer ? t("{player} offers you a trade", { player: state.trade.from })
      : state.turn.player === me ? t("Turn {n}: {player} (you)", { n: state.turn.number, player: state.turn.player })
        : t("Turn {n}: {player}", { n: state.turn.number, player: state.turn.player });
  // One line, the question whole or a shorter sentence: a name is never cut ("Buy St. Charles Pla…"); the question is
  // whole in its panel, held just below.
  if (waiting && $("me-now").scrollWidth > $("me-now").clientWidth) {
    $("me-now").textContent = t("Your move: {question}", { question: SHORT[prompt.kind] ? SHORT[prompt.kind]() : t("see below") });
  }
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

export function renderJoin(state) {
  const wanted = document.body.dataset.view === "join" || (!app.session.player && !app.session.host && document.body.dataset.view !== "host");
  $("join-panel").hidden = !wanted || !!app.session.player;
  const select = $("join-player");
  const names = state.players.filter((p) => !p.bankrupt).map((p) => p.name);
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => el("option", { value: n }, n + (app.session.seats.includes(n) ? " (joined)" : ""))));
  }
}
