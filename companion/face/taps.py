"""Cards on the reader: a player's window, a trade made at the table, registering a set's tags.

* :class:`PlayerWindow` — a player tapped their card: for a few seconds the OLED is theirs (their deeds,
  answering an offer made to them, bidding, paying the fine, making an offer, going bankrupt); every input it
  sends is journaled as ``tap:<name>``. A deed of theirs tapped meanwhile opens that deed's acts.
* :class:`TradeMode` — the offering player's deeds tapped, then the other player's card, then the deeds asked;
  PREV/NEXT set the cash, YES offers (after a look at the whole offer). The other player taps their card to
  answer it in their window.
* :class:`RegisterMode` — the host menu's "Register cards" (the deeds in board order, then the players' cards)
  and a new game's seats ("Ann: tap your card"): each tag tapped is the card named on the OLED.

What a tap means when no mode takes it (a deed at a buy question, someone's deed, an unknown card) is the
controller's :meth:`~.controller.TableController.on_tap`, through :func:`default_tap`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from companion.engine import State, find_ruleset

from . import screens
from .cards import Card, CardBook, CardRefused, card_label
from .choices import DESTRUCTIVE, auction_choices, deed_choices, offer_answers, roll_extras, tried
from .modes import Desk, Item, ListMode, Mode
from .screens import Screen

WINDOW_TIME = 8.0  # seconds a tapped card keeps the OLED its player's without a press
TRADE_TIME = 60.0  # a trade being put together, untouched, is dropped after this long
CASH_STEP = 10
UNKNOWN = "Unknown card: register it in the host menu"


@dataclass(frozen=True)
class CardTap:
    """A tag on the reader: its UID and what it is registered as (None: unknown)."""

    uid: str
    card: Card | None
    at: float


def tap_source(name: str) -> str:
    """The journal's source of an input made by tapping ``name``'s card (or a deed's sticker: its space id)."""
    return f"tap:{name}"


def _player(state: State, name: str) -> Mapping[str, Any]:
    return next((p for p in state["players"] if p["name"] == name), {})


def _owner(state: State, space: str) -> str | None:
    owner = (state.get("spaces") or {}).get(space, {}).get("owner")
    return str(owner) if owner else None


# ====================================================================== a player's window
class PlayerWindow(ListMode):
    """The OLED is one player's for a few seconds: what they may do now, wherever the game is."""

    name = "window"

    def __init__(self, desk: Desk, player: str, *, window: float = WINDOW_TIME) -> None:
        super().__init__(desk)
        self.player, self.window = player, window
        self.until = desk.clock() + window
        self.source = tap_source(player)
        self._items: tuple[State | None, list[Item]] = (None, [])

    def items(self) -> list[Item]:
        state = self.desk.game()
        if state is None:
            return []
        if self._items[0] is not state:
            self._items = (state, self._build(state))
        return self._items[1]

    def _build(self, state: State) -> list[Item]:
        name, items, send = self.player, [], self._send
        labels = self.desk.labels()
        w = labels.words
        for choice in offer_answers(state, w):  # an offer made to them (or by them: withdrawing it is "reject")
            if choice.line is not None and choice.line["act"]["player"] == name:
                offer = state.get("trade") or {}
                accept = choice.line["act"]["do"] == "accept"
                items.append(Item(w.t("Accept {player}'s offer", player=offer.get("from")) if accept else
                                  w.t("Reject {player}'s offer", player=offer.get("from")), partial(send, choice.line),
                                  w.t("Accept {player}'s offer? YES again", player=offer.get("from")) if accept
                                  else None))
        offer = state.get("trade") or {}
        if offer.get("from") == name:
            line = {"act": {"player": name, "do": "reject"}}
            items.append(Item(w.t("Withdraw your offer to {player}", player=offer.get("with")), partial(send, line)))
        prompt = state.get("prompt") or {}
        if prompt.get("kind") == "auction":
            for choice in auction_choices(state, prompt, w):
                if choice.line is not None and choice.line["act"]["player"] == name:
                    items.append(Item(choice.label.removeprefix(f"{name}: ").capitalize(), partial(send, choice.line),
                                      choice.confirm))
        if prompt.get("player") == name and prompt.get("kind") == "roll":
            items += [Item(c.label, partial(send, c.line), c.confirm) for c in roll_extras(state, prompt, labels) if c.line]
        if prompt.get("player") == name and "bankrupt" in (prompt.get("options") or []):
            items.append(Item(w.t(DESTRUCTIVE["bankrupt"]), partial(send, {"answer": "bankrupt"}),
                              w.t("{player}: go bankrupt? YES again", player=name)))
        if deed_choices(state, name, labels):
            items.append(Item(w.t("Your deeds"), lambda: self.desk.open_deeds(name, source=self.source)))
        ruleset = find_ruleset(state["ruleset"])
        if "trade" in ruleset.verbs() and not offer and not _player(state, name).get("bankrupt"):
            items.append(Item(w.t("Make an offer"), lambda: self.desk.open(TradeMode(self.desk, name))))
        line = {"act": {"player": name, "do": "bankrupt"}}
        if "bankrupt" in ruleset.verbs() and "bankrupt" not in (prompt.get("options") or []) \
                and tried(ruleset, state, line) is not None:
            items.append(Item(w.t(DESTRUCTIVE["bankrupt"]), partial(send, line),
                              w.t("{player}: go bankrupt? YES again", player=name)))
        return items

    def _send(self, line: dict[str, Any]) -> None:
        if self.desk.submit(line, self.source):
            self.desk.open(None)

    def press(self, button: str) -> None:
        self.until = self.desk.clock() + self.window
        super().press(button)

    def card(self, tap: CardTap) -> bool:
        state, card = self.desk.game(), tap.card
        if state is None or card is None or card.player:
            return False  # another player's card: their window (the controller's)
        if _owner(state, card.name) == self.player:
            self.desk.open_deeds(self.player, space=card.name, source=self.source)
        else:
            self.desk.say(f"{card_label(card)} is not {self.player}'s")
        return True

    def tick(self, now: float) -> None:
        if now >= self.until and self.confirming is None:
            self.desk.open(None)

    def screen(self) -> Screen:
        w = self.desk.labels().words
        if self.confirming is not None:
            return screens.confirm_screen(self.confirming.confirm or self.confirming.label, words=w)
        state = self.desk.game()
        cash = _player(state, self.player).get("cash") if state is not None else None
        title = f"{self.player} {screens.money(cash, w)}" if cash is not None else self.player
        labels = [i.label for i in self.items()] or [w.t("Nothing to do now")]
        return screens.menu_screen(title, labels, self.cursor % len(labels), w)


# ====================================================================== a trade at the table
class TradeMode(Mode):
    """An offer put together with cards: the offerer's deeds, the other's card, the deeds asked, the cash."""

    name = "trade"

    def __init__(self, desk: Desk, offerer: str) -> None:
        super().__init__(desk)
        self.offerer = offerer
        self.partner: str | None = None
        self.give: list[str] = []
        self.get: list[str] = []
        self.cash = 0  # what the offerer pays (negative: what the partner pays)
        self.step = "give"  # give | ask | cash | confirm
        self.until = desk.clock() + TRADE_TIME

    def _label(self, space: str) -> str:
        return screens.label(space, self.desk.labels())

    def card(self, tap: CardTap) -> bool:
        self.until = self.desk.clock() + TRADE_TIME
        state, card = self.desk.game(), tap.card
        if state is None or card is None:
            return False
        if card.player:
            if card.name == self.offerer:
                self.desk.say(f"{self.offerer}: tap your deeds, then the other player's card")
            elif not _player(state, card.name) or _player(state, card.name).get("bankrupt"):
                self.desk.say(f"{card.name} is not playing")
            else:
                if card.name != self.partner:
                    self.get = []
                self.partner, self.step = card.name, "ask"
            return True
        owner, space = _owner(state, card.name), card.name
        if owner == self.offerer and self.step in ("give", "ask"):
            self.give = [s for s in self.give if s != space] if space in self.give else [*self.give, space]
        elif owner is not None and owner == self.partner and self.step == "ask":
            self.get = [s for s in self.get if s != space] if space in self.get else [*self.get, space]
        elif owner is not None and owner != self.offerer and self.partner is None:
            self.desk.say(f"{self._label(space)} is {owner}'s: tap {owner}'s card first")
        else:
            whose = f"{owner}'s" if owner else "the bank's"
            self.desk.say(f"{self._label(space)} is {whose}: not in this offer")
        return True

    def press(self, button: str) -> None:
        self.until = self.desk.clock() + TRADE_TIME
        back = {"give": None, "ask": "give", "cash": "ask", "confirm": "cash"}
        if button == "NO":
            if back[self.step] is None:
                self.desk.say("No offer made")
                self.desk.open(None)
            else:
                self.step = back[self.step] or "give"
                if self.step == "give":
                    self.partner, self.get = None, []
        elif self.step == "give" and button == "YES":
            self.desk.say("Tap the card of the player the offer is for")
        elif self.step == "ask" and button == "YES":
            self.step = "cash"
        elif self.step == "cash" and button in ("PREV", "NEXT"):
            self._step_cash(CASH_STEP if button == "NEXT" else -CASH_STEP)
        elif self.step == "cash" and button == "YES":
            if not (self.give or self.get or self.cash):
                self.desk.say("An empty offer: tap deeds or set cash")
            else:
                self.step = "confirm"
        elif self.step == "confirm" and button == "YES":
            self._offer()

    def _step_cash(self, step: int) -> None:
        state = self.desk.game()
        if state is None or self.partner is None:
            return
        most = int(_player(state, self.offerer).get("cash", 0))
        least = -int(_player(state, self.partner).get("cash", 0))
        self.cash = max(least, min(most, self.cash + step))

    def line(self) -> dict[str, Any]:
        """The offer as an input (``trade {with, give, get}``)."""
        return {"act": {"player": self.offerer, "do": "trade", "with": self.partner,
                        "give": {"cash": max(0, self.cash), "spaces": list(self.give)},
                        "get": {"cash": max(0, -self.cash), "spaces": list(self.get)}}}

    def _offer(self) -> None:
        if self.desk.submit(self.line(), tap_source(self.offerer)):
            self.desk.say(f"{self.partner}: tap your card to answer")
            self.desk.open(None)
        else:
            self.step = "ask"

    def _side(self, spaces: list[str], cash: int) -> str:
        parts = [self._label(s) for s in spaces] + ([f"${cash}"] if cash > 0 else [])
        return ", ".join(parts) or "nothing"

    def summary(self) -> str:
        return (f"{self.offerer} gives {self._side(self.give, self.cash)}; "
                f"{self.partner or '?'} gives {self._side(self.get, -self.cash)}")

    def tick(self, now: float) -> None:
        if now >= self.until:
            self.desk.say("The offer was left: dropped")
            self.desk.open(None)

    def screen(self) -> Screen:
        title = f"OFFER: {self.offerer}" + (f" > {self.partner}" if self.partner else "")
        if self.step == "confirm":
            return screens.confirm_screen(f"Offer {self.partner}: {self.summary()}?", yes="YES: offer it")
        if self.step == "give":
            text = f"Gives: {self._side(self.give, 0)}. Tap {self.offerer}'s deeds to give, then the card of " \
                   "the player the offer is for"
            return screens.message_screen(title, text, "Tap cards  NO: cancel")
        if self.step == "ask":
            text = f"{self.summary()}. Tap {self.partner}'s deeds to ask for them"
            return screens.message_screen(title, text, "YES: cash  NO: back")
        who = f"{self.offerer} pays ${self.cash}" if self.cash > 0 else \
            f"{self.partner} pays ${-self.cash}" if self.cash < 0 else "No cash"
        return screens.message_screen(title, f"{who}. {self.summary()}", "PREV/NEXT $10  YES")


# ====================================================================== registering
class RegisterMode(Mode):
    """Walk a list of cards (from ``start``); each tag tapped becomes the card named on the OLED."""

    name = "registration"

    def __init__(self, desk: Desk, book: CardBook, cards: list[Card], *, title: str = "REGISTER",
                 seated: tuple[str, ...] = (), start: int = 0) -> None:
        super().__init__(desk)
        self.book, self.cards, self.title, self.seated = book, cards, title, seated
        self.at = start
        self.done = 0

    @property
    def asking(self) -> Card | None:
        """The card the next tag tapped becomes."""
        return self.cards[self.at] if self.at < len(self.cards) else None

    def card(self, tap: CardTap) -> bool:
        if not self.cards:
            return False
        card = self.cards[self.at]
        try:
            said = self.book.register(card, tap.uid, seated=self.seated)
        except CardRefused as error:
            self.desk.say(str(error))
            return True
        self.done += 1
        self.desk.say(said)
        self._next(said)
        return True

    def _next(self, said: str = "") -> None:
        self.at += 1
        if self.at >= len(self.cards):
            self.desk.say(f"{said}. Cards registered: {self.done}" if said else f"Cards registered: {self.done}")
            self.desk.open(None)

    def press(self, button: str) -> None:
        if button == "NO":
            self.desk.say(f"Cards registered: {self.done}")
            self.desk.open(None)
        elif button in ("NEXT", "YES"):
            self._next()
        elif button == "PREV":  # from the first deed: round to the players' cards, at the end
            self.at = (self.at - 1) % len(self.cards) if self.cards else 0

    def screen(self) -> Screen:
        if not self.cards:
            return screens.message_screen(self.title, "Nothing to register", "NO: back")
        card = self.cards[self.at]
        known = self.book.uid(card.edition, card.kind, card.name) is not None
        if card.player:
            text = f"{card.name}: tap your card" + (" (YES keeps the one registered)" if known else "")
        else:
            text = f"Tap the sticker of {card_label(card)}" + ("; it has one" if known else "")
        return screens.message_screen(f"{self.title} {self.at + 1}/{len(self.cards)}", text,
                                      "YES/NEXT: skip  NO: stop")


def registrations(book: CardBook, edition: str, players: list[str], asking: Card | None) -> dict[str, Any]:
    """The host page's view of a set: every deed (board order) and player, registered or not, and what the
    reader waits for."""
    def row(card: Card) -> dict[str, Any]:
        return {"kind": card.kind, "id": card.name, "name": card_label(card),
                "registered": book.uid(card.edition, card.kind, card.name) is not None}

    return {"reader": True, "edition": edition, "asking": row(asking) if asking is not None else None,
            "cards": [row(card) for card in set_cards(edition, players)]}


def set_cards(edition: str, players: list[str], *, deeds: bool = True) -> list[Card]:
    """The cards of a set in the order the host walks them: the deeds in board order, then the players'."""
    board = find_ruleset(edition).board
    spaces = [Card(edition, "deeds", s.id) for s in board.ownable()] if deeds else []
    return [*spaces, *(Card(edition, "players", name) for name in players)]


def default_tap(desk: Desk, tap: CardTap, edition: str | None) -> Mode | None:
    """What a tap does when no mode takes it; returns the mode to open (or None: said, or done)."""
    card, state = tap.card, desk.game()
    if card is None:
        desk.say(UNKNOWN)
        return None
    if state is None or edition is None:
        desk.say(f"{card_label(card)}'s card: no game is running")
        return None
    if card.edition != edition:
        desk.say(f"That card is of another set: {card_label(card)}")
        return None
    if card.player:
        if not _player(state, card.name):
            desk.say(f"{card.name}'s card: {card.name} is not in this game")
            return None
        return PlayerWindow(desk, card.name)
    prompt, owner = state.get("prompt") or {}, _owner(state, card.name)
    if prompt.get("kind") == "buy" and prompt.get("space") == card.name:
        return BuyConfirm(desk, tap_source(card.name), str(prompt.get("text") or f"Buy {card_label(card)}?"))
    if owner is None:
        price = find_ruleset(edition).board.space(card.name).price
        desk.say(f"{card_label(card)}: the bank's" + (f", ${price}" if price else ""))
        return None
    desk.open_deeds(owner, space=card.name, source=tap_source(card.name))
    return None


class BuyConfirm(Mode):
    """A deed tapped at its buy question: YES buys it (never a single tap: it costs money), NO goes back."""

    name = "buy"

    def __init__(self, desk: Desk, source: str, question: str) -> None:
        super().__init__(desk)
        self.source, self.question = source, question

    def press(self, button: str) -> None:
        self.desk.open(None)
        if button == "YES":
            self.desk.submit({"answer": "yes"}, self.source)

    def changed(self) -> None:
        self.desk.open(None)

    def screen(self) -> Screen:
        return screens.confirm_screen(self.question, yes="YES: buy it")
