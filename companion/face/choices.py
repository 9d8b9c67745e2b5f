"""What PREV/NEXT browse at a prompt, and the input YES sends for each (pure: state in, choices out).

A prompt with options other than yes/no (subway destinations, where a building goes, income tax,
``chambers``' draw or move...) is browsed option by option. Before a roll the buttons also offer
what a player may do instead of or before rolling: pay the jail fine, play a kept card (a jail
card, a travel card). At every question of a player come their deeds ("Build, mortgage": a list of
every act of :meth:`~companion.engine.core.Ruleset.candidate_acts` the engine takes now,
:func:`deed_choices`): a debtor's sales, mortgages and bank loans first, a 1924 real estate office's
idle land, a buyer's mortgage one NEXT away from the yes/no question — so a table without phones can
build and raise money. An offer made on a phone is answered here too.

One press never does more than its row says, and the row the cursor starts on is harmless: at a roll prompt it is
the roll's own row ("Roll the dice"), where only ROLL rolls. A choice that spends the player's money, plays a card
or cannot be undone (it reveals a card, it ends a player's game) asks for a second YES ("Play Advance to GO? YES again"):
:func:`second_press`. Yes/no questions are answered by YES and NO themselves, as their hint says ("YES: buy $400").

*Extras* (:attr:`ButtonChoice.extra`) are never where the cursor starts: the deeds at a yes/no
question (YES and NO answer the question) and an offer's answers (the buttons do not know who
presses them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from companion.bids import quick_bids
from companion.engine import Event, IllegalInput, State, find_ruleset
from companion.engine.core import Ruleset
from companion.words import ENGLISH, N_, Words

from . import screens
from .screens import Labels

#: Options that end a player's game (or send them to the poorhouse): a second YES, and their words on the OLED.
DESTRUCTIVE = {"bankrupt": N_("Go bankrupt"), "out": N_("Leave the game"), "poorhouse": N_("Go to the poorhouse")}


@dataclass(frozen=True)
class ButtonChoice:
    """One thing the buttons browse: its label, the input YES sends (None: YES opens the player's deeds,
    :func:`deed_choices`), and the question asked first (if any)."""

    label: str
    line: dict[str, Any] | None
    confirm: str | None = None
    #: Taken only once PREV/NEXT has gone to it (the cursor never starts on it): the deeds at a yes/no question,
    #: whose YES and NO answer the question; an offer's answers, which may be another player's.
    extra: bool = False
    #: The roll's own row (the first at a roll prompt: a first press there never spends or plays); ROLL rolls, YES
    #: there only says so (a double YES must never roll the next player's dice).
    roll: bool = False


#: The first row at a roll prompt with other choices: the roll itself.
ROLL_CHOICE = ButtonChoice(screens.ROLL_LABEL, None, roll=True)


@lru_cache(maxsize=16)
def roll_choice(label: str) -> ButtonChoice:
    """:data:`ROLL_CHOICE` in a language (its ``label``): one object per language, not one per roll prompt's list."""
    return replace(ROLL_CHOICE, label=label)


#: How the OLED says each act: its words in a short list ("Build, mortgage", "Lift a mortgage, mortgage": never a
#: bare "Lift" to decode), and before what it acts on.
DEED_WORDS: Mapping[str, tuple[str, str]] = {
    "build": (N_("build"), N_("Build on {what}")),
    "unmortgage": (N_("lift a mortgage"), N_("Lift the mortgage on {what}")),
    "mortgage": (N_("mortgage"), N_("Mortgage {what}")), "sell": (N_("sell"), N_("Sell a building on {what}")),
    "improve": (N_("improve"), N_("Improve {what}")), "sign": (N_("sign"), N_("Put your sign on {what}")),
    "borrow": (N_("borrow"), N_("Borrow on {what}")), "repay": (N_("repay"), N_("Repay {what}")),
    "buy-idle": (N_("buy"), N_("Buy {what}")), "sell-idle": (N_("sell"), N_("Sell {what}")),
}


def prompt_choices(state: State, labels: Labels) -> list[ButtonChoice]:
    """What the buttons browse at the prompt: its options, the acts offered before a roll, the deeds of the
    prompt's player wherever money may be needed (a debt, a buy, a tax...), an offer's answers.

    ``state`` is the engine's whole state (as the table holds it), not the public one: the cards a player may
    play and the deeds are found by trying them. Every label worked out (the buttons' own list,
    :func:`browsed_choices`, works out the deeds entry's words only when they are read)."""
    return [c.choice() if isinstance(c, DeedsEntry) else c for c in browsed_choices(state, labels)]


def browsed_choices(state: State, labels: Labels, before: Sequence[Browsed] = ()) -> list[Browsed]:
    """:func:`prompt_choices`, the deeds entry a :class:`DeedsEntry` whose words are worked out when read (``before``:
    the list of a state before, whose entry says which act to try first)."""
    prompt = state.get("prompt") or {}
    entry = next((c for c in before if isinstance(c, DeedsEntry)), None)
    own, offers = prompt_own_choices(state, prompt, labels, entry), offer_answers(state, labels.words)
    if offers:  # beside another player's offer, whose deeds these are ("Ann: mortgage", not "Mortgage")
        whose = str(prompt.get("player"))
        own = [c.but(whose=whose) if isinstance(c, DeedsEntry) else
               replace(c, label=f"{whose}: {c.label[:1].lower()}{c.label[1:]}") if c.line is None else c for c in own]
    return [*own, *offers]


def prompt_own_choices(state: State, prompt: Mapping[str, Any], labels: Labels,
                       before: DeedsEntry | None = None) -> list[Browsed]:
    """The prompt's options (or bids, or acts before a roll) and the deeds of its player, in the order browsed
    (``before``: a deeds entry of a state before, :meth:`DeedsEntry.found`)."""
    options = prompt.get("options") or []
    player, kind = prompt.get("player"), prompt.get("kind")
    if kind == "auction":
        return list(auction_choices(state, prompt, labels.words))
    if not player:
        return [option_choice(state, prompt, option, labels) for option in options if options != ["yes", "no"]]
    entry = DeedsEntry.found(state, player, labels, before)
    deeds = [entry] if entry is not None else []
    if options == ["yes", "no"]:  # YES and NO answer it; the deeds are one NEXT away (buy after a mortgage)
        return [c.but(extra=True) for c in deeds]
    if kind in ("debt", "real-estate-office"):  # raising the money, the office's business: the deeds first
        return [*deeds, *(option_choice(state, prompt, option, labels) for option in options)]
    if kind == "roll":
        others: list[Browsed] = [*roll_extras(state, prompt, labels), *deeds]
        return [roll_choice(labels.words.t(ROLL_CHOICE.label)), *others] if others else []
    return [*(option_choice(state, prompt, option, labels) for option in options), *deeds]


def offer_answers(state: State, words: Words) -> list[ButtonChoice]:
    """A trade or loan offered (from a phone) to a player who may have none: accept (asked twice) or reject. Listed
    last, so that YES at a prompt never takes an offer by surprise."""
    offer = state.get("trade")
    if not offer:
        return []
    who = offer["with"]
    return [ButtonChoice(words.t("{player}: accept offer", player=who), {"act": {"player": who, "do": "accept"}},
                         confirm=words.t("{player}: accept it?", player=who), extra=True),
            ButtonChoice(words.t("{player}: reject offer", player=who), {"act": {"player": who, "do": "reject"}},
                         extra=True)]


#: Room for the deeds' entry on the option rows ("< Build, mortgage >"; "NEXT: Lift a mortgage, mortgage" takes two).
ENTRY_COLS = 2 * (screens.COLS["small"] - 4)

def auction_choices(state: State, prompt: Mapping[str, Any], words: Words) -> list[ButtonChoice]:
    """Each bidder still in, but the highest: raise by each of :data:`~companion.bids.BID_STEPS` (at least the
    opening bid: the phones' quick bids are the same), or pass.
    A table without phones can hold the whole auction on the buttons."""
    minimum = (state.get("auction") or {}).get("minimum", 1)
    amounts = quick_bids(prompt.get("bid", 0), minimum)
    cash = {p["name"]: p.get("cash", 0) for p in state["players"]}
    ruleset = find_ruleset(state["ruleset"])
    choices = []
    for name in prompt.get("waiting") or []:
        if name != prompt.get("bidder"):
            acts = [(words.t("{player}: bid {amount}", player=name, amount=words.money(amount)),
                     {"player": name, "do": "bid", "amount": amount})
                    for amount in amounts if cash.get(name, 0) >= amount]  # a bid the bidder cannot pay: refused
            for text, act in [*acts, (words.t("{player}: pass", player=name), {"player": name, "do": "pass"})]:
                line = {"act": act}  # the last pass sells the deed: it may not be undone
                choices.append(ButtonChoice(text, line, second_press(text, name, *tried_whole(ruleset, state, line),
                                                                     words=words)))
    return choices


def option_choice(state: State, prompt: Mapping[str, Any], option: str, labels: Labels) -> ButtonChoice:
    text = option_label(state, prompt, option, labels)
    line = {"answer": option}
    confirm = labels.words.t("{choice}? YES again", choice=text) if option in DESTRUCTIVE else \
        second_press(text, prompt.get("player"), *tried_whole(find_ruleset(state["ruleset"]), state, line),
                     words=labels.words)
    return ButtonChoice(text, line, confirm)


def second_press(text: str, player: Any, after: State | None, events: list[Event] | None, *,
                 words: Words) -> str | None:
    """The question a choice asks before it acts ("Pay $50 fine? YES again"), when it spends ``player``'s money
    or cannot be undone (it reveals a card; playing a kept card is asked by :func:`roll_extras`); None for a harmless one, or one the engine refuses
    (its YES is refused with the reason, which changes nothing). ``after``: the state it leads to (None: not
    known, for acts that never reveal chance)."""
    if events is None:
        return None
    pays = isinstance(player, str) and own_payment(events, player) < 0  # a debt it lets through is owed anyway
    final = after is not None and not (after.get("undo") or {}).get("inputs")
    return words.t("{choice}? YES again", choice=text) if pays or final else None


def option_label(state: State, prompt: Mapping[str, Any], option: str, labels: Labels) -> str:
    """An option as the OLED says it ("Pay $200", "Pay 10% of worth", "Go bankrupt", a space's name)."""
    opts, w = state.get("options") or {}, labels.words
    if prompt["kind"] == "income-tax":
        if option == "flat" and "income_tax_flat" in opts:
            return w.t("Pay {amount}", amount=w.money(int(opts["income_tax_flat"])))
        if option == "percent" and "income_tax_percent" in opts:
            return w.t("Pay {percent}% of worth", percent=w.number(opts["income_tax_percent"]))
    if prompt["kind"] == "star" and option in ("draw", "move"):  # chambers' 6*: a card, or the steps
        return w.t("Draw a card") if option == "draw" else w.t("Move {steps}", steps=prompt.get("steps", 6))
    if option in DESTRUCTIVE:
        return w.t(DESTRUCTIVE[option])
    return screens.label(option, labels)


def roll_extras(state: State, prompt: Mapping[str, Any], labels: Labels) -> list[ButtonChoice]:
    """Before a roll: pay the jail fine, play a kept card (jail card, travel card)."""
    name, w = prompt["player"], labels.words
    ruleset = find_ruleset(state["ruleset"])
    verbs = ruleset.verbs()
    player: Mapping[str, Any] = next((p for p in state["players"] if p["name"] == name), {})
    choices = []
    if prompt.get("purpose") == "jail" and "pay-fine" in verbs:
        fine = (state.get("options") or {}).get("jail_fine")
        line = {"act": {"player": name, "do": "pay-fine"}}
        after, events = tried_whole(ruleset, state, line)
        if events is not None:  # not with less cash than the fine
            text = w.t("Pay {amount} fine", amount=w.money(int(fine))) if fine else w.t("Pay the fine")
            choices.append(ButtonChoice(text, line, second_press(text, name, after, events, words=w)))
    if "use-card" in verbs:
        for card in player.get("cards", []):
            info = ruleset.board.cards.get(card)
            line = {"act": {"player": name, "do": "use-card", "card": card}}
            # as people name it; two copies of a card are one choice
            label = w.t("Play {card}", card=labels.cards.get(card) or ruleset.card_name(card))
            # Offered only when the engine would take it now: a jail card in jail, a travel card before a
            # throw it may replace; never a triple play or tax refund card, which are played when they apply.
            if info is None or not info.params.get("use") or any(c.label == label for c in choices):
                continue
            after, events = tried_whole(ruleset, state, line)
            if events is not None:  # playing a card is asked twice: it is the card's only use
                choices.append(ButtonChoice(label, line, second_press(label, name, after, events, words=w) or
                                            w.t("{choice}? YES again", choice=label)))
    return choices


def tried(ruleset: Ruleset, state: State, line: Mapping[str, Any]) -> list[Event] | None:
    """The events ``line`` would bring, or None if the engine refuses it."""
    return tried_whole(ruleset, state, line)[1]


def tried_whole(ruleset: Ruleset, state: State, line: Mapping[str, Any]) -> tuple[State | None, list[Event] | None]:
    """The state and events ``line`` would bring, or (None, None) if the engine refuses it."""
    try:
        return ruleset.apply(state, line)
    except IllegalInput:
        return None, None


def deeds_entry(state: State, name: str, labels: Labels) -> list[ButtonChoice]:
    """The entry that opens ``name``'s deeds ("Build, mortgage": the words of the first two kinds of act the engine
    takes now, in :func:`deed_choices`' order), when it takes any: :class:`DeedsEntry`, its words worked out."""
    entry = DeedsEntry.found(state, name, labels)
    return [entry.choice()] if entry is not None else []


class DeedsEntry:
    """The entry that opens a player's deeds, found for every new state only as far as the screen needs it.

    Whether it is there at all (the screen counts it: "< > 1 of 2") is found by trying the player's
    :meth:`~companion.engine.core.Ruleset.candidate_acts` only until the engine takes one (:meth:`found`: first the
    act the entry of the state before was found by, which a phone's change elsewhere seldom touches); its words
    ("Build, mortgage": the first two kinds taken, in :func:`deed_choices`' order) only when they are read
    (:attr:`label`: the cursor is on it, or it is the "NEXT:" row of a yes/no question, or a phone's change looks for
    it again). A screen that does not show the words tries the engine about once, not for every kind of act
    (issue 43: a phone's money action tried it ~5 times for words never drawn). Every try is on this entry's own
    state (a state is never changed once built), so the words are never those of the state before. The whole list
    is made when the deeds are opened (:func:`deed_choices`)."""

    line: dict[str, Any] | None = None  # YES opens the player's deeds
    confirm: str | None = None
    roll = False

    def __init__(self, state: State, name: str, labels: Labels, ruleset: Ruleset, acts: list[dict[str, Any]],
                 tried: dict[int, bool], *, extra: bool = False, whose: str | None = None) -> None:
        self.state, self.name, self.labels, self.ruleset = state, name, labels, ruleset
        self.acts, self.tried = acts, tried  # the candidate acts; those tried on ``state``, by index: taken?
        self.extra = extra  # as :attr:`ButtonChoice.extra`: one NEXT away from a yes/no question
        self.whose = whose  # beside another player's offer, the entry says whose deeds ("Ann: mortgage")
        self._label: str | None = None

    @classmethod
    def found(cls, state: State, name: str, labels: Labels, before: DeedsEntry | None = None) -> DeedsEntry | None:
        """``name``'s entry in ``state``, if the engine takes any of their acts now: tried until one is taken, first
        the one ``before`` (the entry of a state before) was found by."""
        ruleset = find_ruleset(state["ruleset"])
        acts = ruleset.candidate_acts(state, name)
        tried: dict[int, bool] = {}
        entry = cls(state, name, labels, ruleset, acts, tried)
        likely = before.taken() if before is not None and before.name == name else None
        order = list(range(len(acts)))
        if likely is not None and likely in acts:
            order.insert(0, order.pop(acts.index(likely)))
        return entry if any(entry._taken(i) for i in order) else None

    def _taken(self, index: int) -> bool:
        if index not in self.tried:
            self.tried[index] = _taken(self.ruleset, self.state, self.acts[index])
        return self.tried[index]

    def taken(self) -> dict[str, Any] | None:
        """An act the engine takes in this entry's state (one of those tried)."""
        return next((self.acts[i] for i, taken in self.tried.items() if taken), None)

    def but(self, *, extra: bool | None = None, whose: str | None = None) -> DeedsEntry:
        """The same entry as an extra, or said as another player's deeds (what was tried is not tried again)."""
        return DeedsEntry(self.state, self.name, self.labels, self.ruleset, self.acts, self.tried,
                          extra=self.extra if extra is None else extra, whose=whose or self.whose)

    @property
    def words(self) -> str:
        """"Build, mortgage", worked out at the first reading."""
        if self._label is None:
            words: list[str] = []
            for i, act in enumerate(self.acts):
                word = _word(act)
                if word not in words and self._taken(i):
                    words.append(word)
                    if len(words) == 2:
                        break
            said = [self.labels.words.t(word) for word in words]
            # not str.capitalize(): German's nouns keep theirs ("Bauen, Hypothek")
            label = screens.capital(", ".join(said))
            self._label = label if len(label) <= ENTRY_COLS else screens.capital(said[0])
        return self._label

    @property
    def label(self) -> str:
        """What the OLED shows for it: :attr:`words`, after whose deeds they are beside an offer."""
        words = self.words
        return f"{self.whose}: {words[:1].lower()}{words[1:]}" if self.whose is not None else words

    def choice(self) -> ButtonChoice:
        """As a :class:`ButtonChoice`, its words worked out."""
        return ButtonChoice(self.label, None, extra=self.extra)


#: What a list of the buttons holds: a choice, or a player's deeds' entry whose words are worked out when read.
Browsed = ButtonChoice | DeedsEntry


def _word(act: Mapping[str, Any]) -> str:
    return DEED_WORDS.get(act["do"], ("",))[0]


def _taken(ruleset: Ruleset, state: State, act: Mapping[str, Any]) -> bool:
    """Whether the engine takes the voluntary act now (tried as :meth:`~companion.engine.core.Ruleset.judged_acts`
    tries it)."""
    try:
        ruleset.apply(state, {"act": act}, table=False)
    except IllegalInput:
        return False
    return True


def deed_choices(state: State, name: str, labels: Labels) -> list[ButtonChoice]:
    """Every act the engine takes now (:meth:`~companion.engine.core.Ruleset.judged_acts`: build, lift a mortgage,
    mortgage, sell a building; improve, place the sign; borrow, repay; buy or sell idle land), each with what it
    pays or costs: "Build on Baltic Avenue: pay $50"."""
    ruleset, w = find_ruleset(state["ruleset"]), labels.words
    choices = []
    for act, events in ruleset.judged_acts(state, name)[0]:
        change = own_payment(events, name)
        amount = w.t(": get {amount}", amount=w.money(change)) if change > 0 else \
            w.t(": pay {amount}", amount=w.money(-change)) if change < 0 else ""
        text = f"{act_words(ruleset, act, labels)}{amount}"
        choices.append(ButtonChoice(text, {"act": act}, second_press(text, name, None, events, words=w)))
    return choices


def act_words(ruleset: Ruleset, act: Mapping[str, Any], labels: Labels) -> str:
    """What an act does, in words: "Build on Baltic Avenue", "Borrow on Lot 3 and Lot 7", "Repay loan 2"."""
    verb, w = act["do"], labels.words
    template = DEED_WORDS[verb][1] if verb in DEED_WORDS else None

    def said(what: str) -> str:
        return w.t(template, what=what) if template else f"{w.t(verb.replace('-', ' ').capitalize())} {what}"

    if "space" in act:
        return said(screens.label(act["space"], labels))
    if "spaces" in act:
        return said(w.names_list(screens.label(s, labels) for s in act["spaces"]))
    if "loan" in act:
        return said(w.t("loan {n}", n=act["loan"]))
    if "cards" in act:
        return said(w.names_list(labels.cards.get(c) or ruleset.card_name(c) for c in act["cards"]))
    count = act.get("count", 1)
    if verb == "buy-idle":
        return said(w.nt("an idle land card", "{n} idle land cards", count))
    return w.t(template, what="").rstrip() if template else w.t(verb.replace("-", " ").capitalize())


def own_payment(events: list[Event], name: str) -> int:
    """What an act pays ``name`` (positive) or costs them: its first payment. A debt that the act lets through is
    paid after it, and is not the act's."""
    for event in events:
        if event.get("kind") == "pay" and name in (event.get("payer"), event.get("payee")):
            return int(event["amount"]) if event.get("payee") == name else -int(event["amount"])
    return 0


def space_labels(ruleset: Ruleset, words: Words = ENGLISH) -> Labels:
    """Space ids to the names the OLED shows; names that repeat are told apart, since a list of destinations
    (the subway, the airplane) holds them all: "Chance 2" (the second along its board), "Chance (inner)"."""
    spaces = ruleset.board.spaces
    main = spaces[0].track if spaces else ""
    seen: dict[tuple[str, str], int] = {}
    counts: dict[tuple[str, str], int] = {}
    for s in spaces:
        counts[(s.name, s.track)] = counts.get((s.name, s.track), 0) + 1
    names = {s.name for s in spaces if s.track != main} & {s.name for s in spaces if s.track == main}
    labels = {}
    for s in spaces:
        key = (s.name, s.track)
        seen[key] = seen.get(key, 0) + 1
        label = (words.named("spaces", s.id) or s.name) + (f" {seen[key]}" if counts[key] > 1 else "")
        labels[s.id] = words.t("{space} (inner)", space=label) if s.track != main and s.name in names else label
    cards = {card: words.named("cards", card) or ruleset.card_name(card) for card in ruleset.board.cards}
    return Labels(labels, cards, words)


def first_choice(state: State, ruleset: Ruleset) -> int:
    """Where the cursor starts in a prompt's options: on staying put (the airplane's own space), else on the
    first destination ahead of the player's token, so that nearby spaces are a press or two away."""
    prompt = state.get("prompt") or {}
    options = prompt.get("options") or []
    if prompt.get("space") in options:
        return options.index(prompt["space"])
    order = {s.id: i for i, s in enumerate(ruleset.board.spaces)}
    player = next((p for p in state["players"] if p["name"] == prompt.get("player")), None)
    if player is None or player.get("space") not in order or not options or not all(o in order for o in options):
        return 0
    here = order[player["space"]]
    ahead = [i for i, o in enumerate(options) if order[o] > here]
    return ahead[0] if ahead else 0


#: Acts that take back another: after one, the cursor never lands on its reverse (a second YES undid the first).
REVERSE = {"mortgage": "unmortgage", "unmortgage": "mortgage", "build": "sell", "sell": "build",
           "borrow": "repay", "repay": "borrow", "buy-idle": "sell-idle", "sell-idle": "buy-idle"}


def next_deed(deeds: list[ButtonChoice], done: Mapping[str, Any], cursor: int) -> int | None:
    """Where the cursor goes after ``done``: the same act again if it is still offered (build on the next street,
    mortgage the next lot), else the nearest act that does not undo it; None when only such acts are left (the
    list closes: a second YES would take back the first)."""
    acts = [(c.line or {}).get("act", {}) for c in deeds]
    same = [i for i, act in enumerate(acts) if act.get("do") == done.get("do")]
    if same:
        return next((i for i in same if i >= cursor), same[0])
    undoing = [act.get("do") == REVERSE.get(str(done.get("do"))) for act in acts]
    order = sorted(range(len(acts)), key=lambda i: abs(i - cursor))
    return next((i for i in order if not undoing[i]), None)


def choice_key(choice: Browsed) -> str:
    """What a choice sends (or opens), to find the same choice in the next state's list (a deeds entry: by its
    words, which :func:`may_be` tells apart without working them out)."""
    if choice.roll:
        return "roll"
    return repr(choice.line) if choice.line is not None else f"{DEEDS_KEY}{choice.label}"


#: How the key of a player's deeds' entry begins ("deeds:Build, mortgage").
DEEDS_KEY = "deeds:"


def may_be(choice: Browsed, key: str) -> bool:
    """Whether ``choice`` may be the one whose :func:`choice_key` is ``key``: a deeds entry's key only a deeds entry's,
    so that looking for another choice never works out the entry's words."""
    opens_deeds = choice.line is None and not choice.roll
    return opens_deeds == key.startswith(DEEDS_KEY) and choice_key(choice) == key
