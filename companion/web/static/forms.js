// The page's forms and buttons that stay (join, table code, host PIN, bid, trade, new game, import, export...),
// wired once.

import { t } from "./words.js";
import { $, el } from "./dom.js";
import { app } from "./state.js";
import { act, notice, send } from "./talk.js";
import { follow, refresh } from "./stream.js";
import { render } from "./render.js";
import { hostSetup, showNoGame } from "./host.js";
import { bidLabel } from "./auction.js";
import { bundleFrom, fillTradeItems } from "./trade.js";
import { renderMoneyStory } from "./money.js";
import { playerNames, readOptions, readStart, showProgress } from "./setup.js";

export function wire() {
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
    if (result) { await refresh(); await hostSetup(); showNoGame(); follow(); }
  });
  $("logout-button").addEventListener("click", async () => { await send("/api/host/logout", {}); await refresh(); });
  // The phone's language: the page again in it, kept in this phone's session with its seat (docs/languages.md).
  $("language").addEventListener("change", (event) => { location.search = "?lang=" + encodeURIComponent(event.target.value); });
  $("leave-button").addEventListener("click", async () => {
    if (confirm(t("Give up {player}'s seat on this phone? Another phone can then join as {player}.", { player: app.session.player }))
        && await send("/api/leave", {}, t("seat given up"))) { await refresh(); follow(); }
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
    const going = app.session.game && app.state && !app.state.winner && app.state.seq > 0;  // one under way: asked first
    if (going && !confirm(t("A game is in progress (turn {n}). Start a new one? This one stays under Stored games.", { n: app.state.turn.number }))) return;
    const ruleset = app.rulesets.find((r) => r.id === $("new-ruleset").value);
    const setup = { ruleset: ruleset.id, players: playerNames(), options: readOptions(ruleset) };
    if ($("new-seed").value) setup.seed = Number($("new-seed").value);
    if ($("new-progress").open) setup.start = readStart();
    if (await send("/api/host/new-game", { setup }, t("new game started"))) await refresh();
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
