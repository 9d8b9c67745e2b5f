"""What the two landlord's games (``magie-1904``, ``magie-1924``) share, on the core.

One track, travelled in board order; every token starts on space 0; the jail; a host who
sends a player there; offers and debts (the :mod:`.trade` and :mod:`.debt` mixins); the start
money and a game given in progress (``setup.start``). Each game adds its spaces, its turn and
its end through the hooks below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from companion.errors import BoardError

from ..board import Board, Space
from ..core import Ruleset, reject, steps_message, whole
from ..draft import Draft, Task
from ..messages import Message, m, n_
from .debt import Debts
from .trade import Trades


#: DESIGN.md's keys of a deed in ``setup.start.spaces`` that these games do not have, at their "nothing" values:
#: accepted (and ignored) so that a position written for any ruleset reads here too.
CLASSIC_DEFAULTS = MappingProxyType({"houses": 0, "hotel": False, "mortgaged": False})


#: A throw as the table is told it: (where, doubles) -> msgid.
THROWS = {("", False): n_("{player} throws {a} and {b}"), ("", True): n_("{player} throws {a} and {b} (doubles)"),
          ("jail", False): n_("{player} throws {a} and {b} in jail"),
          ("jail", True): n_("{player} throws {a} and {b} in jail (doubles)"),
          ("poorhouse", False): n_("{player} throws {a} and {b} in the poorhouse"),
          ("poorhouse", True): n_("{player} throws {a} and {b} in the poorhouse (doubles)")}


def throw_message(player: str, dice: list[int], where: str = "") -> Message:
    """A throw of two dice as the table is told it (``where``: "", "jail" or "poorhouse")."""
    return m(THROWS[where, dice[0] == dice[1]], player=player, a=dice[0], b=dice[1])


class MagieRules(Trades, Debts, Ruleset):
    """Base of the landlord's games; not a ruleset by itself."""

    #: Where start money and the cash of a game given in progress come from.
    money_source: ClassVar[str] = "bank"
    #: Extra keys a player of ``setup.start`` may give, with their type (int: a whole number ≥ 0).
    start_player_keys: ClassVar[Mapping[str, type]] = MappingProxyType({})
    #: Extra top-level keys of ``setup.start``.
    start_keys: ClassVar[frozenset[str]] = frozenset()
    #: Options that must be whole numbers ≥ 0 in the board file.
    whole_options: ClassVar[tuple[str, ...]] = ()
    #: Options that must be true or false in the board file.
    flag_options: ClassVar[tuple[str, ...]] = ()

    #: What landing on each kind of space does: ``(d, name, space, ctx)``, filled in by the ruleset.
    landers: dict[str, Callable[[Draft, str, Space, Mapping[str, Any]], None]]

    def __init__(self, board: Board) -> None:
        super().__init__(board)
        if set(board.tracks) != {"main"}:
            raise BoardError(f"{board.source}: spaces: a {self.id} board has one track")
        self.track: tuple[str, ...] = board.tracks["main"]
        self.jail = self.only_space("jail")
        for key in self.whole_options:
            value = board.options.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BoardError(f"{board.source}: options.{key}: expected a whole number ≥ 0, found {value!r}")
        for key in self.flag_options:
            if not isinstance(board.options.get(key), bool):
                raise BoardError(f"{board.source}: options.{key}: expected true or false")

    def only_space(self, kind: str) -> str:
        """The id of the one space of ``kind`` (a board error if there is none or more)."""
        found = [s.id for s in self.board.spaces if s.kind == kind]
        if len(found) != 1:
            raise BoardError(f"{self.board.source}: spaces: a {self.id} board needs one space of kind {kind!r}, "
                             f"found {len(found)}")
        return found[0]

    # ================================================================== set-up
    def new_player(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The core's player with the ruleset's extra keys at their empty value (0, false)."""
        return {**super().new_player(name, options), **{k: t() for k, t in self.start_player_keys.items()}}

    def setup(self, d: Draft, setup: Mapping[str, Any]) -> None:
        d.state.update(dice=None, trade=None, **self.extra_state(d.state["options"]))
        self.fund(d)
        first = d.names()[0]
        if "start" in setup:
            opening = self.resume_opening(d, setup)
            first = self.start_in_progress(d, setup["start"])
        else:
            opening = self.opening(d, setup)
        d.state["turn"] = {"player": first, "number": 1}
        d.push(*opening, ["turn", first])

    def extra_state(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Top-level keys the ruleset adds to the state."""
        return {}

    def fund(self, d: Draft) -> None:
        """Pay every player their start money."""
        for name in d.names():
            self.transfer(d, self.money_source, name, self.start_cash(d.state["options"]), m("to start"))

    def start_cash(self, options: Mapping[str, Any]) -> int:
        return int(options["start_cash"])

    def opening(self, d: Draft, setup: Mapping[str, Any]) -> list[Task]:
        """What happens before the first throw of a new game (returns the tasks)."""
        return []

    def resume_opening(self, d: Draft, setup: Mapping[str, Any]) -> list[Task]:
        """Before ``setup.start`` is applied to a game given in progress (no opening of a new game)."""
        return []

    def start_in_progress(self, d: Draft, start: Any) -> str:
        """Apply ``setup.start``: a game in progress (DESIGN.md), with the ruleset's extra keys."""
        if not isinstance(start, Mapping):
            raise reject("setup.start must be an object")
        unknown = set(start) - {"players", "spaces", "pools", "turn"} - self.start_keys
        if unknown:
            raise reject("setup.start: unknown key {key}", key=sorted(unknown)[0])
        players = start.get("players") or {}
        spaces = start.get("spaces") or {}
        pools = start.get("pools") or {}
        for what, value in (("players", players), ("spaces", spaces), ("pools", pools)):
            if not isinstance(value, Mapping):
                raise reject("setup.start.{name} must be an object", name=what)
        for name, given in players.items():
            self.start_player(d, name, given)
        for space_id, given in spaces.items():
            if space_id not in d.state["spaces"] or not isinstance(given, Mapping):
                raise reject("setup.start.spaces: {value} is not an ownable space", value=space_id)
            self.start_space(d, space_id, {k: v for k, v in given.items() if CLASSIC_DEFAULTS.get(k, ...) != v})
        for pool, amount in pools.items():
            if pool not in d.state["pools"]:
                raise reject("setup.start: unknown pool {value}", value=pool)
            self.set_balance(d, pool, whole(amount, m("pool {name}", name=pool)), "bank")
        self.start_more(d, start)
        d.events.clear()
        d.say("setup", m("The game continues from the position given"))
        turn = start.get("turn", d.names()[0])
        if not isinstance(turn, str) or not d.has_player(turn):
            raise reject("setup.start.turn: there is no player called {value}", value=turn)
        return turn

    def start_player(self, d: Draft, name: str, given: Any) -> None:
        p = d.player(name)
        if not isinstance(given, Mapping):
            raise reject("setup.start.players.{player} must be an object", player=name)
        known = {"cash", "space", "cards", "in_jail", "laps", *self.start_player_keys}
        unknown = set(given) - known
        if unknown:
            raise reject("setup.start.players.{player}: unknown key {key} (known: {known})", player=name,
                         key=sorted(unknown)[0], known=", ".join(sorted(known)))
        if "cash" in given:
            self.set_balance(d, name, whole(given["cash"], m("{player}'s cash", player=name)), self.money_source)
        if "space" in given:
            if given["space"] not in self.board.by_id:
                raise reject("setup.start: unknown space {value} for {player}", value=given["space"], player=name)
            p["space"] = given["space"]
        if "laps" in given:
            p["laps"] = whole(given["laps"], m("{player}'s laps", player=name))
        for key, kind in self.start_player_keys.items():
            if key in given:
                p[key] = self.start_value(given[key], kind, m("{player}'s {name}", player=name, name=key))
        cards = given.get("cards", [])
        if not isinstance(cards, list):
            raise reject("setup.start.players.{player}.cards must be a list of card ids", player=name)
        for card in cards:
            self.take_from_deck(d, card)
            self.receive_card(d, name, card)
        p["in_jail"] = self.start_value(given.get("in_jail", False), bool, m("{player}'s in_jail", player=name))
        if p["in_jail"]:
            p["space"] = self.jail

    @staticmethod
    def start_value(value: Any, kind: type, what: Message) -> Any:
        if kind is bool:
            if not isinstance(value, bool):
                raise reject("setup.start: {what} must be true or false", what=what)
            return value
        return whole(value, what)

    def start_space(self, d: Draft, space_id: str, given: Mapping[str, Any]) -> None:
        owner = given.get("owner")
        if owner is not None:
            d.player(owner)
        d.space(space_id)["owner"] = owner

    def start_more(self, d: Draft, start: Mapping[str, Any]) -> None:
        """The ruleset's own top-level keys of ``setup.start``."""

    def set_balance(self, d: Draft, account: str, amount: int, source: str) -> None:
        """Bring an account to ``amount`` by a transfer with ``source``."""
        have = self.balance(d, account)
        if amount > have:
            self.transfer(d, source, account, amount - have)
        else:
            self.transfer(d, account, source, have - amount)

    # ================================================================== cards
    def pass_card(self, d: Draft, giver: str, taker: str, card: str) -> None:
        self.release_card(d, giver, card)
        self.receive_card(d, taker, card)

    def release_card(self, d: Draft, name: str, card: str) -> None:
        """Take a card out of a player's hand."""
        d.take_card(name, card)

    # ================================================================== movement
    def steps_from(self, start: str, steps: int) -> list[str]:
        """The spaces a token enters, one per step, from ``start`` (negative steps: backwards)."""
        n, i = len(self.track), self.board.by_id[start].index
        sign = 1 if steps > 0 else -1
        return [self.track[(i + sign * k) % n] for k in range(1, abs(steps) + 1)]

    def place(self, d: Draft, name: str, path: list[str], forward: bool, how: str = "") -> None:
        """Put a token at the end of ``path`` and tell the table (``how``: a key of :data:`~..core.STEPS`)."""
        if not path:
            return
        target = path[-1]
        n = len(path)
        d.player(name)["space"] = target
        d.say("move", steps_message(name, n, forward, target, how), player=name, to=target, steps=n if forward else -n)

    def put(self, d: Draft, name: str, space_id: str, said: Message) -> None:
        """Put a token straight on a space (not a move: nothing is passed), with what the table is told."""
        d.player(name)["space"] = space_id
        d.say("move", said, player=name, to=space_id)

    # ================================================================== landing
    def task_land(self, d: Draft, name: str, ctx: Mapping[str, Any]) -> None:
        """The rule of the space the token stands on (``self.landers`` by kind, set by the ruleset)."""
        space = self.board.by_id[d.player(name)["space"]]
        self.landers[space.kind](d, name, space, ctx)

    def land_nothing(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        pass

    # ================================================================== jail
    def task_go_to_jail(self, d: Draft, name: str) -> None:
        p = d.player(name)
        p["in_jail"] = True
        self.jailed(d, name)
        self.put(d, name, self.jail, m("Move {player}'s token to {space}: {player} is in jail", player=name,
                                       space=self.jail))

    def jailed(self, d: Draft, name: str) -> None:
        """What else changes for a player sent to jail."""

    def host_send_to_jail(self, d: Draft, act: Mapping[str, Any]) -> None:
        """A player who refuses a rule goes to jail; if it is their turn, the turn ends (not the set-up's
        choices before the first throw: they go on)."""
        target = act.get("target")
        if not isinstance(target, str) or not d.has_player(target) or d.player(target)["bankrupt"]:
            raise reject("the host cannot send {value} to jail: name a player in the game as target", value=target)
        s = d.state
        d.say("say", m("The host sends {player} to jail", player=target))
        opening = any(task[0] == "turn" for task in s["queue"])  # the set-up is not over: no turn to end yet
        if s["turn"]["player"] == target and not opening:
            s["queue"], s["prompt"] = [], None
            if s.get("auction"):
                s["auction"] = None
                d.say("say", m("The auction is called off"))
            d.push(["go-to-jail", target], ["next-turn"])
        else:
            self.interrupt(d, ["go-to-jail", target])

    # ================================================================== the queue
    def run(self, d: Draft) -> None:
        super().run(d)
        if d.state["winner"] is not None:  # won in the middle of a task: nothing more is asked
            d.state["prompt"], d.state["queue"] = None, []

    def win(self, d: Draft, name: str, why: Message) -> None:
        s = d.state
        s["winner"], s["prompt"], s["queue"], s["trade"] = name, None, [], None
        d.say("winner", m("{player} wins: {why}", player=name, why=why), player=name)

    def owned(self, d: Draft, name: str, kind: str | None = None) -> list[str]:
        """Ids of the spaces ``name`` owns (of ``kind`` if given), in board order."""
        return [sid for sid, rec in d.state["spaces"].items()
                if rec["owner"] == name and (kind is None or self.board.by_id[sid].kind == kind)]
