// The page's words in this phone's language (docs/languages.md): the `page` catalogue inside the page (body's
// data-words), filled in by name; plurals by Intl.PluralRules; money as the language writes it, the board's symbol.

const W = JSON.parse(document.body.dataset.words || "{}");
const MESSAGES = W.messages || {};
const MONEY = W.money || { before: "¤", after: "", group: "" };
const PLURAL = W.plural || ["one", "other"];
const rules = new Intl.PluralRules(W.lang || "en");

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
