"""A state told in words for the terminal (``demo``, ``replay``, ``games show``): spaces, cards and pools by the
names printed on the board, never their ids (the ids stay in the JSON)."""

from __future__ import annotations

from companion.engine import State, find_ruleset
from companion.engine.core import Ruleset
from companion.words import ENGLISH, N_, Words

#: The words of a state the summary names from its keys: the bundled rulesets' pools and the bank's stock.
KEYS = (N_("Tax pool"), N_("Public treasury"), N_("Railroad"), N_("Board"), N_("houses"), N_("hotels"))


def summary(state: State, ruleset: Ruleset | None = None, words: Words = ENGLISH) -> str:
    """A readable account of a state: players, deeds, pools, what the game waits for. ``ruleset``: the one the game
    is played with (a board file of one's own edition), else the bundled one of ``state["ruleset"]``; ``words``: the
    terminal's language (English: as it always read, amounts as the engine writes them)."""
    rules = ruleset or find_ruleset(state["ruleset"])
    spaces = rules.board.by_id
    w = words if words.english or words.board is rules.board else Words.for_language(words.language, rules.board)

    def space(sid: str) -> str:
        return (w.named("spaces", sid) or spaces[sid].name) if sid in spaces else sid

    def card(cid: str) -> str:
        return (w.named("cards", cid) or rules.card_name(cid)) if cid in rules.board.cards else cid

    def money(amount: int) -> str:
        return f"${amount:>5}" if w.english else f"{w.money(amount):>7}"

    lines = [f"{state['ruleset']} — " + w.t("input {seq}, turn {n} ({player})", seq=state["seq"],
                                            n=state["turn"]["number"], player=state["turn"]["player"])]
    owners: dict[str, list[str]] = {}
    for sid, rec in state.get("spaces", {}).items():
        if rec.get("owner"):
            mark = "".join([
                w.t(" {n}h", n=rec["houses"]) if rec.get("houses") else "",
                w.t(" hotel") if rec.get("hotel") else "",
                w.t(" (mortgaged)") if rec.get("mortgaged") else "",
            ])
            owners.setdefault(rec["owner"], []).append(space(sid) + mark)
    for p in state["players"]:
        status = w.t(" bankrupt") if p.get("bankrupt") else (w.t(" in jail") if p.get("in_jail") else "")
        cash = money(p["cash"]) if "cash" in p else ""
        lines.append(f"  {p['name']:<10} " + w.t("{cash} on {space}", cash=cash, space=space(p["space"])) + status)
        if owners.get(p["name"]):
            lines.append("             " + ", ".join(owners[p["name"]]))
        if p.get("cards"):
            lines.append("             " + w.t("cards: {cards}", cards=", ".join(card(c) for c in p["cards"])))
    for pool, amount in state.get("pools", {}).items():
        lines.append(f"  {w.gettext(rules.pool_name(pool))}: " + (f"${amount}" if w.english else w.money(amount)))
    if state.get("bank"):
        lines.append("  " + w.t("bank: {stock}", stock=", ".join(f"{v} {w.gettext(k)}" for k, v in state["bank"].items())))
    if state.get("winner"):
        lines.append(w.t("Winner: {player}", player=state["winner"]))
    elif state.get("prompt"):
        prompt = state["prompt"]
        asked = prompt["text"] if w.english or "msg" not in prompt else \
            w.message(prompt["msg"], prompt.get("args") or {}, prompt.get("plural"))
        lines.append(w.t("Waiting: {question}", question=asked))
    return "\n".join(lines)
