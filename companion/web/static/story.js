// The story: the game's log, newest first; in this phone's language when the server says it (the view's `said.log`).

import { $, el } from "./dom.js";

export function renderStory(state) {
  const lines = (state.said && state.said.log) || state.log;
  $("story").replaceChildren(...[...lines].reverse().map((line) => el("li", {}, line)));
}
