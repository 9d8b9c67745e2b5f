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
from ..core import Ruleset, names_of, reject
from ..draft import Draft

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

    def name(self, chamber: str | None) -> str:
        return self.names[chamber] if chamber is not None else "the final door"


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
            self.give_safe_cards(d, name, cards, f"setup.deal.{name}")
        d.state["turn"] = {"player": first, "number": 1}
        d.push(["turn", first])

    def start_in_progress(self, d: Draft, start: Any) -> str:
        """Apply ``setup.start``: where the tokens stand, the safe cards held, whose turn it is."""
        if not isinstance(start, Mapping):
            raise reject("setup.start must be an object")
        for key, value in start.items():
            if key in ("spaces", "pools") and value:
                raise reject(f"setup.start.{key}: {self.id} has no {key}")
            if key not in ("players", "spaces", "pools", "turn"):
                raise reject(f"setup.start: unknown key {key!r}")
        players = start.get("players") or {}
        if not isinstance(players, Mapping):
            raise reject("setup.start.players must map names to {space, cards}")
        for name, given in players.items():
            d.player(name)
            if not isinstance(given, Mapping):
                raise reject(f"setup.start.players.{name} must be an object")
            for key in given:
                if key not in ("space", "cards"):
                    raise reject(f"setup.start.players.{name}: {self.id} has no {key}")
            if "space" in given:
                space = self.board.by_id.get(given["space"]) if isinstance(given["space"], str) else None
                if space is None or space.kind not in ("start", "step"):
                    raise reject(f"setup.start.players.{name}: a token starts on a start or step space, "
                                 f"not {given['space']!r}")
                self.place(d, name, space.id)
            self.give_safe_cards(d, name, given.get("cards", []), f"setup.start.players.{name}.cards")
        turn = start.get("turn", d.names()[0])
        if not isinstance(turn, str) or not d.has_player(turn):
            raise reject(f"setup.start.turn: there is no player called {turn!r}")
        d.events.clear()
        d.say("setup", "The game continues from the position given")
        return turn

    def give_safe_cards(self, d: Draft, name: str, cards: Any, where: str) -> None:
        """A starting hand: safe cards of the chamber the player's token is in."""
        chamber = d.player(name)["chamber"]
        if not isinstance(cards, list):
            raise reject(f"{where} must be a list of card ids")
        for card_id in cards:
            card = self.board.cards.get(card_id) if isinstance(card_id, str) else None
            if card is not None and not (card.kept and card.deck == chamber):
                raise reject(f"{where}: {name} can hold only safe cards of {self.path.name(chamber)}, "
                             f"not {card_id}")
            self.take_from_deck(d, card_id)
            d.give_card(name, card_id)

    # ================================================================== turns
    def task_turn(self, d: Draft, name: str) -> None:
        d.ask(name, "roll", f"{name}, roll the die", [], purpose="turn", dice=1)

    def roll_turn(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name, face = prompt["player"], dice[0]
        d.say("roll", f"{name} rolls {self.die.label(face)}", player=name, dice=dice,
              star=face in self.die.draw | self.die.star)
        if face in self.die.draw:
            d.push(["draw", name], ["next-turn"])
        elif face in self.die.star:
            d.push(["star", name, face], ["next-turn"])
        else:
            d.push(["move", name, face], ["next-turn"])

    def task_star(self, d: Draft, name: str, face: int) -> None:
        chamber = self.path.name(d.player(name)["chamber"])
        d.ask(name, "star", f"{self.die.label(face)}: {name}, draw a skill card of {chamber} or move {face}?",
              ["draw", "move"], steps=face)

    def answer_star(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        d.push(["draw", name] if value == "draw" else ["move", name, prompt["steps"]])

    def win(self, d: Draft, name: str) -> None:
        s = d.state
        s["winner"], s["prompt"], s["queue"] = name, None, []
        d.say("winner", f"{name} reaches the final door and wins", player=name)

    # ================================================================== movement
    def task_move(self, d: Draft, name: str, steps: int) -> None:
        entered = self.path.ahead(d.player(name)["space"], steps)
        target = self.board.by_id[entered[-1]]
        count = f"{len(entered)} {'space' if len(entered) == 1 else 'spaces'}"
        d.say("move", f"Move {name}'s token {count} forward to {target.name}", player=name, to=target.id,
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
            shown = names_of([self.card_name(c) for c in cards])
            d.say("return", f"{name} leaves {self.path.name(left)}: put {shown} back at the bottom of its deck",
                  player=name, cards=list(cards))

    def back_to_start(self, d: Draft, name: str) -> None:
        p = d.player(name)
        start = self.path.starts[p["chamber"]]
        back = self.path.index[p["space"]] - self.path.index[start]
        if not back:
            d.say("say", f"{name} is on the start of {self.path.name(p['chamber'])} already")
            return
        d.say("move", f"Move {name}'s token back to {self.board.by_id[start].name}", player=name, to=start,
              steps=-back)
        p["space"] = start

    def task_land(self, d: Draft, name: str) -> None:
        space = self.board.by_id[d.player(name)["space"]]
        if space.kind == "door":
            self.win(d, name)
        elif space.kind == "snare":
            self.snare(d, name, space.name)

    def snare(self, d: Draft, name: str, space_name: str) -> None:
        p = d.player(name)
        safe = next((c for c in p["cards"] if self.is_safe(self.board.cards[c], p["chamber"])), None)
        if safe is None:
            d.say("say", f"{space_name} is a snare: {name} goes back to the start", player=name)
            self.back_to_start(d, name)
            return
        d.take_card(name, safe)
        self.to_bottom(d, safe)
        d.say("card", f"{space_name} is a snare: {name} plays {self.card_name(safe)} and moves ahead 1",
              player=name, card=safe, played=True)
        d.push(["move", name, 1])

    @staticmethod
    def is_safe(card: Card, chamber: str | None) -> bool:
        return card.kept and card.deck == chamber

    # ================================================================== cards
    def card_name(self, card_id: str) -> str:
        return str(self.board.cards[card_id].params.get("name", card_id))

    def task_draw(self, d: Draft, name: str) -> None:
        chamber = d.player(name)["chamber"]
        card_id = self.draw(d, chamber)
        if card_id is None:
            d.say("say", f"No skill card is left in {self.path.name(chamber)}: nothing happens")
            return
        card = self.board.cards[card_id]
        d.say("card", f"{name} draws a skill card: {card.text}", player=name, card=card_id, deck=card.deck)
        if card.kept:
            d.give_card(name, card_id)
        else:
            self.to_bottom(d, card_id)
        self.effect_handlers[card.do](d, name)

    def effect_keep(self, d: Draft, name: str) -> None:
        d.say("say", f"{name} keeps the card")

    def effect_danger(self, d: Draft, name: str) -> None:
        self.back_to_start(d, name)

    def effect_exchange(self, d: Draft, name: str) -> None:
        others = [n for n in d.solvent() if n != name]
        if len(others) == 1:
            self.swap(d, name, others[0])
        else:
            d.ask(name, "exchange", f"{name}, change places with whom?", others)

    def answer_exchange(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        self.swap(d, prompt["player"], value)

    def swap(self, d: Draft, name: str, other: str) -> None:
        """Two tokens change places; nothing is resolved where they arrive."""
        here, there = d.player(name)["space"], d.player(other)["space"]
        if here == there:
            d.say("say", f"{name} and {other} share a space: the exchange changes nothing")
            return
        d.say("say", f"{name} and {other} change places")
        for who, to in ((name, there), (other, here)):
            d.say("move", f"Move {who}'s token to {self.board.by_id[to].name}", player=who, to=to, swap=True)
        self.place(d, name, there)
        self.place(d, other, here)
