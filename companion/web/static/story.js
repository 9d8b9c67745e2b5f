// The story: the game's log, newest first (in the phone's language: said.log).

import { $, el } from "./dom.js";

export function renderStory(state) {
  $("story").replaceChildren(...[...((state.said && state.said.log) || state.log)].reverse().map((line) => el("li", {}, line)));
}
