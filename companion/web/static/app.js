// The phone page: draws the state of DESIGN.md, follows the live stream, and sends inputs. This is its entry module
// (page.html loads it); the others are listed in docs/web.md. Plain JavaScript modules served as they are, no
// framework, no build step, no external file: the table has no internet.

import { t } from "./words.js";
import { $ } from "./dom.js";
import { app } from "./state.js";
import { drawWith, send } from "./talk.js";
import { render } from "./render.js";
import { changed, follow, refresh } from "./stream.js";
import { wire } from "./forms.js";
import { hostSetup, showNoGame } from "./host.js";

drawWith(render, refresh, changed);

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
      && await send("/api/join", { code, player }, t("You are {player}", { player }))) await refresh();
  if (app.session.host) await hostSetup();
  showNoGame();
  if (!app.session.table_code) follow();
}

// The page's state and its stream, for the browser's console (and the tests that drop the stream): a module's
// names are its own, so these two are handed to the window on purpose.
Object.assign(globalThis, { app, follow });

start();
