"""``chambers``: the three-chamber race of WO 2003/037455 (RULES.md §5).

No money. The turn: roll one die → 1★ draw a skill card of your chamber; 6★ draw or move 6
(prompt ``star``); 2–5 move → land: a snare sends the token back to its chamber's start unless
a safe card of that chamber saves it → the next player. The first token at the final door wins.
Shares the core (inputs, queue, prompts, decks, undo) and nothing of ``classic``.

A player holds only cards of the chamber their token is in: every change of chamber returns
the hand to the decks (see :meth:`ChambersRules.place`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import BoardError

from ..board import Board, Card, KindRule, Space
from ..core import Ruleset, reject, steps_message
from ..draft import Draft
from ..messages import Message, m

STAR = "★"


@dataclass(frozen=True)
class Path:
    """The race path of a board: every space in travel order, chamber by chamber, then the door."""

    spaces: tuple[str, ...]
    index: Mapping[str, int]
    chamber: Mapping[str, str | None]  # space id -> chamber id; None for the door
    starts: Mapping[str, str]  # chamber id -> its start space
    names: Mapping[str, str]  # chamber id -> the name players see
    door: str

    @classmethod
    def from_board(cls, board: Board) -> Path:
        """Read and check the path: chambers in ``[chambers]`` order, each a track opening with its start."""
        where = board.source
        names = board.data.get("chambers")
        if not isinstance(names, Mapping) or not names or not all(isinstance(v, str) for v in names.values()):
            raise BoardError(f"{where}: [chambers] must name each chamber (id = \"name\")")
        if not board.spaces:
            raise BoardError(f"{where}: the board has no spaces")
        *inner, last = board.spaces
        if last.kind != "door" or any(s.kind == "door" for s in inner):
            raise BoardError(f"{where}: the last space, and only it, must be the final door (kind = \"door\")")
        order = list(dict.fromkeys(s.track for s in inner))
        if order != list(names):
            raise BoardError(f"{where}: the spaces' chambers (tracks) {order} differ from [chambers] {list(names)}")
        starts: dict[str, str] = {}
        for chamber in order:
            track = board.tracks[chamber]
            kinds = [board.by_id[sid].kind for sid in track]
            if kinds[0] != "start" or "start" in kinds[1:]:
                raise BoardError(f"{where}: chamber {chamber!r} must open with its one start space")
            if [s.track for s in inner].count(chamber) != len(track) or _split(inner, chamber):
                raise BoardError(f"{where}: the spaces of chamber {chamber!r} must follow one another")
            if chamber not in board.decks:
                raise BoardError(f"{where}: chamber {chamber!r} has no skill cards (cards with deck = {chamber!r})")
            starts[chamber] = track[0]
        for deck in board.decks:
            if deck not in names:
                raise BoardError(f"{where}: deck {deck!r} is not a chamber")
        spaces = tuple(s.id for s in board.spaces)
        return cls(
            spaces=spaces,
            index={sid: i for i, sid in enumerate(spaces)},
            chamber={**{s.id: s.track for s in inner}, last.id: None},
            starts=starts,
            names=dict(names),
            door=last.id,
        )

    def ahead(self, space: str, steps: int) -> list[str]:
        """The spaces a token enters moving ``steps`` forward; it stops at the door (no exact count)."""
        i = self.index[space]
        return list(self.spaces[i + 1: min(i + steps, len(self.spaces) - 1) + 1])

    def name(self, chamber: str | None) -> str | Message:
        """A chamber as a message says it: its id, which is its deck's (said by the deck's name: ``[chambers]``,
        ``[names.<lang>.decks]`` in another language); past the last chamber, the final door."""
        return chamber if chamber is not None else m("the final door")


def _split(spaces: Sequence[Space], chamber: str) -> bool:
    """Whether a chamber's spaces are interrupted by another chamber's."""
    positions = [i for i, s in enumerate(spaces) if s.track == chamber]
    return positions[-1] - positions[0] + 1 != len(positions)


@dataclass(frozen=True)
class Die:
    """The custom die: which faces draw a card, which offer the choice; the others move."""

    draw: frozenset[int]
    star: frozenset[int]

    @classmethod
    def from_board(cls, board: Board, faces: int) -> Die:
        raw = board.data.get("die", {})
        sets = {}
        for key in ("draw", "draw_or_move"):
            values = raw.get(key, []) if isinstance(raw, Mapping) else None
            if not isinstance(values, list) or not all(isinstance(v, int) and 1 <= v <= faces for v in values):
                raise BoardError(f"{board.source}: die.{key} must list faces 1 to {faces}")
            sets[key] = frozenset(values)
        if sets["draw"] & sets["draw_or_move"]:
            raise BoardError(f"{board.source}: a face cannot be in both die.draw and die.draw_or_move")
        return cls(sets["draw"], sets["draw_or_move"])

    def label(self, face: int) -> str:
        """How the face looks: ``1★`` for a star face, the number otherwise."""
        return f"{face}{STAR}" if face in self.draw | self.star else str(face)


class ChambersRules(Ruleset):
    """The race through the chambers; the board file gives the path, the cards and the die."""

    id = "chambers"
    kinds = {"start": KindRule(), "step": KindRule(), "snare": KindRule(), "door": KindRule()}
    effects = frozenset({"exchange", "danger", "keep"})
    dice_count = 1

    def __init__(self, board: Board) -> None:
        super().__init__(board)
        self.path = Path.from_board(board)
        self.die = Die.from_board(board, self.die_faces)
        for card in board.cards.values():
            if card.kept and card.params.get("use") != "snare":
                raise BoardError(f"{board.source}: card {card.id}: a kept card is a safe card (use = \"snare\")")
        self.effect_handlers = {name: getattr(self, "effect_" + name) for name in self.effects}

    # ================================================================== set-up
    def new_player(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        first = self.path.spaces[0]
        # in_jail and laps are constant here (no jail, no laps) but every ruleset's players carry DESIGN.md's keys.
        return {"name": name, "space": first, "chamber": self.path.chamber[first], "in_jail": False, "bankrupt": False,
                "cards": [], "laps": 0}

    def setup(self, d: Draft, setup: Mapping[str, Any]) -> None:
        first = d.names()[0]
        if "start" in setup:
            first = self.start_in_progress(d, setup["start"])
        deal = setup.get("deal", {})
        if not isinstance(deal, Mapping):
            raise reject("setup.deal must map player names to lists of card ids")
        for name, cards in deal.items():
            self.give_safe_cards(d, name, cards, m("setup.deal.{player}", player=name))
        d.state["turn"] = {"player": first, "number": 1}
        d.push(["turn", first])

    def start_in_progress(self, d: Draft, start: Any) -> str:
        """Apply ``setup.start``: where the tokens stand, the safe cards held, whose turn it is."""
        if not isinstance(start, Mapping):
            raise reject("setup.start must be an object")
        for key, value in start.items():
            if key in ("spaces", "pools") and value:
                raise reject("setup.start.{name}: {ruleset} has no {name}", name=key, ruleset=self.id)
            if key not in ("players", "spaces", "pools", "turn"):
                raise reject("setup.start: unknown key {key}", key=key)
        players = start.get("players") or {}
        if not isinstance(players, Mapping):
            raise reject("setup.start.players must map names to {{space, cards}}")
        for name, given in players.items():
            d.player(name)
            if not isinstance(given, Mapping):
                raise reject("setup.start.players.{player} must be an object", player=name)
            for key in given:
                if key not in ("space", "cards"):
                    raise reject("setup.start.players.{player}: {ruleset} has no {name}", player=name, ruleset=self.id,
                                 name=key)
            if "space" in given:
                space = self.board.by_id.get(given["space"]) if isinstance(given["space"], str) else None
                if space is None or space.kind not in ("start", "step"):
                    raise reject("setup.start.players.{player}: a token starts on a start or step space, not {value}",
                                 player=name, value=given["space"])
                self.place(d, name, space.id)
            self.give_safe_cards(d, name, given.get("cards", []), m("setup.start.players.{player}.cards", player=name))
        turn = start.get("turn", d.names()[0])
        if not isinstance(turn, str) or not d.has_player(turn):
            raise reject("setup.start.turn: there is no player called {value}", value=turn)
        d.events.clear()
        d.say("setup", m("The game continues from the position given"))
        return turn

    def give_safe_cards(self, d: Draft, name: str, cards: Any, where: Message) -> None:
        """A starting hand: safe cards of the chamber the player's token is in."""
        chamber = d.player(name)["chamber"]
        if not isinstance(cards, list):
            raise reject("{what} must be a list of card ids", what=where)
        for card_id in cards:
            card = self.board.cards.get(card_id) if isinstance(card_id, str) else None
            if card is not None and not (card.kept and card.deck == chamber):
                raise reject("{what}: {player} can hold only safe cards of {chamber}, not {ident}", what=where,
                             player=name, chamber=self.path.name(chamber), ident=card_id)
            self.take_from_deck(d, card_id)
            d.give_card(name, card_id)

    # ================================================================== turns
    def task_turn(self, d: Draft, name: str) -> None:
        d.ask(name, "roll", m("{player}, roll the die", player=name), [], purpose="turn", dice=1)

    def roll_turn(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name, face = prompt["player"], dice[0]
        d.say("roll", m("{player} rolls {label}", player=name, label=self.die.label(face)), player=name, dice=dice,
              star=face in self.die.draw | self.die.star)
        if face in self.die.draw:
            d.push(["draw", name], ["next-turn"])
        elif face in self.die.star:
            d.push(["star", name, face], ["next-turn"])
        else:
            d.push(["move", name, face], ["next-turn"])

    def task_star(self, d: Draft, name: str, face: int) -> None:
        chamber = self.path.name(d.player(name)["chamber"])
        d.ask(name, "star", m("{label}: {player}, draw a skill card of {chamber} or move {n}?",
                              label=self.die.label(face), player=name, chamber=chamber, n=face),
              ["draw", "move"], steps=face)

    def answer_star(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        d.push(["draw", name] if value == "draw" else ["move", name, prompt["steps"]])

    def win(self, d: Draft, name: str) -> None:
        s = d.state
        s["winner"], s["prompt"], s["queue"] = name, None, []
        d.say("winner", m("{player} reaches the final door and wins", player=name), player=name)

    # ================================================================== movement
    def task_move(self, d: Draft, name: str, steps: int) -> None:
        entered = self.path.ahead(d.player(name)["space"], steps)
        target = self.board.by_id[entered[-1]]
        d.say("move", steps_message(name, len(entered), True, target.id), player=name, to=target.id,
              steps=len(entered))
        self.place(d, name, target.id)
        d.push(["land", name])

    def place(self, d: Draft, name: str, space_id: str) -> None:
        """Put a token on a space; a change of chamber returns its holder's cards to their decks."""
        p = d.player(name)
        p["space"] = space_id
        chamber = self.path.chamber[space_id]
        if chamber == p["chamber"]:
            return
        left, p["chamber"] = p["chamber"], chamber
        cards = p["cards"]
        if cards:
            p["cards"] = []
            for card in cards:
                self.to_bottom(d, card)
            d.say("return", m("{player} leaves {chamber}: put {cards} back at the bottom of its deck", player=name,
                              chamber=self.path.name(left), cards=list(cards)), player=name, cards=list(cards))

    def back_to_start(self, d: Draft, name: str) -> None:
        p = d.player(name)
        start = self.path.starts[p["chamber"]]
        back = self.path.index[p["space"]] - self.path.index[start]
        if not back:
            d.say("say", m("{player} is on the start of {chamber} already", player=name,
                           chamber=self.path.name(p["chamber"])))
            return
        d.say("move", m("Move {player}'s token back to {space}", player=name, space=start), player=name, to=start,
              steps=-back)
        p["space"] = start

    def task_land(self, d: Draft, name: str) -> None:
        space = self.board.by_id[d.player(name)["space"]]
        if space.kind == "door":
            self.win(d, name)
        elif space.kind == "snare":
            self.snare(d, name, space.id)

    def snare(self, d: Draft, name: str, space_id: str) -> None:
        p = d.player(name)
        safe = next((c for c in p["cards"] if self.is_safe(self.board.cards[c], p["chamber"])), None)
        if safe is None:
            d.say("say", m("{space} is a snare: {player} goes back to the start", space=space_id, player=name),
                  player=name)
            self.back_to_start(d, name)
            return
        d.take_card(name, safe)
        self.to_bottom(d, safe)
        d.say("card", m("{space} is a snare: {player} plays {card} and moves ahead 1", space=space_id, player=name,
                        card=safe), player=name, card=safe, played=True)
        d.push(["move", name, 1])

    @staticmethod
    def is_safe(card: Card, chamber: str | None) -> bool:
        return card.kept and card.deck == chamber

    # ================================================================== cards
    def deck_name(self, deck_id: str) -> str:
        """A chamber's deck is said by the chamber's name (``[chambers]``): "the chess chamber"."""
        return self.path.names.get(deck_id) or super().deck_name(deck_id)

    def card_name(self, card_id: str) -> str:
        return str(self.board.cards[card_id].params.get("name", card_id))

    def task_draw(self, d: Draft, name: str) -> None:
        chamber = d.player(name)["chamber"]
        card_id = self.draw(d, chamber)
        if card_id is None:
            d.say("say", m("No skill card is left in {chamber}: nothing happens", chamber=self.path.name(chamber)))
            return
        card = self.board.cards[card_id]
        d.say("card", m("{player} draws a skill card: {printed}", player=name, printed=card_id), player=name,
              card=card_id, deck=card.deck)
        if card.kept:
            d.give_card(name, card_id)
        else:
            self.to_bottom(d, card_id)
        self.effect_handlers[card.do](d, name)

    def effect_keep(self, d: Draft, name: str) -> None:
        d.say("say", m("{player} keeps the card", player=name))

    def effect_danger(self, d: Draft, name: str) -> None:
        self.back_to_start(d, name)

    def effect_exchange(self, d: Draft, name: str) -> None:
        others = [n for n in d.solvent() if n != name]
        if len(others) == 1:
            self.swap(d, name, others[0])
        else:
            d.ask(name, "exchange", m("{player}, change places with whom?", player=name), others)

    def answer_exchange(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        self.swap(d, prompt["player"], value)

    def swap(self, d: Draft, name: str, other: str) -> None:
        """Two tokens change places; nothing is resolved where they arrive."""
        here, there = d.player(name)["space"], d.player(other)["space"]
        if here == there:
            d.say("say", m("{player} and {other} share a space: the exchange changes nothing", player=name,
                           other=other))
            return
        d.say("say", m("{player} and {other} change places", player=name, other=other))
        for who, to in ((name, there), (other, here)):
            d.say("move", m("Move {player}'s token to {space}", player=who, space=to), player=who, to=to, swap=True)
        self.place(d, name, there)
        self.place(d, other, here)
