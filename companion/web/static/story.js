// The story: the game's log, newest first.

import { $, el } from "./dom.js";

export function renderStory(state) {
  $("story").replaceChildren(...[...state.log].reverse().map((line) => el("li", {}, line)));
}
