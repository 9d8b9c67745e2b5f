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
from types import MappingProxyType
from typing import Any, ClassVar

from companion.errors import BoardError, IllegalInput

from .board import Board, KindRule
from .draft import Draft, Event, State, Task
from .messages import ACCOUNTS, Message, english, m, mp, n_, names_of, np_
from .rng import shuffled

RESERVED_NAMES = frozenset({"host", "bank", "tax-pool", "free-parking", "public-treasury", "railroad", "board", ""})
PRIVATE_KEYS = frozenset({"seed", "decks", "queue", "undo", "bank_balance"})
MAX_AMOUNT = 10_000_000
ACCOUNT_NAMES = MappingProxyType(dict(ACCOUNTS))
#: Pools a player takes from (the lander takes the Free Parking pool), which a payment's sentence says so of:
#: "Ann takes $350 from Free Parking", not "Free Parking pays Ann $350".
TAKEN_FROM = frozenset({"free-parking"})
#: Public methods whose names look like handlers (``host_verbs``, ``roll_extras``) but are not.
NOT_HANDLERS = frozenset({"host_verbs", "roll_extras"})
ANSWER_KEYS, ACT_KEYS, UNDO_KEYS = frozenset({"answer"}), frozenset({"act"}), frozenset({"undo"})
TYPE_WORDS = {bool: m("true or false"), int: m("a whole number"), float: m("a number"), str: m("a text")}


def reject(msgid: str, /, **args: Any) -> IllegalInput:
    """An :class:`IllegalInput` to ``raise``: a message (:mod:`.messages`), ``reject("{player} is out", player=p)``."""
    return refusal({"msg": msgid, "args": args})


def refusal(message: Message) -> IllegalInput:
    """An :class:`IllegalInput` to ``raise`` from a message made beforehand (a plural's, a chosen one)."""
    error = IllegalInput(message["msg"], message["args"], message.get("plural"))
    error.render = english
    return error


def whole(value: Any, what: Message | str, *, minimum: int = 0, maximum: int = MAX_AMOUNT) -> int:
    """Check an amount or count from an input: a whole number within bounds (``what``: what it is, a message)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise reject("{what} must be a whole number, not {value}", what=what, value=value)
    if value < minimum:
        raise reject("{what} must be at least {minimum}, not {n}", what=what, minimum=minimum, n=value)
    if value > maximum:
        raise reject("{what} of {n} is absurd (at most {maximum})", what=what, n=value, maximum=maximum)
    return value


def flag(value: Any, what: Message | str) -> bool:
    """Check a yes/no value from an input: JSON's true or false, nothing that merely looks like one."""
    if not isinstance(value, bool):
        raise reject("{what} must be true or false, not {value}", what=what, value=value)
    return value


def known_keys(given: Mapping[str, Any], allowed: Set[str], where: str) -> None:
    """Refuse a key nobody reads (a typo would otherwise be ignored without a word)."""
    unknown = set(given) - allowed
    if unknown:
        raise reject("{where}: unknown key {key} (known: {known})", where=where, key=sorted(unknown)[0],
                     known=", ".join(sorted(allowed)))


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
        self._space_names = {sid: space.name for sid, space in board.by_id.items()}  # every sentence names spaces
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

    def new_game(self, setup: Mapping[str, Any], *, table: bool = True) -> tuple[State, list[Event]]:
        """Build the first state from a ``setup`` object (DESIGN.md's game file format); ``table=False``: the
        simulation path (no sentence, no log, no undo record), as :meth:`apply`."""
        if not isinstance(setup, Mapping):
            raise reject("setup must be an object")
        unknown = set(setup) - {"ruleset", "players", "seed", "options", "stack", "deal", "start"}
        if unknown:
            raise reject("unknown setup key {key}", key=sorted(unknown)[0])
        names = setup.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise reject("setup.players must be a list of names")
        if not self.board.min_players <= len(names) <= self.board.max_players:
            raise reject("{ruleset} is for {minimum} to {maximum} players, not {count}", ruleset=self.id,
                         minimum=self.board.min_players, maximum=self.board.max_players, count=len(names))
        if len(set(names)) != len(names):
            raise reject("player names must differ")
        for n in names:
            if n.strip() != n or n.lower() in RESERVED_NAMES or len(n) > 24 or not printable_name(n):
                raise reject("{value} cannot be a player's name", value=n)
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
        d = Draft(state, words=table, namer=self)
        try:
            self.setup(d, setup)
        except IllegalInput as error:
            error.names = self
            raise
        except (TypeError, AttributeError, KeyError, IndexError, ValueError) as error:
            # A value of the wrong shape deep in setup.start or setup.deal (a list where a name goes...): a
            # rejection with its reason, never a crash.
            raise reject("setup: a value of the wrong type ({error})", error=f"{type(error).__name__}: {error}") \
                from None
        self.run(d)
        d.barrier = True
        if not table:
            state = d.finish(log=False)
            state["undo"] = None
            return state, d.events
        return self._finish(d, None), d.events

    def apply(self, state: State, line: Mapping[str, Any], *, table: bool = True) -> tuple[State, list[Event]]:
        """Apply one input line; raises :class:`IllegalInput` (state untouched) if it is refused.

        ``table=False`` is the simulation path: the same rules give the same state and events, without what only a
        table reads: no undo record (``undo`` is None: an undo is refused), no log lines (``log`` stays as it
        was), and no sentence (events without ``text``, a prompt's ``text`` None: their messages say it, and
        :func:`~companion.engine.draft.sentence` makes the English when read). tests/test_sim_path.py holds the two
        paths equal.
        """
        try:
            return self._apply(state, line, table)
        except IllegalInput as error:
            error.names = self  # its spaces and cards named as this ruleset's board prints them
            raise

    def _apply(self, state: State, line: Mapping[str, Any], table: bool) -> tuple[State, list[Event]]:
        if type(line) is not dict and not isinstance(line, Mapping):  # isinstance of an ABC is slow: dict first
            raise reject("an input must be a JSON object")
        if "setup" in line:
            raise reject("this game is already set up")
        if "undo" in line:
            return self._undo(state, line)
        if state["winner"] is not None:
            raise reject("the game is over: {winner} won", winner=state["winner"])
        d = Draft(state, words=table, namer=self)
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
            raise reject("unknown input {key}: expected roll, answer, act or undo", key=next(iter(line), "(empty)"))
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
        public = state.copy()  # in C, the keys in their order; then the few private ones taken out
        for key in PRIVATE_KEYS:
            public.pop(key, None)
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
                                                            list[tuple[dict[str, Any], IllegalInput]]]:
        """The :meth:`candidate_acts` tried on ``state``: those the engine takes now, each with the events it would
        bring (what it pays or costs), and those it refuses, each with its refusal (``str()``: the English reason,
        "build evenly, ..."; its ``message``: to say it in another language), so that a phone can say why a deed
        offers no Build."""
        legal: list[tuple[dict[str, Any], list[Event]]] = []
        refused: list[tuple[dict[str, Any], IllegalInput]] = []
        for act in self.candidate_acts(state, name):
            try:
                legal.append((act, self.apply(state, {"act": act}, table=False)[1]))
            except IllegalInput as error:
                refused.append((act, error))
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
            raise reject("unexpected key {key} in this input", key=sorted(extra)[0])

    def _on_roll(self, d: Draft, line: Mapping[str, Any]) -> None:
        prompt = d.state["prompt"]
        if prompt is None or prompt["kind"] != "roll":
            raise reject("nobody is rolling now: the game waits for {prompt}", prompt=self.waiting_for(d.state))
        dice = line["roll"]
        count = prompt.get("dice", self.dice_count)
        if not isinstance(dice, list) or len(dice) != count:
            raise refusal(mp("this roll needs {count} die, as a list like {example}",
                             "this roll needs {count} dice, as a list like {example}", count, example=str([3] * count)))
        for value in dice:
            if type(value) is not int or not 1 <= value <= self.die_faces:  # JSON's whole numbers; not bool
                raise reject("a die shows 1 to {maximum}, not {value}", maximum=self.die_faces, value=value)
        d.state["prompt"] = None
        d.barrier = True
        self._rolls[prompt.get("purpose", "turn")](d, list(dice), {**prompt, **line})

    def _on_answer(self, d: Draft, value: Any) -> None:
        prompt = d.state["prompt"]
        if prompt is None or not prompt["options"]:
            raise reject("there is no question to answer: the game waits for {prompt}",
                         prompt=self.waiting_for(d.state))
        if value not in prompt["options"]:
            options = prompt["options"]
            listed = m("{known}", known=", ".join(options)) if len(options) <= 8 else \
                m("one of the {count} in prompt.options", count=len(options))
            raise reject("{value} is not an answer to {question} (options: {listed})", value=value,
                         question=prompt_message(prompt), listed=listed)
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
                raise reject("unknown host action {key} (known: {known})", key=verb,
                             known=", ".join(self.host_verbs()) or m("none"))
            handler(d, act)
        else:
            handler_p = self._verbs.get(verb)
            if handler_p is None:
                raise reject("unknown action {key} (known: {known})", key=verb, known=", ".join(self.verbs()) or m("none"))
            if d.player(player)["bankrupt"]:
                raise reject("{player} is out of the game", player=player)
            handler_p(d, player, act)
        self.resume(d)

    def resume(self, d: Draft) -> None:
        """After a voluntary act: let a waiting debt be paid once the debtor can pay it."""

    def settled(self, d: Draft) -> None:
        """After any input and all it set off (payments, moves), before the game waits again: what must hold
        between inputs (a waiting offer that can still be accepted)."""

    def check_spending(self, d: Draft, name: str, doing: Message) -> None:
        """Refuse an act that spends or gives away ``name``'s money when it may not (a debt waits)."""

    def waiting_for(self, state: State) -> Message:
        """What the game waits for, as the end of a sentence ("the game waits for Ann to roll")."""
        prompt = state["prompt"]
        if prompt is None:
            return m("nothing")
        who = prompt.get("player")
        if prompt["kind"] == "roll" and who:
            return m("{player} to roll", player=who)
        return m("{player}: {prompt}", player=who, prompt=prompt_message(prompt)) if who else \
            m("bids: {prompt}", prompt=prompt_message(prompt)) if prompt["kind"] == "auction" else prompt_message(prompt)

    def require_prompt(self, d: Draft, kind: str, player: str | None = None) -> dict[str, Any]:
        """The current prompt if it is of ``kind`` (and for ``player``), else a rejection."""
        prompt = d.state["prompt"]
        if prompt is None or prompt["kind"] != kind:
            raise reject("that is not possible now: the game waits for {prompt}", prompt=self.waiting_for(d.state))
        if player is not None and prompt.get("player") != player:
            if kind in WHOSE:
                raise reject(WHOSE[kind], player=prompt.get("player"), other=player)
            raise reject("it is {player}'s {asked}, not {other}'s", player=prompt.get("player"), asked=kind,
                         other=player)
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

    def transfer(self, d: Draft, src: str, dst: str, amount: int, reason: Message | str = "") -> None:
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
        # d.say's work, written out: this runs on every payment (the message, then its details, in one dict)
        msgid, args = pay_message(src, dst, amount, reason)
        event = {"msg": msgid, "args": args, "kind": "pay", "payer": src, "payee": dst, "amount": amount,
                 "reason": reason}
        if d.words:
            event["text"] = english(event, self)
        d.events.append(event)

    def account_name(self, account: str) -> str:
        return ACCOUNT_NAMES.get(account, account)

    # ================================================================== names (messages.Names)
    def space_name(self, space_id: Any) -> str:
        """A space's printed name (a message's ``space`` argument); what was sent, when no space has that id (a
        refusal quoting an input)."""
        name = self._space_names.get(space_id) if isinstance(space_id, str) else None
        return name if name is not None else str(space_id)

    def deck_name(self, deck_id: str) -> str:
        """A deck's title (a message's ``deck`` argument): "Chance", "Community Chest"."""
        return {"chest": "Community Chest", "chance": "Chance"}.get(deck_id, deck_id.replace("-", " ").title())

    def card_text(self, card_id: str) -> str:
        """A card's printed text (a message's ``printed`` argument)."""
        return self.board.cards[card_id].text

    def cube_text(self, face: int) -> str:
        """A face of a chance cube, its printed text (a message's ``face_text``): magie-1924's; others have none."""
        return str(face)

    def say_text(self, kind: str, message: Message, **details: Any) -> Event:
        """An event made outside a draft (an undo's), its English sentence made at once (it is the table's)."""
        return {"kind": kind, "text": english(message, self), **message, **details}

    # ================================================================== decks
    def _decks(self, seed: int, stack: Any) -> dict[str, list[str]]:
        decks = {name: shuffled(ids, seed, f"deck:{name}") for name, ids in self.board.decks.items()}
        if not isinstance(stack, Mapping):
            raise reject("setup.stack must map deck names to lists of card ids")
        for deck, ids in stack.items():
            if deck not in decks:
                raise reject("setup.stack: unknown deck {value}", value=deck)
            if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids) or len(set(ids)) != len(ids):
                raise reject("setup.stack.{stack} must list distinct card ids", stack=deck)
            for card in ids:
                if card not in decks[deck]:
                    raise reject("setup.stack.{stack}: {value} is not a card of that deck", stack=deck, value=card)
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
            raise reject("unknown card {value}", value=card)
        deck = d.deck(self.board.cards[card].deck)
        if card not in deck:
            raise reject("card {ident} is dealt twice", ident=card)
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
                raise reject("setup.deal.{player} must be a list of card ids", player=name)
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
                raise reject("unknown option {key} for {ruleset} (known: {known})", key=name, ruleset=self.id,
                             known=", ".join(sorted(options)) or m("none"))
            default = options[name]
            if name in self.option_choices:
                if value not in self.option_choices[name]:
                    choices = ", ".join(map(str, self.option_choices[name]))
                    raise reject("option {option} must be one of {known}, not {value}", option=name, known=choices,
                                 value=value)
            elif isinstance(default, bool) != isinstance(value, bool) or type(default) is not type(value):
                raise reject("option {option} must be {what}, not {value}", option=name,
                             what=TYPE_WORDS.get(type(default), type(default).__name__), value=value)
            elif isinstance(value, int) and not isinstance(value, bool):
                whole(value, m("option {option}", option=name))
                low, high = self.option_bounds.get(name, (0, MAX_AMOUNT))
                if not low <= value <= high:
                    limits = m("from {minimum} to {maximum}", minimum=low, maximum=high) if high < MAX_AMOUNT else \
                        m("at least {minimum}", minimum=low)
                    raise reject("option {option} must be {what}, not {n}", option=name, what=limits,
                                 n=value)
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
            raise reject('undo takes back one input: {{"undo": 1}}')
        history = state.get("undo")
        if history and not history["inputs"] and history.get("cut"):
            raise reject("nothing more to undo: only the last {count} inputs since a roll or a card can be taken back",
                         count=UNDO_DEPTH)
        if not history or not history["inputs"]:
            raise reject("nothing to undo: the last input revealed chance (a roll or a card) or started the game")
        base, inputs = history["base"], history["inputs"]
        restored = base
        for earlier in inputs[:-1]:
            restored, _ = self.apply(restored, earlier)
        restored = dict(restored)
        restored["undo"] = {**history, "inputs": inputs[:-1]}
        restored["seq"] = state["seq"] + 1
        undone = self.say_text("undo", m("Undone: {input}", input=self.describe(inputs[-1])))
        put_back = self.undo_instructions(state, restored)
        restored["log"] = [*restored["log"], undone["text"], *(e["text"] for e in put_back)][-20:]
        return restored, [undone, *put_back]

    def undo_instructions(self, before: State, after: State) -> list[Event]:
        """What the table must put back by hand when an input is undone (its tokens; rulesets add their pieces)."""
        events = []
        now = {p["name"]: p.get("space") for p in after["players"]}
        for p in before["players"]:
            back = now.get(p["name"])
            if back is not None and back != p.get("space"):
                events.append(self.say_text("move", m("Move {player}'s token back to {space}", player=p["name"],
                                                      space=back), player=p["name"], to=back, undo=True))
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
            pile = self.board.cards[card].deck
            if now is not None and then is not None:
                said = m("Take {card} from {holder} and give it back to {taker}", card=card, holder=now, taker=then)
            elif then is not None:
                said = m("Give {taker} back {card} from the {pile} deck", taker=then, card=card, pile=pile)
            else:
                said = m("Take {card} back from {holder}: it goes back in the {pile} deck", card=card, holder=now,
                         pile=pile)
            events.append(self.say_text("card", said, card=card, player=then or now, undo=True))
        return events

    def describe(self, line: Mapping[str, Any]) -> Message:
        """An input in short words, spaces and cards by their names: "Ann mortgage Reading Railroad" (a message:
        its verb, the answer's word and the spaces and cards it names are said in the reader's language)."""
        def said(value: Any) -> Message:
            if isinstance(value, list):
                return m("{items}", items=[said(v) for v in value])
            if isinstance(value, str) and value in self.board.by_id:
                return m("{space}", space=value)
            if isinstance(value, str) and value in self.board.cards:
                return m("{card}", card=value)
            return m("{n}", n=value) if type(value) is int else m("{text}", text=str(value))

        if "act" in line:
            act = dict(line["act"])
            who, verb = act.pop("player", "?"), str(act.pop("do", "?"))
            doing: Message | str = m(VERBS[verb]) if verb in VERBS else verb.replace("-", " ")
            rest = [said(v) for v in act.values() if not isinstance(v, Mapping)]
            host = who == "host"
            if not rest:
                return m("host {doing}", doing=doing) if host else m("{player} {doing}", player=who, doing=doing)
            return m("host {doing} {spaced}", doing=doing, spaced=rest) if host else \
                m("{player} {doing} {spaced}", player=who, doing=doing, spaced=rest)
        if "answer" in line:
            answer = line["answer"]
            word = m(ANSWER_WORDS[answer]) if isinstance(answer, str) and answer in ANSWER_WORDS \
                and answer not in self.board.by_id else said(answer)
            return m("answer {said}", said=word)
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
        else:  # the record cloned and its inputs copied once with this one added (the same keys in the same order)
            undo = state["undo"] = previous.copy()
            inputs = undo["inputs"] = previous["inputs"].copy()
            inputs.append(dict(line or {}))
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


#: A move of so many spaces, forward or back, as the table is told it: (forward, how) -> (singular, plural). ``how``
#: is what a ruleset adds: a railroad pass taken, a move cut short at Wages (magie-1904, magie-1924).
STEPS = {
    (True, ""): np_("Move {player}'s token {count} space forward to {space}",
                    "Move {player}'s token {count} spaces forward to {space}"),
    (False, ""): np_("Move {player}'s token {count} space back to {space}",
                     "Move {player}'s token {count} spaces back to {space}"),
    (True, "pass"): np_("Move {player}'s token {count} space forward to {space} on the railroad pass",
                        "Move {player}'s token {count} spaces forward to {space} on the railroad pass"),
    (False, "pass"): np_("Move {player}'s token {count} space back to {space} on the railroad pass",
                         "Move {player}'s token {count} spaces back to {space} on the railroad pass"),
    (True, "wages"): np_("Move {player}'s token {count} space forward to {space} (the move stops at Wages)",
                         "Move {player}'s token {count} spaces forward to {space} (the move stops at Wages)"),
    (False, "wages"): np_("Move {player}'s token {count} space back to {space} (the move stops at Wages)",
                          "Move {player}'s token {count} spaces back to {space} (the move stops at Wages)"),
}


def steps_message(player: str, count: int, forward: bool, space_id: str, how: str = "") -> Message:
    """"Move Ann's token 3 spaces forward to Reading Railroad" (``how``: a key of :data:`STEPS`)."""
    singular, plural = STEPS[forward, how]
    return mp(singular, plural, count, player=player, space=space_id)


def rent_for(space_id: str) -> Message:
    """A rent's reason: "rent for Baltic Avenue" (the simulator's tally counts rents by this msgid)."""
    return m("rent for {space}", space=space_id)


def prompt_message(prompt: Mapping[str, Any]) -> Message:
    """A prompt's message (a prompt saved before prompts carried one: its text as it is)."""
    if "msg" not in prompt:
        return m("{text}", text=prompt.get("text"))
    said = {"msg": prompt["msg"], "args": prompt["args"]}
    if "plural" in prompt:
        said["plural"] = prompt["plural"]
    return said


#: A payment's msgids, (without a reason, with one), by who pays: taken from a pool, the bank, to the bank, a player.
PAY_TAKEN = (n_("{player} takes {amount} from {pool}"), n_("{player} takes {amount} from {pool} {reason}"))
PAY_BY_BANK = (n_("The bank pays {payee} {amount}"), n_("The bank pays {payee} {amount} {reason}"))
PAY_TO_BANK = (n_("{payer} pays the bank {amount}"), n_("{payer} pays the bank {amount} {reason}"))
PAY = (n_("{payer} pays {payee} {amount}"), n_("{payer} pays {payee} {amount} {reason}"))


def pay_message(src: str, dst: str, amount: int, reason: Message | str) -> tuple[str, dict[str, Any]]:
    """A payment's msgid and arguments: "Ann pays the bank $200 for Baltic Avenue", its reason a message of its own
    (or none: "")."""
    if src in TAKEN_FROM:
        return PAY_TAKEN[bool(reason)], {"player": dst, "amount": amount, "pool": src, "reason": reason}
    if src == "bank":
        return PAY_BY_BANK[bool(reason)], {"payee": dst, "amount": amount, "reason": reason}
    if dst == "bank":
        return PAY_TO_BANK[bool(reason)], {"payer": src, "amount": amount, "reason": reason}
    return PAY[bool(reason)], {"payer": src, "payee": dst, "amount": amount, "reason": reason}


def describe(line: Mapping[str, Any]) -> Message:
    """A short description of an input line, for the story (a message: :meth:`Ruleset.describe` names the spaces
    and cards; a roll and anything else are quoted as they came)."""
    if "act" in line:
        act = dict(line["act"])
        who, verb = act.pop("player", "?"), act.pop("do", "?")
        rest = " ".join(f"{v}" for v in act.values() if not isinstance(v, Mapping))
        return m("{text}", text=f"{who} {verb} {rest}".strip())
    if "answer" in line:
        return m("answer {said}", said=m("{text}", text=str(line["answer"])))
    if "roll" in line:
        return m("roll {dice}", dice=str(line["roll"]))
    return m("{text}", text=str(dict(line)))


#: Whose prompt it is, a sentence for each kind of prompt an act requires (:meth:`Ruleset.require_prompt`): "it is
#: Ann's roll, not Bob's". A kind not listed is named as it is.
WHOSE = {"roll": n_("it is {player}'s roll, not {other}'s"),
         "real-estate-office": n_("it is {player}'s real-estate-office, not {other}'s")}
#: The verbs of voluntary acts as the undo's sentence says them ("Undone: Ann build Baltic Avenue"): the English is
#: the verb with its hyphens as spaces; a verb not listed here is said so in every language.
VERBS = {"accept": n_("accept"), "bankrupt": n_("bankrupt"), "bid": n_("bid"), "borrow": n_("borrow"),
         "build": n_("build"), "buy-idle": n_("buy idle"), "improve": n_("improve"), "loan": n_("loan"),
         "mortgage": n_("mortgage"), "move-bridge": n_("move bridge"), "pass": n_("pass"), "pay-fine": n_("pay fine"),
         "reject": n_("reject"), "repay": n_("repay"), "sell": n_("sell"), "sell-idle": n_("sell idle"),
         "sign": n_("sign"), "trade": n_("trade"), "travel": n_("travel"), "unmortgage": n_("unmortgage"),
         "use-card": n_("use card"), "end-game": n_("end game"), "send-to-jail": n_("send to jail")}
#: The answers that are words, not spaces, cards or players, as the undo's sentence says them ("Undone: answer
#: yes"): the English is the answer as the input gives it.
ANSWER_WORDS = {word: word for word in (
    n_("yes"), n_("no"), n_("buy"), n_("draw"), n_("move"), n_("done"), n_("stay"), n_("out"), n_("flat"),
    n_("percent"), n_("rent"), n_("forward"), n_("backward"), n_("bankrupt"))}
