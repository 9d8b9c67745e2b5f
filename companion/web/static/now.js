// "Just now", at the top of every view: the last input's story as a person at the table tells it, from the state
// view's `just_now` (companion/web/just_now.py, made from the engine's events): the dice drawn as dice with their
// total, each move in large type to the destination's printed name, a drawn card as a card, each payment as
// "Ann → Cleo $50 rent", each hand-over in the engine's words. It stays until the next input; the story stays below:
// the game's log, newest first.

import { $, el, svg, money, playerColour, viewKey } from "./state.js";

const SHOWN = 6;  // lines shown at once: the rest behind "more", so the question below stays in the first screen
// Where each die's pips sit, as [column, row] of a 3x3 grid.
const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

export function renderNow(state) {
  const story = state.just_now, box = $("now");
  const lines = (story && story.lines) || [];
  $("now-panel").hidden = !lines.length;
  const key = viewKey(story || null);
  if (box.dataset.key === key) return;  // the same input's story: nothing to redraw (another phone's join)
  box.dataset.key = key;
  const drawn = lines.map(line);
  const more = drawn.splice(SHOWN);
  box.replaceChildren(...drawn, more.length
    ? el("details", { class: "now-more" }, el("summary", {}, `${more.length} more`), ...more) : "");
}

function line(item) {
  const who = item.player ? el("span", { class: "now-who" }, item.player) : "";
  if (who) who.style.setProperty("--pc", playerColour(item.player));
  switch (item.kind) {
    case "dice":
      return el("div", { class: "now-dice", "data-now": "dice", role: "img", "aria-label": item.text }, who,
        ...item.dice.map(die), el("span", { class: "total" }, String(item.total)),
        item.cube ? el("span", { class: "cube" }, `cube ${item.cube}`) : "");
    case "move":
      return el("div", { class: "now-move", "data-now": "move" },
        el("p", { class: "big" }, who, " \u2192 ", el("strong", {}, item.to)),
        item.via ? el("p", { class: "via" }, `${item.by === "bridge" ? "Cross the bridge" : "Take the elevator"}: `
          + item.via.map(([from, to]) => `${from} \u2192 ${to}`).join(", then ")) : "");
    case "card":
      return el("figure", { class: "now-card", "data-now": "card", "data-deck": item.deck }, el("figcaption", {}, item.deck + (item.player ? ` · ${item.player}` : "")),
        el("p", {}, item.card || item.text));
    case "pay":
      return el("p", { class: "now-pay", "data-now": "pay" }, capital(item.from), " \u2192 ", item.to, " ",
        el("strong", {}, money(item.amount)), item.for ? " " + item.for : "");
    case "hand":
      return el("p", { class: "now-hand", "data-now": "hand" }, item.text);
    case "news":
      return el("p", { class: "now-news", "data-now": "news" }, item.text);
    default:
      return el("p", { class: "now-say", "data-now": "say" }, item.text);
  }
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);  // "the bank" opening a line

function die(face) {
  const drawn = svg("svg", { class: "die", viewBox: "0 0 30 30", "aria-hidden": "true", "data-face": face });
  drawn.append(svg("rect", { x: 1, y: 1, width: 28, height: 28, rx: 5 }));
  for (const [col, row] of PIPS[face] || []) drawn.append(svg("circle", { cx: 7 + col * 8, cy: 7 + row * 8, r: 2.6 }));
  if (!PIPS[face]) {  // not a die's face: its number
    const text = svg("text", { x: 15, y: 20, "text-anchor": "middle" });
    text.textContent = String(face);
    drawn.append(text);
  }
  return drawn;
}

// The story: the game's log, newest first (in the phone's language: said.log).
export function renderStory(state) {
  $("story").replaceChildren(...[...((state.said && state.said.log) || state.log)].reverse().map((line) => el("li", {}, line)));
}
