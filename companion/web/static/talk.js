// Talking to the Pi: its API, the inputs sent (each naming the game and the state it was made on), what a refusal
// or an act's effect says on the page, and this phone's session.

import { t } from "./words.js";
import { $, el, actor, app, signed, spaceName } from "./state.js";

// Drawing a reply needs every view, and every view acts through this module: the entry module (app.js) hands the
// page's render, refresh and changed (stream.js) here once, so that no module imports one that imports
// it.
const page = { render: () => {}, refresh: async () => {}, changed: () => null };
export function drawWith(render, refresh, changed) { Object.assign(page, { render, refresh, changed }); }
export const render = (state, game) => page.render(state, game);
export const refresh = () => page.refresh();

// After an act, the controls that move money stay inert until the reply is drawn and this long after it, so
// that the second tap of a double tap lands on nothing (never on the opposite act drawn where the first one was).
const CALM_MS = 700;
const MOVING = /^\/api\/(input|roll|host\/(undo|remove-player))$/;
const CALM_SCOPES = ["deed-card", "act-prompt", "mine-panel", "trade-offer", "bid-form", "host-actions", "host-players", "toast"];

// The control a request was sent from (the button tapped, or the form): its refusal is said beside it.
document.addEventListener("click", (event) => { app.origin = event.target.closest && event.target.closest("button"); }, true);
document.addEventListener("submit", (event) => { app.origin = event.target; }, true);

function sayBeside(origin, text) {
  for (const old of document.querySelectorAll(".error[data-error]")) old.remove();  // until the next action
  if (!text) return;
  const anchor = origin && origin.isConnected && (origin.closest("form, .mine-row, .offer, .actions, .row") || origin.parentElement);
  if (!anchor) return notice(text);
  anchor.append(el("p", { class: "error", role: "alert", "data-error": "" }, text));
}

function calm(on) {
  calm.busy = Math.max(0, (calm.busy || 0) + (on ? 1 : -1));  // requests still on their way
  clearTimeout(calm.timer);
  const set = (inert) => CALM_SCOPES.forEach((id) => $(id) && $(id).toggleAttribute("inert", inert));
  if (calm.busy) return set(true);
  calm.timer = setTimeout(() => set(false), CALM_MS);
}

export function notice(text, ok = false) {
  const box = $("notice");
  box.textContent = text;
  box.className = ok ? "notice ok" : "notice";
  box.hidden = !text;
  if (text) clearTimeout(notice.timer), (notice.timer = setTimeout(() => (box.hidden = true), 6000));
}

// ------------------------------------------------------------------ talking to the Pi
export async function api(path, body) {
  if (path === "/api/input" && app.stream && app.stream.open && app.stream.input) return answered(await app.stream.input(body));
  const options = { credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = app.session ? app.session.csrf : "";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = response.headers.get("Content-Type")?.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw failure(response.status, data, response.statusText);
  return data;
}

// A refusal's error: its message (else `text`), its status and its code.
function failure(status, data, text) {
  const error = new Error(data && data.message ? data.message : text);
  error.status = status;
  error.code = data && data.error;
  return error;
}

// An input's reply over the socket (stream.js), as a fetch's: its body, or thrown with its status and code.
function answered(reply) {
  if (reply.status === 200) return reply.body;
  throw failure(reply.status, reply.body, String(reply.status));
}

export async function send(path, body, okText, done) {
  const origin = app.origin;
  app.origin = null;
  sayBeside(null, "");
  const before = app.state;
  const moving = MOVING.test(path);  // an input: money may move
  if (moving) calm(true);
  try {
    const result = await api(path, body);
    // An input's reply is what changed from the state it was made on (the stream brings the same; whichever comes
    // first is drawn); a bare state (new game, resume, import, rename) is of a game whose id the stream or the
    // session tells next.
    const after = result && result.ops ? page.changed(result.game, result.seq, result) : null;
    if (result && result.seq !== undefined && result.players) render(result, null);
    if (okText) notice(okText, true);
    if (done && after) confirmation(done(before, after), before);
    return result;
  } catch (error) {
    sayBeside(origin, error.message);
    if (error.status === 409 || error.code === "csrf") await refresh();
    if (error.status === 401) await loadSession();
    return null;
  } finally {
    if (moving) calm(false);
  }
}

// "Mortgaged Oriental Avenue: +$50" at the foot of the screen (not under the finger), with Undo for the host
// (the engine's undo is the host's: a player's way back is the opposite act, which costs the interest).
function confirmation(text, before) {
  if (!text) return;
  const box = $("toast");
  const undo = app.session && app.session.host && before
    ? el("button", { type: "button", class: "secondary", on: { click: () => { box.hidden = true; send("/api/host/undo", made({})); } } }, t("Undo"))
    : null;
  box.replaceChildren(el("span", {}, text), undo || "");
  box.hidden = false;
  clearTimeout(confirmation.timer);
  confirmation.timer = setTimeout(() => (box.hidden = true), 8000);
}

// What a deed's act did, in words and money, from the states before and after it.
const DONE = { mortgage: () => t("Mortgaged {space}"), unmortgage: () => t("Lifted the mortgage on {space}"),
  improve: () => t("Improved {space}"), sign: () => t("Put a sign on {space}") };
function doneText(verb, id, before, after) {
  const me = actor(), old = before.players.find((p) => p.name === me), now = after.players.find((p) => p.name === me);
  const rec = (after.spaces || {})[id] || {}, was = (before.spaces || {})[id] || {};
  const what = verb === "build" ? (rec.hotel ? t("Built a hotel on {space}") : t("Built a house on {space}"))
    : verb === "sell" ? (was.hotel ? t("Sold the hotel on {space}") : t("Sold a house on {space}"))
      : DONE[verb] ? DONE[verb]() : verb + " {space}";
  const change = old && now && "cash" in now ? now.cash - old.cash : 0;
  const done = what.replace("{space}", spaceName(id));
  return change ? t("{done}: {change}", { done, change: signed(change) }) : done;
}
// Every change names the game and the state it was made on: a new game's first state has seq 0 too.
export const made = (body) => ({ ...body, seq: app.state.seq, ...(app.game != null ? { game: app.game } : {}) });
export const input = (line) => send("/api/input", made({ input: line }));
export const act = (verb, extra = {}) => input({ act: { player: actor(), do: verb, ...extra } });
// A deed's act, confirmed in words and money once the engine took it.
export const deedAct = (verb, id) => send("/api/input", made({ input: { act: { player: actor(), do: verb, space: id } } }), null,
  (before, after) => doneText(verb, id, before, after));

export async function loadSession() {
  app.session = await api("/api/session");
  $("who").textContent = app.session.host ? t("host") + (app.session.player ? " · " + app.session.player : "")
    : app.session.player || "";
  $("leave-button").hidden = !app.session.player;
  $("leave-button").textContent = app.session.player ? t("Leave {player}'s seat", { player: app.session.player }) : t("Leave seat");
  $("code-panel").hidden = !app.session.table_code;
  return app.session;
}
