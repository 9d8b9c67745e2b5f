"""A state told in words for the terminal (``demo``, ``replay``, ``games show``): spaces, cards and pools by the
names printed on the board, never their ids (the ids stay in the JSON)."""

from __future__ import annotations

from companion.engine import State, find_ruleset
from companion.engine.core import Ruleset


def summary(state: State, ruleset: Ruleset | None = None) -> str:
    """A readable account of a state: players, deeds, pools, what the game waits for. ``ruleset``: the one the game
    is played with (a board file of one's own edition), else the bundled one of ``state["ruleset"]``."""
    rules = ruleset or find_ruleset(state["ruleset"])
    spaces = rules.board.by_id

    def space(sid: str) -> str:
        return spaces[sid].name if sid in spaces else sid

    def card(cid: str) -> str:
        return rules.card_name(cid) if cid in rules.board.cards else cid

    lines = [f"{state['ruleset']} — input {state['seq']}, turn {state['turn']['number']} ({state['turn']['player']})"]
    owners: dict[str, list[str]] = {}
    for sid, rec in state.get("spaces", {}).items():
        if rec.get("owner"):
            mark = "".join([
                f" {rec['houses']}h" if rec.get("houses") else "",
                " hotel" if rec.get("hotel") else "",
                " (mortgaged)" if rec.get("mortgaged") else "",
            ])
            owners.setdefault(rec["owner"], []).append(space(sid) + mark)
    for p in state["players"]:
        status = " bankrupt" if p.get("bankrupt") else (" in jail" if p.get("in_jail") else "")
        cash = f"${p['cash']:>5}" if "cash" in p else ""
        lines.append(f"  {p['name']:<10} {cash} on {space(p['space'])}{status}")
        if owners.get(p["name"]):
            lines.append("             " + ", ".join(owners[p["name"]]))
        if p.get("cards"):
            lines.append("             cards: " + ", ".join(card(c) for c in p["cards"]))
    for pool, amount in state.get("pools", {}).items():
        lines.append(f"  {rules.pool_name(pool)}: ${amount}")
    if state.get("bank"):
        lines.append("  bank: " + ", ".join(f"{v} {k}" for k, v in state["bank"].items()))
    if state.get("winner"):
        lines.append(f"Winner: {state['winner']}")
    elif state.get("prompt"):
        lines.append(f"Waiting: {state['prompt']['text']}")
    return "\n".join(lines)
