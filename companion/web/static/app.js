// The phone page: draws the state of DESIGN.md, follows the live stream, and sends inputs. This is its entry module
// (page.html loads it); the others are listed in docs/web.md. Plain JavaScript modules served as they are, no
// framework, no build step, no external file: the table has no internet.

import { $, app } from "./state.js";
import { act, drawWith, notice, send } from "./talk.js";
import { t } from "./words.js";
import { auctionView, changed, follow, hostTools, refresh, render, renderMoney, tradeView } from "./stream.js";

drawWith(render, refresh, changed);

// The header's height, for the prompt's panel that stays under it.
new ResizeObserver(([entry]) => document.documentElement.style.setProperty("--head", entry.target.offsetHeight + "px"))
  .observe(document.querySelector("header"));

// No game yet (a fresh journal): the host's phone opens the set-up (ruleset, players); another phone says who sets it up.
function showNoGame() {
  if (app.session.game) return;
  const host = app.session.host;
  $("host-panel").hidden = !host && document.body.dataset.view !== "host";
  $("pin-form").hidden = host;
  $("host-tools").hidden = !host;
  $("turn").textContent = t("No game yet");
  $("prompt").textContent = host ? "Set up the game below: the ruleset, then the players, then Start." : "The host sets up a game.";
  if (host) {
    $("new-game").open = true;
    $("new-game").scrollIntoView({ block: "start" });
  }
}

// The page's forms and buttons that stay (join, table code, host PIN, bid, trade, money story), wired once; the
// host's own are wired by host.js when it comes.
function wire() {
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await send("/api/join", { code: $("join-code").value.trim(), player: $("join-player").value });
    if (result) { notice(t("You are {player}", { player: result.player }), true); await refresh(); follow(); }  // the stream shows this seat's cards
  });
  $("code-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await send("/api/look", { code: $("table-code").value.trim() })) { await refresh(); follow(); }
  });
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await send("/api/host/login", { pin: $("host-pin").value.trim() });
    $("host-pin").value = "";
    if (result) { await refresh(); await (await hostTools()).hostSetup(); showNoGame(); follow(); }
  });
  $("leave-button").addEventListener("click", async () => {
    if (confirm(t("Give up {player}'s seat on this phone? Another phone can then join as {player}.", { player: app.session.player }))
        && await send("/api/leave", {}, t("seat given up"))) { await refresh(); follow(); }
  });
  // The phone's language: the page again in it, kept in this phone's session with its seat (docs/languages.md).
  $("language").addEventListener("change", (event) => { location.search = "?lang=" + encodeURIComponent(event.target.value); });
  $("bid-form").addEventListener("submit", (event) => { event.preventDefault(); act("bid", { amount: Number($("bid-amount").value) }); });
  $("pass-button").addEventListener("click", () => act("pass"));
  $("bid-amount").addEventListener("input", () => auctionView((view) => view.bidLabel()));
  // The trade's form, first opened: shown once trade.js has come and filled it.
  $("trade-new").querySelector("summary").addEventListener("click", () => {
    if (tradeView.ready() || !app.state || $("trade-new").open) return;
    $("trade-form").hidden = true;
    tradeView((view) => { view.renderTrade(app.state); $("trade-form").hidden = false; });
  });
  $("trade-with").addEventListener("change", () => tradeView((view) => view.fillTradeItems("get-items", $("trade-with").value)));
  $("trade-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { bundleFrom } = await tradeView((view) => view);
    const ok = await act("trade", { with: $("trade-with").value, give: bundleFrom("give-items", "give-cash"), get: bundleFrom("get-items", "get-cash") });
    if (ok) $("trade-new").open = false;
  });
  $("money-details").addEventListener("toggle", () => app.state && renderMoney(app.state));
  $("money-who").addEventListener("change", () => app.state && renderMoney(app.state));
}

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
  if (app.session.host) await (await hostTools()).hostSetup();
  showNoGame();
  if (!app.session.table_code) follow();
}

// The page's state and its stream, for the browser's console (and the tests that drop the stream): a module's
// names are its own, so these two are handed to the window on purpose.
Object.assign(globalThis, { app, follow });

start();
