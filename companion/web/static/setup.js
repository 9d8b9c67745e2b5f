// The host's set-up forms: a new game's options, each a labelled field built from the board file's option table
// (/api/host/rulesets' fields: type, range, choices, default, one line), and a game in progress entered per player
// and per deed.

import { t } from "./words.js";
import { $, el } from "./dom.js";
import { groupName } from "./state.js";
import { api } from "./talk.js";

const setup = { board: null, ruleset: null };
const words = (name) => name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

// A select of the board's spaces (those `keep` says), with "none" first when `none` names it.
function spaceSelect(board, keep, attrs, none) {
  const options = board.spaces.filter(keep).map((s) => el("option", { value: s.id }, s.name));
  return el("select", attrs, ...(none ? [el("option", { value: "" }, none)] : []), ...options);
}

// addon's bridge: a space of the outer board and one of the inner board, each with its visible label.
export function bridgeEnds(board, prefix, none) {
  const outerTrack = board.spaces[0].track;
  const end = (which) => {
    const id = `${prefix}-${which}`;
    const select = spaceSelect(board, (s) => (which === "outer") === (s.track === outerTrack), { id }, none);
    return { select, box: el("span", { class: "end" }, el("label", { for: id }, which === "outer" ? "Outer end" : "Inner end"), select) };
  };
  const outer = end("outer"), inner = end("inner");
  return { outer: outer.select, inner: inner.select, boxes: [outer.box, inner.box] };
}

function optionField(field, board) {
  const id = "opt-" + field.name, hint = el("p", { class: "hint", id: id + "-hint" }, field.description);
  const label = el("label", { for: id }, words(field.name));
  const common = { id, "data-option": field.name, "aria-describedby": id + "-hint" };
  let control;
  if (field.type === "boolean") {
    control = el("input", { ...common, type: "checkbox", checked: field.default || null });
    return el("div", { class: "field check" }, el("label", { for: id }, control, " " + words(field.name)), hint);
  } else if (field.type === "choice") {
    control = el("select", common, ...field.choices.map((c) => el("option", { value: c }, String(c).replace(/_/g, " "))));
    control.value = field.default;
  } else if (field.type === "number") {
    control = el("input", { ...common, type: "number", inputmode: "numeric", step: 1, min: field.min, max: field.max < 1e7 ? field.max : null,
      value: field.default, required: true });
  } else if (field.type === "space" && board) {
    control = spaceSelect(board, () => true, common, "none");
    control.value = field.default || "";
  } else if (field.type === "bridge" && board) {
    const ends = bridgeEnds(board, id, "none");
    [ends.outer.value, ends.inner.value] = field.default.length ? field.default : ["", ""];
    const box = el("fieldset", { class: "field", "data-option": field.name, "data-bridge": "" }, el("legend", {}, words(field.name)),
      ...ends.boxes, hint);
    return box;
  } else {
    control = el("input", { ...common, value: field.default });
  }
  return el("div", { class: "field" }, label, control, hint);
}

// A preset ("Official short game") as one checkbox: ticking it sets its options' fields, clearing it puts them back.
function presetField(preset) {
  const id = "preset-" + preset.id, name = preset.text.split(":")[0];
  const box = el("input", { id, type: "checkbox", "data-preset": preset.id, "aria-describedby": id + "-hint" });
  box.addEventListener("change", () => {
    for (const [option, value] of Object.entries(preset.options)) {
      const field = setup.ruleset.fields.find((f) => f.name === option);
      const control = document.querySelector(`#new-options [data-option="${CSS.escape(option)}"]`);
      if (!field || !control) continue;
      const shown = box.checked ? value : field.default;
      if (field.type === "boolean") control.checked = shown; else control.value = shown;
    }
  });
  return el("div", { class: "field check" }, el("label", { for: id }, box, " " + name),
    el("p", { class: "hint", id: id + "-hint" }, preset.text.slice(name.length + 1).trim()));
}

// The options as the setup's `options`: only those changed from their defaults.
export function readOptions(ruleset) {
  const options = {};
  for (const field of ruleset.fields) {
    const box = document.querySelector(`#new-options [data-option="${CSS.escape(field.name)}"]`);
    if (!box) continue;
    let value;
    if (field.type === "bridge") {
      const [outer, inner] = box.querySelectorAll("select");
      value = outer.value && inner.value ? [outer.value, inner.value] : [];
    } else if (field.type === "boolean") value = box.checked;
    else if (field.type === "number") value = Number(box.value);
    else if (field.type === "choice") value = field.choices.find((c) => String(c) === box.value);
    else value = box.value;
    if (JSON.stringify(value) !== JSON.stringify(field.default)) options[field.name] = value;
  }
  return options;
}

export async function showOptions(ruleset) {
  setup.ruleset = ruleset;
  setup.board = await api("/api/board?ruleset=" + encodeURIComponent(ruleset.id));
  $("new-ruleset-name").textContent = `${ruleset.name} · ${ruleset.players[0]} to ${ruleset.players[1]} players`;
  $("new-options").replaceChildren(el("legend", {}, t("Options")), ...(ruleset.presets || []).map(presetField),
    ...ruleset.fields.map((f) => optionField(f, setup.board)));
  if (!ruleset.fields.length) $("new-options").append(el("p", { class: "hint" }, t("This ruleset has no options.")));
  showProgress();
}

// ------------------------------------------------------------------ a game in progress
export const playerNames = () => $("new-players").value.split(",").map((s) => s.trim()).filter(Boolean);
const BUILDINGS = [["", "no buildings"], ["1", "1 house"], ["2", "2 houses"], ["3", "3 houses"], ["4", "4 houses"], ["hotel", "a hotel"]];

export function showProgress() {
  const box = $("new-start");
  if (!setup.board || !$("new-progress").open) return box.replaceChildren();
  const board = setup.board, names = playerNames(), kept = readStart(true);
  const start = (setup.ruleset.options.start_cash) || 0;
  const people = names.map((name, i) => {
    const id = `start-${i}`;
    const cash = el("input", { id: id + "-cash", type: "number", min: 0, step: 1, inputmode: "numeric", "data-cash": name,
      value: kept.players[name] ? kept.players[name].cash : start });
    const where = spaceSelect(board, () => true, { id: id + "-space", "data-space-of": name });
    where.value = kept.players[name] ? kept.players[name].space : board.spaces[0].id;
    const held = new Set(kept.players[name] ? kept.players[name].cards || [] : []);
    const cards = setup.ruleset.kept_cards.length ? el("select", { id: id + "-cards", multiple: true, size: 4, "data-cards-of": name },
      ...setup.ruleset.kept_cards.map((c) => el("option", { value: c, selected: held.has(c) || null }, (board.cards || {})[c] || c))) : null;
    return el("fieldset", { class: "field", "data-player": name }, el("legend", {}, name),
      el("label", { for: id + "-cash" }, "Cash $"), cash, el("label", { for: id + "-space" }, t("On the space")), where,
      cards ? el("label", { for: id + "-cards" }, t("Cards in hand (several: hold Ctrl, or tap each on a phone)")) : null, cards);
  });
  const groups = new Map();
  for (const space of board.spaces.filter((s) => s.ownable)) {
    groups.set(space.group || "", [...(groups.get(space.group || "") || []), space]);
  }
  const deeds = [...groups].map(([group, spaces]) => el("fieldset", { class: "field deeds-in" },
    colouredLegend(group ? groupName(group) : "Others", spaces[0].colour),
    ...spaces.map((space) => {
      const id = `deed-${space.id}`, was = kept.spaces[space.id] || {};
      const owner = el("select", { id: id + "-owner", "data-owner": space.id, "aria-label": `${space.name}: owner` },
        el("option", { value: "" }, "nobody"), ...names.map((n) => el("option", { value: n }, n)));
      owner.value = was.owner || "";
      const row = el("div", { class: "deed-row" }, el("label", { for: id + "-owner" }, space.name), owner);
      if (space.kind === "street") {
        const built = el("select", { "data-built": space.id, "aria-label": `${space.name}: buildings` },
          ...BUILDINGS.map(([v, t]) => el("option", { value: v }, t)));
        built.value = was.hotel ? "hotel" : was.houses ? String(was.houses) : "";
        row.append(built);
      }
      const mortgaged = el("input", { type: "checkbox", id: id + "-m", "data-mortgaged": space.id, checked: was.mortgaged || null });
      row.append(el("label", { for: id + "-m", class: "inline" }, mortgaged, " mortgaged"));
      return row;
    })));
  box.replaceChildren(...people, el("h4", {}, t("Deeds, by colour group")), ...deeds);
}

function colouredLegend(text, colour) {
  const legend = el("legend", { class: "group-name" }, text);
  legend.style.setProperty("--gc", colour || "#777");  // (CSSOM: the page's policy refuses style attributes)
  return legend;
}

// The setup's `start`: each player's cash and space, each owned deed's owner, buildings and mortgage.
export function readStart(partial = false) {
  const start = { players: {}, spaces: {} };
  for (const fieldset of document.querySelectorAll("#new-start [data-player]")) {
    const player = { cash: Number(fieldset.querySelector("[data-cash]").value), space: fieldset.querySelector("[data-space-of]").value };
    const cards = fieldset.querySelector("[data-cards-of]");
    if (cards && cards.selectedOptions.length) player.cards = [...cards.selectedOptions].map((o) => o.value);
    start.players[fieldset.dataset.player] = player;
  }
  for (const owner of document.querySelectorAll("#new-start [data-owner]")) {
    if (!owner.value && !partial) continue;
    const id = owner.dataset.owner, deed = { owner: owner.value || null };
    const built = document.querySelector(`#new-start [data-built="${CSS.escape(id)}"]`);
    if (built && built.value === "hotel") deed.hotel = true;
    else if (built && built.value) deed.houses = Number(built.value);
    if (document.querySelector(`#new-start [data-mortgaged="${CSS.escape(id)}"]`).checked) deed.mortgaged = true;
    start.spaces[id] = deed;
  }
  return start;
}
