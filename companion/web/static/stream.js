// Following the game: the state, the history and the session fetched afresh, the board of the state's ruleset, and
// the live stream: the whole state, then what changed after each input (opened again after the Pi refused it, or
// when a sleeping phone wakes); and drawing each state, every panel on its own (their views are the modules imported
// here; the host's tools, the money views, the auction, the trade's offer and form and a deed's card come with
// import() when they first show).

import { $, app, canTrade, later, patched } from "./state.js";
import { api, loadSession } from "./talk.js";
import { t } from "./words.js";
import { drawBoard, renderTokens } from "./board.js";
import { renderTurn } from "./prompt.js";
import { renderBank, renderPlayers } from "./players.js";
import { redrawDeed, renderMine } from "./deeds.js";
import { renderJoin, renderMe } from "./header.js";
import { renderNow, renderStory } from "./now.js";

// The newest state this page has, which the next change applies to: drawn, or being drawn (a new board may be
// fetched first, while the next change arrives).
const held = { state: null, game: null };
function hold(state, game) {
  if (!held.state || game !== held.game || state.seq >= held.state.seq) Object.assign(held, { state, game });
}

export async function refresh() {
  await loadSession();
  if (app.session.host) await hostTools();  // drawn with the host's tools from the first
  try {
    const state = await api("/api/state");
    hold(state, app.session.game_id);
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

// The live stream comes over the page's websocket (/api/socket: the state, then what changed after each input, and
// this phone's inputs and their replies, talk.js) when it opens; when it cannot (refused, or no websocket on the way),
// over an EventSource (/api/stream), the inputs then POSTed. Either is app.stream, with the same events.
export function follow() {
  clearTimeout(follow.again);
  if (app.stream) app.stream.close();
  if (typeof WebSocket !== "function") return listen(new EventSource("/api/stream"));
  const socket = new Socket();
  socket.addEventListener("refused", () => { if (app.stream === socket) listen(new EventSource("/api/stream")); });
  listen(socket);
}

function listen(stream) {
  app.stream = stream;
  stream.addEventListener("open", () => {
    follow.pause = 0;
    $("live").textContent = t("live");
    $("live").className = "live on";
  });
  stream.addEventListener("error", () => {
    $("live").textContent = t("reconnecting…");
    $("live").className = "live";
    if (stream.readyState === EventSource.CLOSED && app.stream === stream) followAgain();
  });
  // Each event's id is GAME:SEQ, of the state it brings; a delta's changes apply to the state of the event before.
  let before = null;
  stream.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    before = state.seq;
    show(state, Number(event.lastEventId.split(":")[0]));
  });
  stream.addEventListener("delta", (event) => {
    const [game, seq] = event.lastEventId.split(":").map(Number);
    if (before === null) before = held.state && held.state.seq;  // resumed with Last-Event-ID: the state held
    changed(game, seq, { base: before, ops: JSON.parse(event.data) });
    before = seq;
  });
}

// The websocket seen as an EventSource: "open", "state" and "delta" (a frame holds an event's text as the stream
// sends it, its data one line of JSON), "error" once dropped (readyState CLOSED), "refused" if it never opened. Any
// other frame is an input's reply, {id, status, body}.
class Socket extends EventTarget {
  constructor() {
    super();
    this.replies = new Map();
    this.count = 0;
    this.ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/api/socket");
    this.ws.onopen = () => { this.opened = true; this.dispatchEvent(new Event("open")); };
    this.ws.onmessage = (message) => this.received(message.data);
    this.ws.onclose = () => {
      for (const answer of this.replies.values()) answer({ status: 0, body: { message: t("reconnecting…") } });
      this.replies.clear();
      if (!this.shut) this.dispatchEvent(new Event(this.opened ? "error" : "refused"));
    };
  }

  get readyState() { return [0, 1, 2, 2][this.ws.readyState]; }
  get open() { return this.ws.readyState === WebSocket.OPEN; }
  close() { this.shut = true; this.ws.close(); }

  received(text) {
    if (text[0] === "{") {
      const reply = JSON.parse(text);
      this.replies.get(reply.id)?.(reply);
      return this.replies.delete(reply.id);
    }
    const field = (name) => (text.match(new RegExp(`^${name}: ?(.*)$`, "m")) || [])[1];
    const type = field("event");
    if (type === "state" || type === "delta") this.dispatchEvent(new MessageEvent(type, { data: field("data"), lastEventId: field("id") || "" }));
  }

  // An input (POST /api/input's body): its reply's status and body.
  input(body) {
    const id = ++this.count;
    return new Promise((resolve) => {
      this.replies.set(id, resolve);
      this.ws.send(JSON.stringify({ ...body, id }));
    });
  }
}

// A state to show: the board of its ruleset first, a point of the cash history (all of it fetched again for another
// game), then every panel.
async function show(state, game) {
  hold(state, game);
  const newTurn = app.state && app.state.turn.number !== state.turn.number;
  if (!app.board || app.ruleset !== state.ruleset || (app.board.dynamic_links && newTurn)) await loadBoard(state.ruleset);
  if (app.state && game === app.game && state.seq >= app.state.seq) {
    const cash = Object.fromEntries(state.players.filter((p) => "cash" in p).map((p) => [p.name, p.cash]));
    if (!app.history.length || app.history[app.history.length - 1].seq !== state.seq) app.history.push({ seq: state.seq, cash });
  } else if (app.state) {
    app.history = (await api("/api/history")).points;
  }
  render(state, game);
}

// What changed (`{base, ops}`: a stream's delta, or the reply to this phone's input) bringing game `game` to `seq`:
// applied to the state held when made from it, and shown; dropped when the page has it already (the reply and the
// stream each bring it, whichever comes first); else (the page missed an input) the stream is opened anew, which
// sends the whole state. Returns the state at `seq` when the page has it now.
export function changed(game, seq, delta) {
  if (held.state && game === held.game && seq <= held.state.seq) return held.state.seq === seq ? held.state : null;
  if (!held.state || game !== held.game || delta.base !== held.state.seq) {
    follow();
    return null;
  }
  const state = patched(held.state, delta.ops);
  show(state, game);
  return state;
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

// ------------------------------------------------------------------ drawing a state
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
  redrawDeed();
  if (failures.length) setTimeout(() => { throw failures[0]; });
}

// The host's tools (host.js, and setup.js which it imports) come to the host's phone alone, when it first is the host:
// not on every phone's first load (docs/web.md, "The page"). `refresh` waits for them before drawing.
const host = { tools: null, coming: null };
export function hostTools() {
  if (!host.coming) import("./setup.js").catch(() => {});  // host.js imports it: asked at once, not after host.js
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

// The auction's panel comes with auction.js when an auction is first on; the trade's offer and form with trade.js
// when an offer is first on the table or the form first opened (app.js), the panel and its closed form drawn here
// until then. Each is shown once its module has drawn it: never an empty panel meanwhile.
export const auctionView = later(() => import("./auction.js"));
export const tradeView = later(() => import("./trade.js"));
// Drawn after the other panels (its module came meanwhile): the header's held panel (renderMe) follows it then.
const drawLater = (view, draw) => { const now = view.ready(); view((module) => { draw(module); if (!now) renderMe(app.state); }); };
function renderAuction(state) {
  if (state.auction || auctionView.ready()) drawLater(auctionView, (view) => view.renderAuction(state));
  else $("auction-panel").hidden = true;
}
function renderTrade(state) {
  if (state.trade || tradeView.ready()) return drawLater(tradeView, (view) => view.renderTrade(state));
  const shown = canTrade(state);
  $("trade-panel").hidden = !shown;
  $("trade-new").hidden = !shown;
}
