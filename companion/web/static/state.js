// What the page knows (the state of DESIGN.md, the board, this phone's session, the cash history: `app`) and what
// it reads from that: names of spaces, cards and colour groups, the players' colours, sums of money, whose deeds,
// and whom this phone acts for; and the DOM helper every view draws with.

import { moneyIn, t } from "./words.js";

// The DOM helper: an element by its id, and new HTML and SVG elements with their attributes, listeners and children.
export const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === "text") node.textContent = value;
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}
export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// The players' colours, seat 1 first: the server's (companion/seats.py), shared with the seat lights.
const COLOURS = JSON.parse(document.body.dataset.colours || '["#adb5bd"]');
export const app = { state: null, board: null, session: null, history: [], ruleset: null, stream: null, actAs: null };

// An amount with the board's symbol, as this phone's language writes it (words.js): "$1500", "1.500 €".
export const money = (n) => moneyIn(n, (app.board && app.board.currency) || "$");
// What an act does to one's cash, signed as on a bank statement: "+$50", "−$110" (a true minus sign).
export const signed = (n) => (n > 0 ? "+" : n < 0 ? "\u2212" : "") + money(Math.abs(n));
// The prompt's question in this phone's language: the server says it (the view's `said`, by the engine's renderer).
export const said = (prompt) => (app.state && app.state.said && prompt === app.state.prompt ? app.state.said.prompt : prompt.text);
export const spaceName = (id) => (app.board && app.board.byId[id] ? app.board.byId[id].name : id);
export const playerColour = (name) => {
  const i = app.state ? app.state.players.findIndex((p) => p.name === name) : -1;
  return COLOURS[(i < 0 ? 0 : i) % COLOURS.length];
};

// The host acts for the player picked in "Act for" (their own seat first, if they joined too); a phone for its seat.
export const actor = () => (!app.session ? null : app.session.host ? app.actAs || app.session.player : app.session.player) || null;

export const player = (name) => app.state.players.find((p) => p.name === name);
// A card as people name it ("Get out of jail free"), from the board data; the id where none is known.
export const cardName = (id) => (app.board && app.board.cards && app.board.cards[id]) || id;
export const deedsOf = (state, name) => Object.entries(state.spaces || {}).filter(([, rec]) => rec.owner === name).map(([id]) => id);
// A colour group or a space's kind in the phone's language (page_vocabulary.py), else its id in words.
const named = (id) => (t(id) !== id ? t(id) : id.replace(/-/g, " ")).replace(/^./, (c) => c.toUpperCase());
export const groupName = (group) => (group ? named(group) : "");

export const kindName = named;
export const sortedDeeds = (state, name) => deedsOf(state, name).sort((a, b) => groupOrder(a).localeCompare(groupOrder(b)));

// Groups in board order (where each group's first space is), the spaces of a group in board order.
function groupOrder(id) {
  const space = app.board && app.board.byId[id];
  if (!space) return id;
  const first = space.group && app.board.groups[space.group] ? app.board.byId[app.board.groups[space.group].spaces[0]] : space;
  const at = (s) => String(app.board.spaces.indexOf(s)).padStart(3, "0");
  return `${at(first)}:${at(space)}`;
}

// What changed (a stream's delta, the reply to an input: companion/web/delta.py), applied: a new state, the one given
// left as it was (the parts on each operation's path are copied), since the views compare the state before an act
// with the one after it. Each operation is [pointer, value] (set), [pointer] (delete) or [pointer, items, drop] (an
// array's first `drop` items go, `items` come at its end); a pointer is RFC 6901's ("/players/0/cash").
export function patched(state, ops) {
  const root = { "": state };
  const copied = new Set([root]);
  for (const [pointer, ...rest] of ops) {
    const keys = ["", ...pointer.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"))];
    let node = root;
    for (const key of keys.slice(0, -1)) {
      let child = node[key];
      if (!copied.has(child)) {
        child = Array.isArray(child) ? child.slice() : { ...child };
        copied.add(child);
        node[key] = child;
      }
      node = child;
    }
    const last = keys[keys.length - 1];
    if (rest.length === 0) delete node[last];
    else if (rest.length === 1) node[last] = rest[0];  // an array's index one past its end appends
    else copied.add(node[last] = node[last].slice(rest[1]).concat(rest[0]));
  }
  return root[""];
}

// A view's key, keys sorted: a patched state and the same state sent whole must not rebuild a panel (dice half chosen).
export const viewKey = (value) => JSON.stringify(value, (_, v) => (v && typeof v === "object" && !Array.isArray(v)
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));

export function playing(name) {  // a seated player still in the game: one out of it is offered no acts
  return !!name && !!player(name) && !player(name).bankrupt;
}

// Whether this phone is offered the trade's form: a seated player in a game of cash with someone to trade with.
export const canTrade = (state) => playing(actor()) && !state.winner && state.players.length > 1 && "cash" in state.players[0];

// A view whose module is imported when it first shows (`load`: a function calling import()), not in the first load
// (docs/web.md, "The page"): `view(draw)` calls `draw` with the module, at once once it has come, else when it comes
// (in the order asked, so the newest state is drawn last; asked again after a failure). `view.ready()`: it has come.
export function later(load) {
  let module = null, coming = null;
  const view = (draw) => {
    if (module) return draw(module);
    coming ||= load().then((loaded) => (module = loaded), (error) => { coming = null; throw error; });
    return coming.then(draw);
  };
  view.ready = () => module !== null;
  return view;
}
