// The page's words in this phone's language (docs/languages.md): the `page` catalogue the server put in the page
// (body's data-words: msgid to its text), filled in by name ("{player} pays {amount}"); plural forms chosen by the
// browser's Intl.PluralRules in the catalogue's order; money written as the phone's language writes it, with the
// board's own symbol. English has no catalogue: the msgids are its words, and money is "$1500" as the table says it.

const W = JSON.parse(document.body.dataset.words || "{}");
const MESSAGES = W.messages || {};
const MONEY = W.money || { before: "¤", after: "", group: "", decimal: "." };
const PLURAL = W.plural || ["one", "other"];
const rules = new Intl.PluralRules(W.lang || "en");

export const language = W.lang || "en";
export const languages = W.languages || [["en", "English"]];

const fill = (text, args) => (args ? text.replace(/\{(\w+)\}/g, (all, name) => (name in args ? String(args[name]) : all)) : text);

// A msgid in this phone's language, its {placeholders} filled from `args` (already said: names, money).
export const t = (msgid, args) => fill(typeof MESSAGES[msgid] === "string" ? MESSAGES[msgid] : msgid, args);

// The form for `n` ({n} is filled with it, as the language writes numbers).
export function nt(singular, plural, n, args) {
  const forms = MESSAGES[singular];
  let text;
  if (Array.isArray(forms)) text = forms[Math.max(0, PLURAL.indexOf(rules.select(n)))] || forms[forms.length - 1];
  else text = n === 1 ? singular : plural;
  return fill(text, { n: number(n), ...(args || {}) });
}

// A whole number as the language groups it ("1.500"); English as the table writes it ("1500").
export function number(n) {
  const digits = String(Math.abs(Math.trunc(n)));
  const grouped = MONEY.group ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, MONEY.group) : digits;
  return (n < 0 ? "-" : "") + grouped;
}

// An amount with the board's symbol where the language puts it: "$1500", "1.500 €", "1 500 £".
export const moneyIn = (n, currency) => MONEY.before.replace("¤", currency) + number(n) + MONEY.after.replace("¤", currency);

// An engine message (an event's or a prompt's `msg` and `args`, DESIGN.md) in this phone's language: each argument
// said by its placeholder's name (`kinds`: name or start of a name -> "money", "space", "spaces", "card", "number"...;
// the engine's ARG_KINDS, sent with the catalogue), through `say` (money, a space's or a card's name: state.js).
export function message(msg, args, plural, say) {
  const kinds = W.kinds || {};
  const kind = (name) => {
    if (name in kinds) return kinds[name];
    const start = Object.keys(kinds).filter((k) => name.startsWith(k)).sort((a, b) => b.length - a.length)[0];
    return start ? kinds[start] : "number";
  };
  const forms = MESSAGES[msg];
  const count = (args || {}).count;
  let text = typeof forms === "string" ? forms : msg;
  if (plural) text = Array.isArray(forms) ? forms[Math.max(0, PLURAL.indexOf(rules.select(count)))] || forms[forms.length - 1]
    : count === 1 ? msg : plural;
  return text.replace(/\{(\w+)\}/g, (all, name) => (args && name in args ? say(kind(name), args[name]) : all));
}

// Words the page says that come from the game's data (a prompt's options, the bank's counts, the pools): listed for
// `pybabel extract`, said through t() where they are shown.
export const DATA_WORDS = () => [t("yes"), t("no"), t("flat"), t("percent"), t("stay"), t("draw"), t("move"), t("rent"),
  t("buy"), t("done"), t("forward"), t("backward"), t("bankrupt"), t("out"), t("houses"), t("hotels"), t("house"),
  t("hotel"), t("free parking"), t("pool"), t("cat")];
