// The host's tools: whom to act for, the host's verbs, the players (rename, free a seat, remove), the join code and
// Wi-Fi as QR codes, the NFC reader's cards, and the set-up of a new, stored or imported game.

import { t } from "./words.js";
import { $, el } from "./dom.js";
import { app } from "./state.js";
import { api, input, loadSession, made, refresh, send } from "./talk.js";
import { bridgePicker } from "./deeds.js";
import { showOptions } from "./setup.js";

const HOST_VERBS_WITH_DETAILS = new Set(["send-to-jail", "move-bridge"]);  // their own controls, with a target

export function renderHost(state) {
  const view = document.body.dataset.view === "host";
  $("host-panel").hidden = !view && !app.session.host;
  $("pin-form").hidden = app.session.host;
  $("host-tools").hidden = !app.session.host;
  document.body.toggleAttribute("data-host-in", !!app.session.host);  // the logged-in host sees the game first
  if (!app.session.host) return;
  const names = state.players.map((p) => p.name);
  const select = $("act-as");
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
    select.value = [app.actAs, app.session.player].find((n) => names.includes(n)) || names[0];
  }
  app.actAs = select.value;
  const actions = $("host-actions");
  actions.replaceChildren(el("button", { type: "button", class: "secondary", on: { click: () => send("/api/host/undo", made({})) } }, t("Undo")));
  const hostVerbs = (!state.winner && app.board && app.board.host_verbs) || [];  // after the game: Undo alone
  for (const verb of hostVerbs.filter((v) => !HOST_VERBS_WITH_DETAILS.has(v))) {
    const ending = verb === "end-game";
    actions.append(el("button", { type: "button", class: ending ? "danger" : "secondary", on: { click: () =>
      (!ending || confirm("End the game now? The highest total worth wins.")) && input({ act: { player: "host", do: verb } }) } },
    verb === "end-game" ? "End the game (worth)" : verb));
  }
  if (hostVerbs.includes("move-bridge") && app.board) {
    actions.append(bridgePicker((ends) => input({ act: { player: "host", do: "move-bridge", ...ends } })));
  }
  const list = $("host-players");
  list.replaceChildren();
  for (const name of names) {
    const row = el("div", { class: "mine-row" }, el("span", { class: "deed" }, name + (app.session.seats.includes(name) ? " · phone joined" : "")));
    const to = el("input", { "aria-label": `new name for ${name}`, placeholder: "new name" });
    row.append(to, el("button", { type: "button", class: "secondary", on: { click: () => to.value && send("/api/host/rename-player", { player: name, to: to.value.trim() }, "renamed") } }, t("Rename")),
      el("button", { type: "button", class: "secondary", on: { click: () => send("/api/host/free-seat", { player: name }, "seat freed").then(loadSession) } }, t("Free seat")),
      el("button", { type: "button", class: "danger", on: { click: () => confirm(`Remove ${name}?`) && send("/api/host/remove-player", made({ player: name })) } }, t("Remove")));
    if (hostVerbs.includes("send-to-jail")) {  // the landlord's games: a player who refuses a rule goes to jail
      row.append(el("button", { type: "button", class: "secondary", on: { click: () => confirm(`Send ${name} to jail?`)
        && input({ act: { player: "host", do: "send-to-jail", target: name } }) } }, t("Send to jail")));
    }
    list.append(row);
  }
}

async function showJoin() {
  const join = await api("/api/host/join");
  const qr = new DOMParser().parseFromString(join.svg, "image/svg+xml").documentElement;
  const renew = el("button", { type: "button", class: "secondary", on: { click: async () => {
    if (confirm("A new join code? The old one stops working; joined phones keep their seats.")
        && await send("/api/host/join-code", {}, "new join code")) await showJoin();
  } } }, t("New join code"));
  const shown = [];
  if (join.wifi) {  // the table's own Wi-Fi: a phone scans this first, then the page's code
    const wifiQr = new DOMParser().parseFromString(join.wifi.svg, "image/svg+xml").documentElement;
    shown.push(el("p", {}, "1. Join the table's Wi-Fi ", el("span", { class: "code" }, join.wifi.ssid)),
      document.importNode(wifiQr, true),
      el("p", { class: "wifi-password" }, "Password: ", el("span", { class: "code" }, join.wifi.password),
        el("br"), el("span", { class: "where" }, spell(join.wifi.password))),
      el("p", {}, "2. Then open the page:"));
  }
  $("pin-shown").textContent = join.pin || "";  // apart from the join screen, which is shown around the table
  $("join-show").replaceChildren(...shown, el("p", {}, "Join code: ", el("span", { class: "code" }, join.code)),
    document.importNode(qr, true), el("div", { class: "actions" }, renew));
}

// The NFC reader's cards (docs/table.md, Cards): pick a deed or a player, then tap its tag on the table's reader;
// the reader then asks for the next one, as the OLED's "Register cards" does.
async function showCards(status) {
  const found = status || await api("/api/host/cards").catch(() => null);
  const box = $("host-cards-box");
  box.hidden = !found || !found.reader;
  clearTimeout(showCards.timer);
  if (box.hidden) return;
  const asking = found.asking;
  const pick = async (body, path) => showCards(await send(path, body));
  $("cards-asking").replaceChildren(...(asking
    ? [el("strong", {}, asking.kind === "deeds" ? `Tap the sticker of ${asking.name} on the reader` : `${asking.name}: tap your card on the reader`),
       " ", el("button", { type: "button", class: "secondary", on: { click: () => pick({}, "/api/host/cards/stop") } }, t("Stop"))]
    : ["Pick a card, then tap its tag on the table's reader. A new tag replaces a lost one."]));
  $("host-cards").replaceChildren(...found.cards.map((c) => el("div", { class: "mine-row card-row", "data-card": c.id },
    el("span", { class: "deed" }, `${c.kind === "players" ? c.name + "'s card" : c.name} · ${c.registered ? "registered" : "no tag yet"}`),
    el("button", { type: "button", class: "secondary", on: { click: () => pick({ kind: c.kind, id: c.id }, "/api/host/cards/register") } },
      c.registered ? "Replace" : "Register"))));
  if (asking) showCards.timer = setTimeout(() => showCards(), 1000);  // each tap moves the reader on
}

// A password read out: each letter and digit by name, the groups apart ("k7mq-..." → "k · seven · m · q, ...").
const DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
function spell(password) {
  return password.split("-").map((group) => [...group].map((ch) =>
    /[0-9]/.test(ch) ? DIGITS[+ch] : /[a-z]/.test(ch) ? ch : /[A-Z]/.test(ch) ? `capital ${ch}` : `"${ch}"`).join(" · "))
    .join(", dash, ");
}

// No game yet (a fresh journal): the host's phone opens the set-up (ruleset, players); another phone says who sets it up.
export function showNoGame() {
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

export async function hostSetup() {
  await showJoin();
  await showCards();
  const rulesets = await api("/api/host/rulesets");
  app.rulesets = rulesets;
  const select = $("new-ruleset");
  select.replaceChildren(...rulesets.map((r) => el("option", { value: r.id }, r.name)));
  // Each option a labelled field of its own (setup.js), from the board file's option table.
  select.onchange = () => showOptions(rulesets.find((x) => x.id === select.value));
  await select.onchange();
  const games = await api("/api/host/games");
  $("games").replaceChildren(...games.map((g) => el("div", { class: "mine-row" },
    el("span", {}, `#${g.id} ${g.ruleset}: ${g.players.join(", ")} · ${g.inputs} inputs${g.winner ? " · " + g.winner + " won" : ""}`),
    g.problem ? el("span", { class: "where" }, g.problem) : g.current ? el("span", { class: "where" }, "playing now") :
      el("button", { type: "button", class: "secondary", on: { click: () => send("/api/host/resume", { game: g.id }, "resumed").then(refresh) } }, t("Resume")))));
}
