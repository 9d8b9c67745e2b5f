// Drawing a state: every panel, each on its own (their views are the modules imported here, and the host's tools,
// host.js, once this phone is the host).

import { $ } from "./dom.js";
import { app } from "./state.js";
import { renderTurn } from "./prompt.js";
import { renderBank, renderPlayers } from "./players.js";
import { renderStory } from "./story.js";
import { renderTokens } from "./board.js";
import { renderAuction } from "./auction.js";
import { renderTrade } from "./trade.js";
import { renderMine } from "./deeds.js";
import { renderJoin, renderMe } from "./header.js";
import { drawDeed } from "./deedcard.js";
import { renderNow } from "./now.js";

// `game` is the id of the state's game (null: not known yet). Only an older state of the game shown is dropped (an
// input's reply arriving after the stream's next state): another game always replaces it, even one of the same
// ruleset and players, whose first state has seq 0 too.
export function render(state, game) {
  if (app.state && game != null && game === app.game && state.seq < app.state.seq) return;
  app.state = state;
  app.game = game;
  document.body.dataset.seq = state.seq;
  // Each panel on its own: one that fails must not leave the join, host or prompt panels undrawn (the error is
  // still thrown, after the others, so that it is seen).
  const failures = [];
  // The host panel first: it sets whom the host acts for, which the prompt, auction, trade and deed panels read.
  // renderMe last: it holds under the header the panel the table waits on, once that panel is drawn.
  for (const panel of [renderHost, renderNow, renderTurn, renderMoney, renderPlayers, renderBank, renderStory, renderTokens,
    renderAuction, renderTrade, renderMine, renderJoin, renderMe]) {
    try { panel(state); } catch (error) { failures.push(error); }
  }
  if ($("deed-card").open) drawDeed();
  if (failures.length) setTimeout(() => { throw failures[0]; });
}

// The host's tools (host.js, and setup.js which it imports) come to the host's phone alone, when it first is the host:
// not on every phone's first load (docs/web.md, "The page"). `refresh` waits for them before drawing.
const host = { tools: null, coming: null };
export function hostTools() {
  host.coming ||= import("./host.js").then((tools) => {
    tools.wire();
    return (host.tools = tools);
  }, (error) => {
    host.coming = null;  // asked again next time
    throw error;
  });
  return host.coming;
}

// The host's panel: on /host, the PIN's form; once this phone is the host, its tools instead.
function renderHost(state) {
  const on = !!app.session.host;
  $("host-panel").hidden = document.body.dataset.view !== "host" && !on;
  $("pin-form").hidden = on;
  $("host-tools").hidden = !on;
  document.body.toggleAttribute("data-host-in", on);  // the logged-in host sees the game first
  if (!on) return;
  if (host.tools) host.tools.renderHost(state);
  else hostTools().then(() => render(app.state, app.game));
}

// The money story, once opened, and the game's end come to few loads: money.js is imported when either first shows.
const moneyViews = () => import("./money.js");
export function renderMoney(state) {
  $("over-panel").hidden = !state.winner;
  $("money-panel").hidden = !state.players.some((p) => "cash" in p);
  if (state.winner) moneyViews().then((views) => views.renderGameOver(state));
  if (!$("money-panel").hidden && $("money-details").open) moneyViews().then((views) => views.renderMoneyStory(state));
}
