// The phone page: draws the state of DESIGN.md, follows the live stream, and sends inputs. This is its entry module
// (page.html loads it). Plain JavaScript modules served as they are, no framework, no build step, no external file:
// the table has no internet.

import { $, el } from "./dom.js";
import { app } from "./state.js";
import { act, api, drawWith, loadSession, notice, send } from "./talk.js";
import { renderGameOver, renderMoneyStory } from "./money.js";
import { playerNames, readOptions, readStart, showProgress } from "./setup.js";
import { renderHost, hostSetup } from "./host.js";
import { renderTurn } from "./prompt.js";
import { renderBank, renderPlayers } from "./players.js";
import { renderStory } from "./story.js";
import { drawBoard, renderTokens } from "./board.js";
import { bidLabel, renderAuction } from "./auction.js";
import { bundleFrom, fillTradeItems, renderTrade } from "./trade.js";
import { renderMine } from "./deeds.js";
import { renderJoin, renderMe } from "./header.js";
import { drawDeed } from "./deedcard.js";

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
