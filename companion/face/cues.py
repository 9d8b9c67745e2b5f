"""What the table shows and says besides the OLED, worked out from each accepted input (pure: no devices, no clock).

For every :class:`~companion.table.Update` the seat lights, the buzzer and the voice get one :class:`Cues`:

* **lights** — the seats the table waits for (their turn, their answer, their bid, their debt), each ``steady`` or
  ``blink`` (a debt, or an auction, waits on them), and the seat whose doubles start a short chase; none between
  games (no game, or a winner);
* **sounds** — at most two short cues by name (:data:`SOUNDS`), the most telling of what happened first;
* **speech** — sentences built from the engine's events and the new prompt, with names (players, spaces), never ids,
  and amounts in words ("Bob pays two thousand dollars").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, State, find_ruleset
from companion.seats import Seat, seat_of, seats
from companion.table import Update
from companion.words import ENGLISH, Words

log = logging.getLogger(__name__)

#: The buzzer's cues, most telling first: an input that causes several plays the first of them (and "your-turn" when
#: the turn also passed).
SOUNDS = ("game-over", "jail", "auction", "doubles", "money-out", "money-in", "your-turn")


@dataclass(frozen=True)
class Cues:
    """What one input gives the lights, the buzzer and the voice."""

    lit: Mapping[int, str] = field(default_factory=dict)  # seat -> "steady" | "blink"
    chase: int | None = None  # the seat whose doubles start a chase round the table
    sounds: tuple[str, ...] = ()
    speech: tuple[str, ...] = ()
    prompt: str = ""  # what the table waits for now: speech about an older prompt is stale

    def as_json(self) -> dict[str, Any]:
        return {"lit": {str(k): v for k, v in sorted(self.lit.items())}, "chase": self.chase,
                "sounds": list(self.sounds), "speech": list(self.speech)}


def cues_of(before: State | None, state: State | None, events: Sequence[Event], words: Words = ENGLISH, *,
            speech: bool = True, seat_of_name: Mapping[str, int] | None = None) -> Cues:
    """The cues of the input that turned ``before`` into ``state`` with ``events`` (the voice's sentences in the
    language of ``words``; none when ``speech`` is False: nobody listens). ``seat_of_name``: each of ``state``'s
    players' seat (their index in turn order), when the caller keeps it (:class:`CueFeed`); else found here."""
    if state is None:
        return Cues()
    if seat_of_name is None:
        seat_of_name = {p["name"]: i for i, p in enumerate(state["players"])}
    prompt = state.get("prompt") or {}
    key = f"{state.get('seq')}:{prompt.get('kind', '')}:{prompt.get('player', '')}"
    return Cues(lit_seats(state, seat_of_name), doubles_seat(state, events),
                sounds_of(before, state, events, seat_of_name),
                tuple(sentences(before, state, events, words)) if speech else (), key)


def waited_for(state: State) -> dict[str, str]:
    """The players the table waits for, each ``steady`` or ``blink``."""
    prompt = state.get("prompt")
    if state.get("winner") or not prompt:
        return {}
    waiting: dict[str, str] = {}
    if prompt["kind"] == "auction":  # every bidder still in, but the highest, is to bid or pass
        for name in prompt.get("waiting", []):
            if name != prompt.get("bidder"):
                waiting[name] = "blink"
    elif prompt.get("player"):
        waiting[prompt["player"]] = "blink" if prompt["kind"] == "debt" else "steady"
    offer = state.get("trade")
    if offer and offer.get("with") and offer["with"] not in waiting:
        waiting[offer["with"]] = "steady"  # their answer to an offer
    return waiting


def lit_seats(state: State, seat_of_name: Mapping[str, int] | None = None) -> dict[int, str]:
    """The seats the table waits for, each ``steady`` or ``blink`` (``seat_of_name``: as :func:`cues_of`'s)."""
    waiting = waited_for(state)
    if not waiting:
        return {}
    if seat_of_name is None:  # seats.seat_of's, once for all
        seat_of_name = {p["name"]: i for i, p in enumerate(state["players"])}
    return {seat_of_name[name]: how for name, how in waiting.items() if name in seat_of_name}


def _doubles(event: Event) -> bool:
    dice = event.get("dice") or []
    return event["kind"] == "roll" and len(dice) >= 2 and dice[0] == dice[1]


def doubles_seat(state: State, events: Sequence[Event]) -> int | None:
    roll = next((e for e in events if _doubles(e)), None)
    return seat_of(state, roll.get("player")) if roll else None


def _jailed(event: Event) -> bool:
    return event["kind"] == "move" and not event.get("undo") and (
        bool(event.get("jail")) or str(event["text"]).endswith("is in jail"))


def sounds_of(before: State | None, state: State, events: Sequence[Event],
              players: Collection[str] | None = None) -> tuple[str, ...]:
    """The buzzer's cues of the input (``players``: the names of ``state``'s players, when the caller has them)."""
    if players is None:
        players = {p["name"] for p in state["players"]}
    heard: set[str] = set()
    prompt, earlier = state.get("prompt") or {}, (before or {}).get("prompt") or {}
    if state.get("winner") and not (before or {}).get("winner"):
        heard.add("game-over")
    for event in events:
        if _jailed(event):
            heard.add("jail")
        elif _doubles(event):
            heard.add("doubles")
        elif event["kind"] in ("pay", "debt") and event.get("payer", event.get("player")) in players:
            heard.add("money-out")
        elif event["kind"] == "pay" and event.get("payee") in players:
            heard.add("money-in")
    if prompt.get("kind") == "auction" and earlier.get("kind") != "auction":
        heard.add("auction")
    first = [s for s in SOUNDS[:-1] if s in heard][:1]
    turn = (state.get("turn") or {}).get("player")
    if "game-over" not in heard and before is not None and turn != (before.get("turn") or {}).get("player"):
        first.append("your-turn")
    return tuple(first)


# ====================================================================== speech
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """``2000`` -> "two thousand", ``1450`` -> "one thousand four hundred fifty"."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _ONES[n % 10])
    for size, word in ((1_000_000, "million"), (1000, "thousand"), (100, "hundred")):
        if n >= size:
            head, rest = divmod(n, size)
            return f"{number_words(head)} {word}" + (f" {number_words(rest)}" if rest else "")
    raise AssertionError(n)  # pragma: no cover - every n >= 100 has a size


def dollars(n: int) -> str:
    return f"{number_words(n)} dollar{'' if n == 1 else 's'}"


def spoken(text: str, words: Words = ENGLISH) -> str:
    """A text of the engine as said aloud: amounts in words ("$200" -> "two hundred dollars"). In another language
    the amounts are left to the voice, which reads "200 $" in its own language."""
    if not words.english:
        return text
    return re.sub(r"\$(\d+)", lambda m: dollars(int(m.group(1))), text)


def _amount(n: int, words: Words) -> str:
    return dollars(n) if words.english else words.money(n)


def _said(item: Mapping[str, Any], words: Words) -> str:
    """An event's or a prompt's sentence in the voice's language, amounts as said aloud."""
    if words.english or "msg" not in item:
        return spoken(str(item["text"]), words)
    return words.message(item["msg"], item.get("args") or {}, item.get("plural"))


def _space_name(state: State, space_id: str, words: Words = ENGLISH) -> str:
    board = find_ruleset(state["ruleset"]).board
    named = words.named("spaces", space_id)
    return named or (board.by_id[space_id].name if space_id in board.by_id else space_id)


def _buildings(record: Mapping[str, Any], words: Words = ENGLISH) -> str:
    if record.get("hotel"):
        return words.t(", with a hotel")
    houses = int(record.get("houses") or 0)
    if not houses:
        return ""
    if words.english:
        return f", with {number_words(houses)} house{'s' if houses > 1 else ''}"
    return words.nt(", with {n} house", ", with {n} houses", houses)


#: Events said as the engine wrote them (amounts in words); the others are said in sentences of their own below, or
#: not at all (the physical chores of the set-up and the deeds, read on the OLED while doing them).
SAID_AS_WRITTEN = ("card", "bankrupt", "hand-over", "winner", "trade", "undo")  # a bid: the auction's prompt says it


def sentences(before: State | None, state: State, events: Sequence[Event], words: Words = ENGLISH) -> list[str]:
    """What the voice says about one input: what happened, then what the table waits for now."""
    said: list[str] = []
    w = words
    landed: str | None = None  # the space the last move ended on: a rent paid there names its owner
    for event in events:
        kind = event["kind"]
        if kind == "roll" and _doubles(event):
            said.append(w.t("{player} rolls doubles.", player=event["player"]))
        elif kind == "move" and _jailed(event):
            said.append(w.t("{player} goes to jail.", player=event["player"]))
        elif kind == "move" and event.get("steps") and event.get("to"):
            landed = event["to"]
            said.append(w.t("{player} lands on {space}.", player=event["player"],
                            space=_space_name(state, event["to"], w)))
        elif kind in ("pay", "debt"):  # a debt: the payment that waits for the cash
            said.append(_payment(state, event, landed, w))
        elif kind in SAID_AS_WRITTEN:
            said.append(_said(event, w).rstrip(".") + ".")
    said.extend(_prompt_sentence(before, state, w))
    return said


def _payment(state: State, event: Event, landed: str | None, words: Words = ENGLISH) -> str:
    payer, payee = str(event.get("payer", event.get("player"))), str(event.get("payee", event.get("creditor")))
    amount = int(event["amount"])
    record = state.get("spaces", {}).get(landed or "", {})
    if landed and record.get("owner") == payee and payee != payer:  # the rent of the space landed on
        return words.t("{owner}'s{buildings}: {player} pays {amount}.", owner=payee,
                       buildings=_buildings(record, words), player=find_ruleset(state["ruleset"]).account_name(payer),
                       amount=_amount(amount, words))
    text = _said(event, words)
    return text[0].upper() + text[1:].rstrip(".") + "."


def _prompt_sentence(before: State | None, state: State, words: Words = ENGLISH) -> list[str]:
    prompt, earlier = state.get("prompt"), (before or {}).get("prompt")
    if state.get("winner") or not prompt:
        return []
    if earlier and (earlier.get("kind"), earlier.get("player"), earlier.get("text")) == \
            (prompt["kind"], prompt.get("player"), prompt["text"]):
        return []  # the same question still waits (an act beside it: a house built, a mortgage)
    who = prompt.get("player")
    if prompt["kind"] == "debt" and who:
        cash = next((p["cash"] for p in state["players"] if p["name"] == who), 0)
        short = int(prompt.get("amount", 0)) - int(cash)
        return [words.t("{player}, you are {amount} short: sell, mortgage or trade.", player=who,
                        amount=number_words(short) if words.english else words.number(short))]
    text = _said(prompt, words).rstrip(".")
    if who and who not in text:
        text = words.t("{player}, {question}", player=who, question=_after_name(text, prompt, words))
    return [text + ("" if text.endswith("?") else ".")]


def _after_name(question: str, prompt: Mapping[str, Any], words: Words) -> str:
    """The question as it follows "Ann, ": its first letter small where the language writes it so ("Ann, buy
    Boardwalk?", "Ann, acheter Boulevard de la Villette ?"), never where the question begins with a name (a
    space's, a card's: its template begins with a placeholder) nor in German, whose nouns keep their capital
    ("Ann, Oriental Avenue für 100 $ kaufen?", "Ann, Miete zahlen?")."""
    if words.english:
        return question[:1].lower() + question[1:]  # as the English always said it
    template = words.gettext(str(prompt["msg"])) if "msg" in prompt else question
    opening = len(question) - len(question.lstrip("¿¡"))  # Spanish opens a question with its mark: "¿comprar"
    if words.language == "de" or template.lstrip("¿¡").startswith("{"):
        return question
    return question[:opening] + question[opening:opening + 1].lower() + question[opening + 1:]


# ====================================================================== feeding the devices
CueTarget = Callable[[Cues, list[Seat]], None]


class CueFeed:
    """The table's listener for the lights, the buzzer and the voice: works out each update's cues once and hands
    them on with the players' seats. A target that fails is logged; the others and the game go on."""

    def __init__(self, words: Callable[[], Words] = lambda: ENGLISH) -> None:
        self.words = words  # the table's words now (the host menu may change its language)
        self._before: State | None = None
        self._targets: list[CueTarget] = []
        self._speech = False  # whether a target reads the speech: the sentences are worked out only then
        # the players' names, their seats and each name's seat (the cues' lit seats and sounds), kept
        self._seats: tuple[list[str], list[Seat], dict[str, int]] = ([], [], {})

    def add(self, target: CueTarget, *, speech: bool = True) -> None:
        """Tell ``target`` every input's cues; ``speech=False``: it never reads their speech (the lights, the buzzer)."""
        self._targets.append(target)
        self._speech = self._speech or speech

    def _seats_of(self, state: State | None) -> tuple[list[str], list[Seat], dict[str, int]]:
        """The names of ``state``'s players, their seats and each name's seat: worked out again only when their
        names (in turn order) changed."""
        names = [p["name"] for p in state["players"]] if state is not None else []
        if names != self._seats[0]:
            self._seats = (names, seats(state), {name: i for i, name in enumerate(names)})
        return self._seats

    def __call__(self, update: Update) -> None:
        fresh = bool(update.events) and update.events[0]["kind"] in ("new-game", "resumed")
        words = self.words() if self._speech else ENGLISH  # only the voice's sentences are in a language
        _, at_table, seat_of_name = self._seats_of(update.state)
        cues = cues_of(None if fresh else self._before, update.state, update.events, words, speech=self._speech,
                       seat_of_name=seat_of_name)
        self._before = update.state
        for target in self._targets:
            try:
                target(cues, list(at_table))  # each its own list: a target may keep it
            except Exception:  # noqa: BLE001 - a device's bug must not stop the others
                log.exception("cue target %r failed", target)
