// A deed's card: the title deed as printed, with who owns it, what stands on it, who is there, and the acts its owner
// may take on it now. Imported when a deed is first opened (deeds.js: openDeed).

import { nt, t } from "./words.js";
import { $, el, actor, app, groupName, kindName, signed, spaceName } from "./state.js";
import { deedAct } from "./talk.js";

// A space's card, opened from a chip or by a tap on the board.
export function openDeed(id) {
  const dialog = $("deed-card");
  dialog.dataset.space = id;
  drawDeed();
  if (!dialog.open) dialog.showModal();
}

export function drawDeed() {
  const dialog = $("deed-card"), id = dialog.dataset.space;
  const space = app.board && app.board.byId[id];
  if (!space || !app.state) return;
  const printed = (app.board.deeds || {})[id] || { lines: [], notes: [] };
  const rec = (app.state.spaces || {})[id];
  const band = el("div", { class: "band" }, el("h2", { id: "deed-title" }, space.name),
    space.group ? el("p", { class: "group" }, t("{group} group", { group: t(space.group) !== space.group ? t(space.group) : groupName(space.group) })) : null);
  if (space.colour) band.style.setProperty("--gc", space.colour);
  const rows = printed.lines.map(([label, value]) => el("tr", {}, el("th", { scope: "row" }, label), el("td", {}, value)));
  const status = [];
  if (rec) {
    status.push(rec.owner ? t("Owner: {player}", { player: rec.owner }) : t("Owner: nobody yet (the bank's)"));
    if (rec.hotel) status.push(t("A hotel"));
    else if (rec.houses) status.push(nt("{n} house", "{n} houses", rec.houses));
    if (rec.mortgaged) status.push(t("Mortgaged"));
    if (rec.improvement) status.push(t("Improved"));
    if (rec.sign) status.push(t("No trespassing"));
  }
  const here = app.state.players.filter((p) => p.space === id && !p.bankrupt).map((p) => p.name);
  if (here.length) status.push(t("Here: {players}", { players: here.join(", ") }));
  const acts = el("div", { class: "actions" });
  const judged = app.acts && app.acts.player === actor() && !app.state.winner ? app.acts : null;  // none after the game
  if (judged && rec && rec.owner === actor()) {
    judged.acts.forEach((a, i) => {
      if (a.space !== id || !couldEver(a.do, space)) return;
      const label = verbLabel(a.do, id);
      acts.append(el("button", { type: "button", class: "secondary", "data-verb": a.do, on: { click: () => deedAct(a.do, id) } },
        label + (judged.cash[i] ? " " + signed(judged.cash[i]) : "")));
    });
    for (const { act: a, why } of judged.refused.filter((r) => r.act.space === id && couldEver(r.act.do, space))) {
      acts.append(el("p", { class: "why", "data-why": a.do }, `${verbLabel(a.do, id)}: ${why.includes(": ") ? why.slice(why.indexOf(": ") + 2) : why}`));
    }
  }
  dialog.replaceChildren(band,
    rows.length ? el("table", { class: "printed" }, el("tbody", {}, ...rows)) : el("p", { class: "where" }, kindName(space.kind)),
    ...printed.notes.map((n) => el("p", { class: "note" }, n)),
    status.length ? el("p", { class: "status" }, status.join(" · ")) : null,
    acts,
    el("form", { method: "dialog" }, el("button", { class: "secondary", autofocus: true }, t("Close"))));
}

// Buildings stand on streets, improvements and signs on land: a railroad's card never says "Build: ... not a street".
const ONLY_ON = { build: "street", sell: "street", improve: "land", sign: "land" };
const couldEver = (verb, space) => !ONLY_ON[verb] || ONLY_ON[verb] === space.kind;

const VERB_LABELS = { build: t("Build"), sell: t("Sell a building"), mortgage: t("Mortgage"), unmortgage: t("Lift mortgage"),
  improve: t("Improve"), sign: t("Put sign here") };
// A deed's act as its row's button says it ("Build hotel", "Sell house"), else in general words.
const verbLabel = (verb, id) => {
  const button = $("mine").querySelector(`[data-deed="${CSS.escape(id)}"] [data-verb="${CSS.escape(verb)}"]`);
  return (button && button.dataset.label) || VERB_LABELS[verb] || verb;
};
