"""The shared core of every ruleset: inputs, the task queue, prompts, ledger, decks, undo.

A ruleset is a small class over this core (as python-chess builds its variants on one
board class). ``apply`` turns one input into a new state and events:

* the input is checked against the prompt the game is waiting for (or is a voluntary act);
* its handler pushes tasks onto the state's queue (``["land", "Ann", {...}]``);
* the queue runs until a task asks a question (sets ``prompt``) or the game is won.

Everything in the state is JSON data, so the queue survives a power cut with the rest.

Over 500 lines: the one base class every ruleset builds on (the input checks, the queue, the ledger, the decks and
undo call each other on the same draft); what the rulesets share beyond it is in ``rules/``' mixins.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, ClassVar

from companion.errors import BoardError, IllegalInput

from .board import Board, KindRule
from .draft import Draft, Event, State, Task
from .rng import shuffled

RESERVED_NAMES = frozenset({"host", "bank", "tax-pool", "free-parking", "public-treasury", "railroad", "board", ""})
PRIVATE_KEYS = frozenset({"seed", "decks", "queue", "undo", "bank_balance"})
MAX_AMOUNT = 10_000_000
ACCOUNT_NAMES = MappingProxyType({"bank": "the bank", "tax-pool": "the tax pool", "free-parking": "Free Parking",
                                  "public-treasury": "the public treasury", "railroad": "the railroad",
                                  "board": "the board"})
#: Pools a player takes from (the lander takes the Free Parking pool), which a payment's sentence says so of:
#: "Ann takes $350 from Free Parking", not "Free Parking pays Ann $350".
TAKEN_FROM = frozenset({"free-parking"})
#: Public methods whose names look like handlers (``host_verbs``, ``roll_extras``) but are not.
NOT_HANDLERS = frozenset({"host_verbs", "roll_extras"})
ANSWER_KEYS, ACT_KEYS, UNDO_KEYS = frozenset({"answer"}), frozenset({"act"}), frozenset({"undo"})
TYPE_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a text"}


def reject(message: str) -> IllegalInput:
    """An :class:`IllegalInput` to ``raise``."""
    return IllegalInput(message)


def whole(value: Any, what: str, *, minimum: int = 0, maximum: int = MAX_AMOUNT) -> int:
    """Check an amount or count from an input: a whole number within bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise reject(f"{what} must be a whole number, not {value!r}")
    if value < minimum:
        raise reject(f"{what} must be at least {minimum}, not {value}")
    if value > maximum:
        raise reject(f"{what} of {value} is absurd (at most {maximum})")
    return value


def flag(value: Any, what: str) -> bool:
    """Check a yes/no value from an input: JSON's true or false, nothing that merely looks like one."""
    if not isinstance(value, bool):
        raise reject(f"{what} must be true or false, not {value!r}")
    return value


def known_keys(given: Mapping[str, Any], allowed: Set[str], where: str) -> None:
    """Refuse a key nobody reads (a typo would otherwise be ignored without a word)."""
    unknown = set(given) - allowed
    if unknown:
        raise reject(f"{where}: unknown key {sorted(unknown)[0]!r} (known: {', '.join(sorted(allowed))})")


#: The categories of characters a name may not hold: controls (a terminal's escapes), format characters (bidi
#: marks and overrides, zero-width spaces and joiners, the soft hyphen), lone surrogates (not Unicode text),
#: private use and unassigned code points (drawn as anything or nothing), and line and paragraph separators;
#: space separators too, but the plain space.
UNSHOWN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
#: Characters Unicode calls default-ignorable (drawn as nothing) outside those categories: the Hangul fillers, the
#: combining grapheme joiner, the Khmer inherent vowels, the Mongolian and other variation selectors; and the braille
#: blank, drawn as a space.
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
                          + "".join(map(chr, range(0xFE00, 0xFE10))) + "".join(map(chr, range(0xE0100, 0xE01F0))))


def printable_name(name: str) -> bool:
    """A name screens and terminals show as it is, one look to one name: no character of
    :data:`UNSHOWN_CATEGORIES` (the plain space aside) nor of :data:`BLANK_LETTERS`, so that "Ann" and "An\u200bn"
    cannot both sit at the table. (Look-alike letters of other scripts, Cyrillic "А" for Latin "A", are letters:
    the host sees both names at the table and renames one.)"""
    return not any(c in BLANK_LETTERS or (c != " " and unicodedata.category(c) in UNSHOWN_CATEGORIES) for c in name)


def money(amount: int) -> str:
    return f"${amount}"


@dataclass(frozen=True)
class Throw:
    """One thing thrown for a roll prompt: a die, or magie-1924's chance cube.

    Adapters (buttons, roller, phones) ask :meth:`Ruleset.throws` what a roll needs and hand the values
    to :meth:`Ruleset.roll_line`, so none of them needs to know a ruleset's extras.
    """

    label: str  # what a screen calls it: "Die 1", "Cube"
    faces: tuple[int, ...]  # the values it can show, in the order of a six-sided die's 1 to 6
    key: str = "roll"  # where its value goes in the input: appended to "roll", or its own key ("cube")


@dataclass(frozen=True)
class Preset:
    """Options a host's set-up offers as one choice (a board file's ``[presets.ID]``): "Official short game"."""

    id: str
    text: str  # the choice's one line
    options: Mapping[str, Any]  # the options it sets


class Ruleset:
    """Base of every ruleset. Subclasses declare kinds, decks, effects and handlers."""

    id: ClassVar[str] = ""
    kinds: ClassVar[Mapping[str, KindRule]] = {}
    deck_names: ClassVar[frozenset[str]] = frozenset()
    effects: ClassVar[frozenset[str]] = frozenset()
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    #: Whole-number options with a narrower range than "0 or more" (a share, a throw, a count of cards): inclusive.
    option_bounds: ClassVar[Mapping[str, tuple[int, int]]] = {}
    pool_names: ClassVar[tuple[str, ...]] = ()
    #: Decks whose cards are held face down: a phone sees only its own (addon's travel cards).
    secret_decks: ClassVar[frozenset[str]] = frozenset()
    dice_count: ClassVar[int] = 2
    die_faces: ClassVar[int] = 6
    #: Voluntary acts on one of the actor's own spaces (``{"do": verb, "space": id}``), in the order a player looks
    #: for them (building, mortgages, signs): see :meth:`candidate_acts`.
    space_verbs: ClassVar[tuple[str, ...]] = ()

    def __init__(self, board: Board) -> None:
        if board.ruleset != self.id:
            raise ValueError(f"{board.source} is a board for {board.ruleset!r}, not {self.id!r}")
        self.board = board
        self._tasks: dict[str, Callable[..., None]] = {}
        self._answers: dict[str, Callable[[Draft, str, dict[str, Any]], None]] = {}
        self._verbs: dict[str, Callable[[Draft, str, Mapping[str, Any]], None]] = {}
        self._host_verbs: dict[str, Callable[[Draft, Mapping[str, Any]], None]] = {}
        self._rolls: dict[str, Callable[[Draft, list[int], Mapping[str, Any]], None]] = {}
        for attr in dir(type(self)):
            for prefix, table in (
                ("task_", self._tasks),
                ("answer_", self._answers),
                ("verb_", self._verbs),
                ("host_", self._host_verbs),
                ("roll_", self._rolls),
            ):
                if attr.startswith(prefix) and attr not in NOT_HANDLERS:
                    table[attr[len(prefix):].replace("_", "-")] = getattr(self, attr)
        self._roll_keys = frozenset({"roll", *self.roll_extras()})
        self.presets = self._presets()

    # ================================================================== public API
    def verbs(self) -> list[str]:
        """The voluntary actions (``act`` verbs) this ruleset accepts."""
        return sorted(self._verbs)

    def host_verbs(self) -> list[str]:
        """The actions only the host may take (``act`` with player ``"host"``)."""
        return sorted(self._host_verbs)

    def new_game(self, setup: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """Build the first state from a ``setup`` object (DESIGN.md's game file format)."""
        if not isinstance(setup, Mapping):
            raise reject("setup must be an object")
        unknown = set(setup) - {"ruleset", "players", "seed", "options", "stack", "deal", "start"}
        if unknown:
            raise reject(f"unknown setup key {sorted(unknown)[0]!r}")
        names = setup.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise reject("setup.players must be a list of names")
        if not self.board.min_players <= len(names) <= self.board.max_players:
            raise reject(f"{self.id} is for {self.board.min_players} to {self.board.max_players} players, not {len(names)}")
        if len(set(names)) != len(names):
            raise reject("player names must differ")
        for n in names:
            if n.strip() != n or n.lower() in RESERVED_NAMES or len(n) > 24 or not printable_name(n):
                raise reject(f"{n!r} cannot be a player's name")
        seed = setup.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise reject("setup.seed must be a whole number")
        options = self._options(setup.get("options", {}))
        state: State = {
            "ruleset": self.id,
            "seq": 0,
            "players": [self.new_player(n, options) for n in names],
            "spaces": {s.id: self.new_space(s.id) for s in self.board.ownable()},
            "pools": {p: 0 for p in self.pools(options)},
            "bank": self.new_bank(options),
            "turn": {"player": names[0], "number": 1},
            "prompt": None,
            "log": [],
            "winner": None,
            "options": options,
            "seed": seed,
            "decks": self._decks(seed, setup.get("stack", {})),
            "queue": [],
            "bank_balance": 0,
        }
        d = Draft(state)
        try:
            self.setup(d, setup)
        except IllegalInput:
            raise
        except (TypeError, AttributeError, KeyError, IndexError, ValueError) as error:
            # A value of the wrong shape deep in setup.start or setup.deal (a list where a name goes...): a
            # rejection with its reason, never a crash.
            raise reject(f"setup: a value of the wrong type ({type(error).__name__}: {error})") from None
        self.run(d)
        d.barrier = True
        return self._finish(d, None), d.events

    def apply(self, state: State, line: Mapping[str, Any], *, table: bool = True) -> tuple[State, list[Event]]:
        """Apply one input line; raises :class:`IllegalInput` (state untouched) if it is refused.

        ``table=False`` is the simulation path: the same rules give the same state and events, without what only a
        table reads: no undo record (``undo`` is None: an undo is refused), no log lines (``log`` stays as it
        was), and the costlier sentences made only when read (:func:`~companion.engine.draft.sentence`).
        tests/test_sim_path.py holds the two paths equal.
        """
        if type(line) is not dict and not isinstance(line, Mapping):  # isinstance of an ABC is slow: dict first
            raise reject("an input must be a JSON object")
        if "setup" in line:
            raise reject("this game is already set up")
        if "undo" in line:
            return self._undo(state, line)
        if state["winner"] is not None:
            raise reject(f"the game is over: {state['winner']} won")
        d = Draft(state, words=table)
        extra = len(line) > 1  # the usual line has one key, the one dispatched on: nothing to check
        if "roll" in line:
            if extra:
                self._check_keys(line, self._roll_keys)
            self._on_roll(d, line)
        elif "answer" in line:
            if extra:
                self._check_keys(line, ANSWER_KEYS)
            self._on_answer(d, line["answer"])
        elif "act" in line:
            if extra:
                self._check_keys(line, ACT_KEYS)
            self._on_act(d, line["act"])
        else:
            raise reject(f"unknown input {next(iter(line), '(empty)')!r}: expected roll, answer, act or undo")
        self.run(d)
        self.settled(d)
        if not table:
            state = d.finish(log=False)
            state["seq"] += 1
            state["undo"] = None
            return state, d.events
        return self._finish(d, line, state), d.events

    def public(self, state: State, *, hide_secrets: bool = False, viewer: str | None = None) -> State:
        """The state as DESIGN.md shows it: without the seed, deck order, queue or undo data.

        ``hide_secrets`` (a phone's view): cards of secret decks held by anyone but ``viewer`` read
        ``<deck>-hidden``, so a phone learns how many travel cards the others hold, not which.
        """
        public = {k: v for k, v in state.items() if k not in PRIVATE_KEYS}
        if hide_secrets and self.secret_decks:
            cards = self.board.cards
            public["players"] = [
                p if p["name"] == viewer else
                {**p, "cards": [c if cards[c].deck not in self.secret_decks else f"{cards[c].deck}-hidden"
                                for c in p["cards"]]}
                for p in state["players"]
            ]
        return public

    # ================================================================== hooks for rulesets
    def pools(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The finite money pools of a game with these options (the ruleset's own; options may add one)."""
        return self.pool_names

    def new_player(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"name": name, "cash": 0, "space": self.board.spaces[0].id, "in_jail": False,
                "bankrupt": False, "cards": [], "laps": 0}

    def new_space(self, space_id: str) -> dict[str, Any]:
        return {"owner": None}

    def new_bank(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def setup(self, d: Draft, setup: Mapping[str, Any]) -> None:
        """Deal, pay start money, place tokens; push the first tasks."""
        raise NotImplementedError

    def roll_extras(self) -> set[str]:
        """Keys allowed beside ``roll`` in a roll input (the 1924 chance cube)."""
        return set()

    def throws(self, prompt: Mapping[str, Any]) -> tuple[Throw, ...]:
        """What a roll prompt needs thrown: its dice (rulesets add their extras, such as a cube)."""
        faces = tuple(range(1, self.die_faces + 1))
        count = prompt.get("dice", self.dice_count)
        return tuple(Throw(f"Die {i}", faces) for i in range(1, count + 1))

    def candidate_acts(self, state: State, name: str) -> list[dict[str, Any]]:
        """Voluntary acts ``name`` might make now, each a whole input's ``act`` with nothing left to type — as
        python-chess generates pseudo-legal moves: the engine may still refuse some. The table's buttons try them
        and offer the ones taken, so that a player without a phone can build, mortgage, borrow. By default,
        :attr:`space_verbs` on each of their own spaces; rulesets add theirs."""
        own = [sid for sid, rec in (state.get("spaces") or {}).items() if rec.get("owner") == name]
        return [{"player": name, "do": verb, "space": sid} for verb in self.space_verbs for sid in own]

    def legal_acts(self, state: State, name: str) -> list[dict[str, Any]]:
        """The :meth:`candidate_acts` the engine takes now, each tried on ``state`` (which stays as it was), as
        python-chess filters its pseudo-legal moves: what a phone or the buttons can offer without a refusal."""
        return [act for act, _ in self.judged_acts(state, name)[0]]

    def judged_acts(self, state: State, name: str) -> tuple[list[tuple[dict[str, Any], list[Event]]],
                                                            list[tuple[dict[str, Any], str]]]:
        """The :meth:`candidate_acts` tried on ``state``: those the engine takes now, each with the events it would
        bring (what it pays or costs), and those it refuses, each with its reason ("build evenly, ..."), so that a
        phone can say why a deed offers no Build."""
        legal: list[tuple[dict[str, Any], list[Event]]] = []
        refused: list[tuple[dict[str, Any], str]] = []
        for act in self.candidate_acts(state, name):
            try:
                legal.append((act, self.apply(state, {"act": act}, table=False)[1]))
            except IllegalInput as error:
                refused.append((act, str(error)))
        return legal, refused

    def roll_line(self, prompt: Mapping[str, Any], values: Sequence[int]) -> dict[str, Any]:
        """The roll input for ``values``, one per :meth:`throws` of ``prompt``, in that order."""
        line: dict[str, Any] = {"roll": []}
        for throw, value in zip(self.throws(prompt), values, strict=True):
            if throw.key == "roll":
                line["roll"].append(value)
            else:
                line[throw.key] = value
        return line

    # ================================================================== inputs
    @staticmethod
    def _check_keys(line: Mapping[str, Any], allowed: Set[str]) -> None:
        if len(line) == 1:  # the usual line: its one key is the one the caller dispatched on
            return
        extra = set(line) - allowed
        if extra:
            raise reject(f"unexpected key {sorted(extra)[0]!r} in this input")

    def _on_roll(self, d: Draft, line: Mapping[str, Any]) -> None:
        prompt = d.state["prompt"]
        if prompt is None or prompt["kind"] != "roll":
            raise reject(f"nobody is rolling now: the game waits for {self.waiting_for(d.state)}")
        dice = line["roll"]
        count = prompt.get("dice", self.dice_count)
        if not isinstance(dice, list) or len(dice) != count:
            raise reject(f"this roll needs {count} {'die' if count == 1 else 'dice'}, as a list like {[3] * count}")
        for value in dice:
            if type(value) is not int or not 1 <= value <= self.die_faces:  # JSON's whole numbers; not bool
                raise reject(f"a die shows 1 to {self.die_faces}, not {value!r}")
        d.state["prompt"] = None
        d.barrier = True
        self._rolls[prompt.get("purpose", "turn")](d, list(dice), {**prompt, **line})

    def _on_answer(self, d: Draft, value: Any) -> None:
        prompt = d.state["prompt"]
        if prompt is None or not prompt["options"]:
            raise reject(f"there is no question to answer: the game waits for {self.waiting_for(d.state)}")
        if value not in prompt["options"]:
            options = prompt["options"]
            listed = ", ".join(options) if len(options) <= 8 else f"one of the {len(options)} in prompt.options"
            raise reject(f"{value!r} is not an answer to {prompt['text']!r} (options: {listed})")
        d.state["prompt"] = None
        self._answers[prompt["kind"]](d, value, prompt)

    def _on_act(self, d: Draft, act: Any) -> None:
        if type(act) is not dict and not isinstance(act, Mapping):
            raise reject("act must be an object with player and do")
        player, verb = act.get("player"), act.get("do")
        if not isinstance(player, str) or not isinstance(verb, str):
            raise reject("act needs a player name and a verb (do)")
        if player == "host":
            handler = self._host_verbs.get(verb)
            if handler is None:
                raise reject(f"unknown host action {verb!r} (known: {', '.join(self.host_verbs()) or 'none'})")
            handler(d, act)
        else:
            handler_p = self._verbs.get(verb)
            if handler_p is None:
                raise reject(f"unknown action {verb!r} (known: {', '.join(self.verbs()) or 'none'})")
            if d.player(player)["bankrupt"]:
                raise reject(f"{player} is out of the game")
            handler_p(d, player, act)
        self.resume(d)

    def resume(self, d: Draft) -> None:
        """After a voluntary act: let a waiting debt be paid once the debtor can pay it."""

    def settled(self, d: Draft) -> None:
        """After any input and all it set off (payments, moves), before the game waits again: what must hold
        between inputs (a waiting offer that can still be accepted)."""

    def check_spending(self, d: Draft, name: str, doing: str) -> None:
        """Refuse an act that spends or gives away ``name``'s money when it may not (a debt waits)."""

    def waiting_for(self, state: State) -> str:
        """What the game waits for, as the end of a sentence ("the game waits for Ann to roll")."""
        prompt = state["prompt"]
        if prompt is None:
            return "nothing"
        who = prompt.get("player")
        if prompt["kind"] == "roll" and who:
            return f"{who} to roll"
        return f"{who}: {prompt['text']}" if who else f"bids: {prompt['text']}" if prompt["kind"] == "auction" \
            else prompt["text"]

    def require_prompt(self, d: Draft, kind: str, player: str | None = None) -> dict[str, Any]:
        """The current prompt if it is of ``kind`` (and for ``player``), else a rejection."""
        prompt = d.state["prompt"]
        if prompt is None or prompt["kind"] != kind:
            raise reject(f"that is not possible now: the game waits for {self.waiting_for(d.state)}")
        if player is not None and prompt.get("player") != player:
            raise reject(f"it is {prompt.get('player')}'s {kind}, not {player}'s")
        return prompt

    # ================================================================== queue
    def run(self, d: Draft) -> None:
        """Run queued tasks until one asks a question or the game is over."""
        s = d.state
        tasks = self._tasks
        while s["prompt"] is None and s["winner"] is None:
            queue = s["queue"]  # read each time: a task may replace the queue (a bankruptcy, the end)
            if not queue:
                raise RuntimeError(f"{self.id}: nothing to do and nothing asked (engine bug)")
            task = queue.pop(0)
            tasks[task[0]](d, *task[1:])

    def interrupt(self, d: Draft, *tasks: Task) -> None:
        """Run tasks now, in the middle of a prompt, then ask the same question again.

        An auction is never interrupted (the tasks could open another one over it): its tasks run
        as soon as it ends, before anything else queued.
        """
        prompt = d.state["prompt"]
        if prompt is not None and prompt["kind"] == "auction":
            d.push(*tasks)
            return
        d.push(*tasks, ["ask-again", prompt])
        d.state["prompt"] = None

    def task_ask_again(self, d: Draft, prompt: dict[str, Any] | None) -> None:
        d.state["prompt"] = prompt
        self.resume(d)  # what ran in between may have settled or changed the question (a creditor left the game)

    # ================================================================== ledger
    def balance(self, d: Draft, account: str) -> int:
        if account == "bank":
            return d.state["bank_balance"]
        if account in d.state["pools"]:
            return d.state["pools"][account]
        return d.player(account)["cash"]

    def transfer(self, d: Draft, src: str, dst: str, amount: int, reason: str = "") -> None:
        """Move money between two accounts (players, ``bank``, pools); the total never changes."""
        if amount <= 0 or src == dst:
            return
        s = d.state
        pools = s["pools"]
        if src == "bank":
            s["bank_balance"] -= amount
        elif src in pools:
            pools[src] -= amount
        else:
            d.player(src)["cash"] -= amount
        if dst == "bank":
            s["bank_balance"] += amount
        elif dst in pools:
            pools[dst] += amount
        else:
            d.player(dst)["cash"] += amount
        # d.tell's work, written out: this runs on every payment
        d.events.append({"kind": "pay", "text": pay_sentence(src, dst, amount, reason) if d.words else
                         partial(pay_sentence, src, dst, amount, reason), "payer": src, "payee": dst, "amount": amount,
                         "reason": reason})

    def account_name(self, account: str) -> str:
        return ACCOUNT_NAMES.get(account, account)

    # ================================================================== decks
    def _decks(self, seed: int, stack: Any) -> dict[str, list[str]]:
        decks = {name: shuffled(ids, seed, f"deck:{name}") for name, ids in self.board.decks.items()}
        if not isinstance(stack, Mapping):
            raise reject("setup.stack must map deck names to lists of card ids")
        for deck, ids in stack.items():
            if deck not in decks:
                raise reject(f"setup.stack: unknown deck {deck!r}")
            if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids) or len(set(ids)) != len(ids):
                raise reject(f"setup.stack.{deck} must list distinct card ids")
            for card in ids:
                if card not in decks[deck]:
                    raise reject(f"setup.stack.{deck}: {card!r} is not a card of that deck")
            decks[deck] = list(ids) + [c for c in decks[deck] if c not in ids]
        return decks

    def draw(self, d: Draft, deck_name: str) -> str | None:
        """Take the top card of a deck (chance is revealed: no undo past this input)."""
        deck = d.deck(deck_name)
        d.barrier = True
        if not deck:
            return None
        return deck.pop(0)

    def to_bottom(self, d: Draft, card: str) -> None:
        d.deck(self.board.cards[card].deck).append(card)

    def take_from_deck(self, d: Draft, card: Any) -> None:
        """Take a named card out of its deck (a starting hand); rejects unknown or already dealt cards."""
        if not isinstance(card, str) or card not in self.board.cards:
            raise reject(f"unknown card {card!r}")
        deck = d.deck(self.board.cards[card].deck)
        if card not in deck:
            raise reject(f"card {card} is dealt twice")
        deck.remove(card)

    def deal_hands(self, d: Draft, deal: Any) -> None:
        """Give the starting hands of ``setup.deal`` ({player: [card ids]}) from the decks."""
        if deal is None:
            return
        if not isinstance(deal, Mapping):
            raise reject("setup.deal must map player names to lists of card ids")
        for name, cards in deal.items():
            d.player(name)
            if not isinstance(cards, list):
                raise reject(f"setup.deal.{name} must be a list of card ids")
            for card in cards:
                self.take_from_deck(d, card)
                self.receive_card(d, name, card)

    def receive_card(self, d: Draft, name: str, card: str) -> None:
        """Put a card in a player's hand (rulesets whose cards are deeds also hand over the space)."""
        d.give_card(name, card)

    # ================================================================== options
    def _options(self, given: Any) -> dict[str, Any]:
        if not isinstance(given, Mapping):
            raise reject("setup.options must be an object")
        options = dict(self.board.options)
        for name, value in given.items():
            if name not in options:
                raise reject(f"unknown option {name!r} for {self.id} (known: {', '.join(sorted(options)) or 'none'})")
            default = options[name]
            if name in self.option_choices:
                if value not in self.option_choices[name]:
                    choices = ", ".join(map(str, self.option_choices[name]))
                    raise reject(f"option {name} must be one of {choices}, not {value!r}")
            elif isinstance(default, bool) != isinstance(value, bool) or type(default) is not type(value):
                raise reject(f"option {name} must be {TYPE_WORDS.get(type(default), type(default).__name__)}, not {value!r}")
            elif isinstance(value, int) and not isinstance(value, bool):
                whole(value, f"option {name}")
                low, high = self.option_bounds.get(name, (0, MAX_AMOUNT))
                if not low <= value <= high:
                    limits = f"from {low} to {high}" if high < MAX_AMOUNT else f"at least {low}"
                    raise reject(f"option {name} must be {limits}, not {value}")
            options[name] = self.check_option(name, value)
        return options

    def _presets(self) -> tuple[Preset, ...]:
        """The board file's ``[presets]``, each a set of options the engine accepts (else a ``BoardError``)."""
        found = []
        for preset_id, given in (self.board.data.get("presets") or {}).items():
            where = f"{self.board.source}: presets.{preset_id}"
            if not isinstance(given, Mapping) or not isinstance(given.get("text"), str) \
                    or not isinstance(given.get("options"), Mapping) or set(given) != {"text", "options"}:
                raise BoardError(f"{where}: expected text = \"...\" and options = {{ NAME = VALUE, ... }}")
            try:
                self._options(given["options"])
            except IllegalInput as error:
                raise BoardError(f"{where}: {error}") from None
            found.append(Preset(preset_id, given["text"], MappingProxyType(dict(given["options"]))))
        return tuple(found)

    def check_option(self, name: str, value: Any) -> Any:
        """Ruleset-specific checks of an option's value."""
        return value

    # ================================================================== turns
    def next_player(self, d: Draft, name: str) -> str:
        players = d.state["players"]
        n, i = len(players), d.seat(name)
        for k in range(1, n + 1):
            candidate = players[(i + k) % n]
            if not candidate["bankrupt"]:
                return candidate["name"]
        return name

    def task_next_turn(self, d: Draft) -> None:
        """Pass the turn to the next player still in the game (the ruleset's ``turn`` task asks for the roll)."""
        s = d.state
        nxt = self.next_player(d, s["turn"]["player"])
        s["turn"] = {"player": nxt, "number": s["turn"]["number"] + 1}
        self._tasks["turn"](d, nxt)  # the ruleset's turn task, at once (as the queue would run it next)

    # ================================================================== undo
    def _undo(self, state: State, line: Mapping[str, Any]) -> tuple[State, list[Event]]:
        self._check_keys(line, UNDO_KEYS)
        if type(line["undo"]) is not int or line["undo"] != 1:  # JSON's 1, not true or 1.0
            raise reject("undo takes back one input: {\"undo\": 1}")
        history = state.get("undo")
        if history and not history["inputs"] and history.get("cut"):
            raise reject(f"nothing more to undo: only the last {UNDO_DEPTH} inputs since a roll or a card can be "
                         "taken back")
        if not history or not history["inputs"]:
            raise reject("nothing to undo: the last input revealed chance (a roll or a card) or started the game")
        base, inputs = history["base"], history["inputs"]
        restored = base
        for earlier in inputs[:-1]:
            restored, _ = self.apply(restored, earlier)
        restored = dict(restored)
        restored["undo"] = {**history, "inputs": inputs[:-1]}
        restored["seq"] = state["seq"] + 1
        text = f"Undone: {self.describe(inputs[-1])}"
        put_back = self.undo_instructions(state, restored)
        restored["log"] = [*restored["log"], text, *(e["text"] for e in put_back)][-20:]
        return restored, [{"kind": "undo", "text": text}, *put_back]

    def undo_instructions(self, before: State, after: State) -> list[Event]:
        """What the table must put back by hand when an input is undone (its tokens; rulesets add their pieces)."""
        events = []
        now = {p["name"]: p.get("space") for p in after["players"]}
        for p in before["players"]:
            back = now.get(p["name"])
            if back is not None and back != p.get("space"):
                events.append({"kind": "move", "text": f"Move {p['name']}'s token back to {self.board.by_id[back].name}",
                               "player": p["name"], "to": back, "undo": True})
        return events + self.undo_card_instructions(before, after)

    def undo_card_instructions(self, before: State, after: State) -> list[Event]:
        """The cards the undone input moved between a hand and its deck, or between two hands."""
        held_now = {c: p["name"] for p in before["players"] for c in p.get("cards", [])}
        held_then = {c: p["name"] for p in after["players"] for c in p.get("cards", [])}
        events = []
        for card in sorted(set(held_now) | set(held_then)):
            now, then = held_now.get(card), held_then.get(card)
            if now == then:
                continue
            what, deck = self.card_name(card), self.board.cards[card].deck.replace("-", " ")
            if now is not None and then is not None:
                text = f"Take {what} from {now} and give it back to {then}"
            elif then is not None:
                text = f"Give {then} back {what} from the {deck} deck"
            else:
                text = f"Take {what} back from {now}: it goes back in the {deck} deck"
            events.append({"kind": "card", "text": text, "card": card, "player": then or now, "undo": True})
        return events

    def describe(self, line: Mapping[str, Any]) -> str:
        """An input in short words, spaces and cards by their names: "Ann mortgage Reading Railroad"."""
        def name(value: Any) -> str:
            if isinstance(value, list):
                return names_of(name(v) for v in value)
            if isinstance(value, str) and value in self.board.by_id:
                return self.board.by_id[value].name
            if isinstance(value, str) and value in self.board.cards:
                return self.card_name(value)
            return str(value)

        if "act" in line:
            act = dict(line["act"])
            who, verb = act.pop("player", "?"), str(act.pop("do", "?")).replace("-", " ")
            rest = " ".join(name(v) for v in act.values() if not isinstance(v, Mapping))
            return f"{who} {verb} {rest}".strip()
        if "answer" in line:
            return f"answer {name(line['answer'])}"
        return describe(line)

    def pool_name(self, pool: str) -> str:
        """A pool as people call it: "Tax pool", "Public treasury"."""
        words = pool.replace("-", " ")
        return words[:1].upper() + words[1:]

    def card_name(self, card_id: str) -> str:
        """A card as people name it: its text's first sentence when short ("Get out of jail free", "Travel forward
        2 spaces"), else its id in words ("Chance tax refund 100"); rulesets with named cards say more."""
        first = self.board.cards[card_id].text.split(".")[0].strip()
        if first and len(first) <= 32 and ":" not in first:
            return first
        words = card_id.replace("-", " ")
        return words[:1].upper() + words[1:]

    def _finish(self, d: Draft, line: Mapping[str, Any] | None, before: State | None = None) -> State:
        """The finished state with its undo record: the state after the last input that revealed chance (``base``)
        and the inputs since (``inputs``), at most :data:`UNDO_DEPTH` of them: at the next one the record starts
        again from the state ``before`` it, so a run of n inputs without a roll costs O(n), not O(n²), in time, in
        memory and in the journal's snapshots (a phone offering and withdrawing a trade for ever made 15,000)."""
        state = d.finish()
        if line is not None:
            state["seq"] += 1
        previous = state.get("undo")
        if d.barrier or previous is None:
            state["undo"] = {"base": without_undo(state), "inputs": []}
        elif len(previous["inputs"]) >= UNDO_DEPTH and before is not None:
            state["undo"] = {"base": without_undo(before), "inputs": [dict(line or {})], "cut": True}
        else:
            state["undo"] = {**previous, "inputs": [*previous["inputs"], dict(line or {})]}
        return state


#: The inputs an undo can take back one after another (since the last roll or card): more than a table ever undoes,
#: few enough that the record stays small (its inputs are copied at each input, and kept in every snapshot).
UNDO_DEPTH = 200


def without_undo(state: State) -> State:
    """A shallow copy of ``state`` without its undo record (an undo record's base)."""
    # Assigned over, never popped and re-added: a dict with a deleted key copies slowly (no clone).
    base = state.copy()
    base.pop("undo", None)
    return base


def pay_sentence(src: str, dst: str, amount: int, reason: str) -> str:
    """A payment in words: "Ann pays the bank $200 income tax" (accounts named as :meth:`Ruleset.account_name`)."""
    if src in TAKEN_FROM:
        text = f"{dst} takes ${amount} from {ACCOUNT_NAMES[src]}"
        return f"{text} {reason}".strip() if reason else text
    payer = ACCOUNT_NAMES.get(src, src)
    text = f"{payer[0].upper()}{payer[1:]} pays {ACCOUNT_NAMES.get(dst, dst)} ${amount}"
    return f"{text} {reason}".strip() if reason else text


def describe(line: Mapping[str, Any]) -> str:
    """A short description of an input line, for the story."""
    if "act" in line:
        act = dict(line["act"])
        who, verb = act.pop("player", "?"), act.pop("do", "?")
        rest = " ".join(f"{v}" for v in act.values() if not isinstance(v, Mapping))
        return f"{who} {verb} {rest}".strip()
    if "answer" in line:
        return f"answer {line['answer']}"
    if "roll" in line:
        return f"roll {line['roll']}"
    return str(dict(line))


def names_of(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
