"""Real estate of the property trading games: who owns what, houses and hotels, mortgages (RULES.md §1).

:class:`RealEstate` is the part of ``classic`` (and so of ``addon``) that reads and changes the
deeds on the board: who owns what (``owned``, ``owns_group``, ``worth``: rent, income tax
and the end by worth ask it), the ``build`` and ``sell`` verbs with the even-building rule and the
auction of the bank's last houses or hotels, and the ``mortgage`` and ``unmortgage`` verbs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..board import Space
from ..core import Ruleset, refusal, reject
from ..draft import Draft, Event, State
from ..messages import Message, m, mp, n_
from .auction import Auctions


def buildings_text(level: int) -> Message:
    """A street's buildings in words: "no houses", "1 house", "3 houses", "a hotel"."""
    if level == 5:
        return m("a hotel")
    return m("no houses") if level == 0 else mp("{count} house", "{count} houses", level)


#: The houses a hotel replaces, in words, by their number (option ``houses_before_hotel``).
#: The street groups of the bundled boards, said in the reader's language ("the light-blue group", "der Gruppe
#: Hellblau"): colours and (addon's inner ring) cities are no printed text; a board's own group is said as its id.
GROUPS = (n_("purple"), n_("light-blue"), n_("pink"), n_("orange"), n_("red"), n_("yellow"), n_("green"),
          n_("dark-blue"), n_("boston"), n_("chicago"), n_("new-orleans"), n_("san-francisco"))
HOUSES_WORDS = (m("no house"), m("one house"), m("two houses"), m("three houses"), m("four houses"))


def interest(mortgage: int) -> int:
    """10% of a mortgage value, rounded up to the dollar."""
    return -(-mortgage // 10)


class RealEstate(Auctions, Ruleset):
    """Mixin: ownership queries, buildings (with the short-stock auction) and mortgages."""

    space_verbs = ("build", "unmortgage", "mortgage", "sell")

    # ================================================================== groups and worth
    def owned(self, d: Draft, name: str) -> list[str]:
        return [sid for sid, rec in d.state["spaces"].items() if rec["owner"] == name]

    def owns_group(self, d: Draft, name: str, space: Space) -> bool:
        spaces = d.state["spaces"]
        for sid in self.board.groups[space.group or ""]:  # a loop, not all(<generator>): this runs on every rent
            if spaces[sid]["owner"] != name:
                return False
        return True

    def count_owned(self, d: Draft, name: str, space: Space) -> int:
        spaces = d.state["spaces"]
        return sum(1 for sid in self.board.groups[space.group or ""] if spaces[sid]["owner"] == name)

    def undo_instructions(self, before: State, after: State) -> list[Event]:
        """Tokens (the core's), then the buildings and mortgages the undone input changed."""
        events = super().undo_instructions(before, after)
        for sid, rec in after["spaces"].items():
            old = before["spaces"].get(sid)
            if old is None or old is rec:
                continue
            if old.get("owner") != rec.get("owner"):
                events.append(self.say_text(
                    "deed", m("Give {space}'s deed back to {owner}", space=sid, owner=rec["owner"]) if rec.get("owner")
                    else m("Put {space}'s deed back in the bank", space=sid), space=sid, undo=True,
                    player=rec.get("owner")))
            if "houses" in rec and self.level(old) != self.level(rec):
                events.append(self.say_text("say", m("Put {space} back to {what}", space=sid,
                                                     what=buildings_text(self.level(rec))), space=sid, undo=True))
            if old.get("mortgaged") != rec.get("mortgaged"):
                said = m("Turn {space}'s deed face down (mortgaged) again", space=sid) if rec["mortgaged"] else \
                    m("Turn {space}'s deed face up again", space=sid)
                events.append(self.say_text("say", said, space=sid, undo=True))
        return events

    def group_built(self, d: Draft, space: Space) -> bool:
        """Whether a street of ``space``'s group holds a building (its :meth:`level` above 0)."""
        spaces = d.state["spaces"]
        for sid in self.board.groups[space.group or ""]:  # a loop, not any(<generator>): every mortgage asks it
            rec = spaces[sid]
            if rec["hotel"] or rec["houses"]:
                return True
        return False

    @staticmethod
    def level(rec: Mapping[str, Any]) -> int:
        """Buildings on a street as one number: houses 0-4, a hotel 5."""
        return 5 if rec["hotel"] else rec["houses"]

    def hotel_after(self, d: Draft) -> int:
        """Houses a street holds before its hotel (option ``houses_before_hotel``; the book: 4)."""
        return int(d.state["options"]["houses_before_hotel"])

    def houses_words(self, d: Draft) -> Message:
        """The houses a hotel replaces, in words: "four houses"."""
        return HOUSES_WORDS[self.hotel_after(d)]

    def buildings(self, d: Draft, rec: Mapping[str, Any]) -> int:
        """A street's buildings counted at a house's price each: its houses, or a hotel and the houses it replaced."""
        return self.hotel_after(d) + 1 if rec["hotel"] else int(rec["houses"])

    def worth(self, d: Draft, name: str) -> int:
        """Cash + printed price of all property (mortgaged or not) + cost of buildings."""
        return self.worths(d, (name,))[name]

    def worths(self, d: Draft, names: Iterable[str]) -> dict[str, int]:
        """The :meth:`worth` of each of ``names``, in one pass over the spaces (every player's at the game's end, and
        for the page's chart after every input)."""
        total = {name: d.player(name)["cash"] for name in names}
        for sid, rec in d.state["spaces"].items():
            owner = rec["owner"]
            if owner in total:
                total[owner] += self.deed_worth(d, sid, rec)
        return total

    def deed_worth(self, d: Draft, space_id: str, rec: Mapping[str, Any]) -> int:
        """What the deed ``space_id`` (its record ``rec``) adds to its owner's worth: its printed price and its
        buildings at cost (``d``: for the game's options alone)."""
        space = self.board.by_id[space_id]
        return (space.price or 0) + self.buildings(d, rec) * (space.house or 0)

    # ================================================================== building
    def build_check(self, d: Draft, name: str, space_id: Any) -> tuple[Space, str]:
        """Why ``name`` may build on ``space_id`` (returns the space and "house"/"hotel"), or a rejection."""
        space = self.street(space_id, m("{player} cannot build on {ident}", player=name, ident=space_id))
        rec = d.read_space(space.id)
        why = m("{player} cannot build on {space}", player=name, space=space.id)
        if rec["owner"] != name:
            raise reject("{why}: {player} does not own it", why=why, player=name)
        if not self.owns_group(d, name, space):
            raise reject("{why}: {player} does not own the whole {group} group", why=why, player=name,
                         group=space.group)
        group = self.board.groups[space.group or ""]
        if any(d.read_space(sid)["mortgaged"] for sid in group):
            raise reject("{why}: a street of the {group} group is mortgaged", why=why, group=space.group)
        level = self.level(rec)
        if level == 5:
            raise reject("{why}: it has a hotel already", why=why)
        if d.state["options"]["even_build"] and level > min(self.level(d.read_space(sid)) for sid in group):
            raise reject("{why}: build evenly, the other streets of the {group} group come first", why=why,
                         group=space.group)
        kind = "hotel" if level == self.hotel_after(d) else "house"
        return space, kind

    def street(self, space_id: Any, why: Message) -> Space:
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        if space is None:
            raise reject("{why}: there is no space {value}", why=why, value=space_id)
        if space.kind != "street":
            raise reject("{why}: {space} is not a street", why=why, space=space.id)
        return space

    def verb_build(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.check_spending(d, name, m("build"))
        space, kind = self.build_check(d, name, act.get("space"))
        stock = d.state["bank"][kind + "s"]
        hotel = kind == "hotel"
        if stock < 1:
            raise reject("{player} cannot build on {space}: the bank has no hotels left" if hotel else
                         "{player} cannot build on {space}: the bank has no houses left", player=name, space=space.id)
        if d.player(name)["cash"] < (space.house or 0):
            raise reject("{player} cannot build on {space}: a hotel costs {price}" if hotel else
                         "{player} cannot build on {space}: a house costs {price}", player=name, space=space.id,
                         price=space.house or 0)
        # Only a stock smaller than the players in the game can be short (``builders`` walks every street).
        wanting = self.builders(d, kind) if stock < len(d.solvent()) else []
        if len(wanting) > stock and d.state["prompt"]:
            if d.state["prompt"]["kind"] == "auction":
                if hotel:
                    said = mp("{player} cannot build on {space} during an auction: the bank's last hotel must be "
                              "auctioned among {players} after it", "{player} cannot build on {space} during an "
                              "auction: the bank's last hotels must be auctioned among {players} after it", stock,
                              player=name, space=space.id, players=wanting)
                else:
                    said = mp("{player} cannot build on {space} during an auction: the bank's last house must be "
                              "auctioned among {players} after it", "{player} cannot build on {space} during an "
                              "auction: the bank's last houses must be auctioned among {players} after it", stock,
                              player=name, space=space.id, players=wanting)
                raise refusal(said)
            d.say("say", mp("The bank has {count} hotel left and {players} can build: it is auctioned",
                            "The bank has {count} hotels left and {players} can build: it is auctioned", stock,
                            players=wanting) if hotel else
                  mp("The bank has {count} house left and {players} can build: it is auctioned",
                     "The bank has {count} houses left and {players} can build: it is auctioned", stock,
                     players=wanting))
            self.interrupt(d, ["building-auction", kind, space.id, name, wanting])
            return
        self.transfer(d, name, "bank", space.house or 0, m("for a hotel on {space}" if hotel else
                                                           "for a house on {space}", space=space.id))
        self.place_building(d, space, kind)

    def task_building_auction(self, d: Draft, kind: str, space_id: str, requester: str, bidders: list[str]) -> None:
        price = self.board.by_id[space_id].house or 0
        self.open_auction(d, {"building": kind, "for": space_id, "requester": requester}, bidders, minimum=price)

    def builders(self, d: Draft, kind: str) -> list[str]:
        """Players who could legally buy and place a ``kind`` now (for the short-stock auction)."""
        found = []
        for name in d.solvent():
            if self.legal_build_spaces(d, name, kind):
                found.append(name)
        return found

    def legal_build_spaces(self, d: Draft, name: str, kind: str) -> list[str]:
        spaces = []
        for sid in self.owned(d, name):
            if self.board.by_id[sid].kind != "street":
                continue
            try:
                space, k = self.build_check(d, name, sid)
            except ValueError:
                continue
            if k == kind and d.player(name)["cash"] >= (space.house or 0):
                spaces.append(sid)
        return spaces

    def place_bought_building(self, d: Draft, name: str, lot: Mapping[str, Any]) -> None:
        kind = lot["building"]
        if name == lot["requester"] and lot["for"] in self.legal_build_spaces(d, name, kind):
            self.place_building(d, self.board.by_id[lot["for"]], kind)
            return
        options = self.placements(d, name, kind)
        if not options:
            self.nowhere_to_place(d, name, kind, lot["bid"])
            return
        d.ask(name, "place-building", m("{player}, where does the hotel go?" if kind == "hotel" else
                                        "{player}, where does the house go?", player=name), options, building=kind,
              paid=lot["bid"])

    def placements(self, d: Draft, name: str, kind: str) -> list[str]:
        """The streets where ``name`` may put a ``kind`` bought at the short-stock auction, now."""
        return [sid for sid in self.owned(d, name)
                if self.board.by_id[sid].kind == "street" and self._may_place(d, name, sid, kind)]

    def nowhere_to_place(self, d: Draft, name: str, kind: str, paid: int) -> None:
        """The building goes back to the bank, and so does the money paid for it."""
        hotel = kind == "hotel"
        d.say("say", m("{player} has nowhere to put the hotel: it stays with the bank" if hotel else
                       "{player} has nowhere to put the house: it stays with the bank", player=name))
        if not d.player(name)["bankrupt"]:
            self.transfer(d, "bank", name, paid, m("back for the hotel" if hotel else "back for the house"))

    def _may_place(self, d: Draft, name: str, sid: str, kind: str) -> bool:
        try:
            return self.build_check(d, name, sid)[1] == kind
        except ValueError:
            return False

    def answer_place_building(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        kind, name = prompt["building"], prompt["player"]
        if self.build_check(d, name, value)[1] != kind:  # the options are kept current by ``resume``
            raise reject("{player} cannot put a hotel on {space} now" if kind == "hotel" else
                         "{player} cannot put a house on {space} now", player=name, space=value)
        self.place_building(d, self.board.by_id[value], kind)

    def resume(self, d: Draft) -> None:
        """After a voluntary act: a building waiting to be placed is offered only where it may go now."""
        super().resume(d)
        prompt = d.state["prompt"]
        if not prompt or prompt["kind"] != "place-building":
            return
        options = self.placements(d, prompt["player"], prompt["building"])
        if not options:
            d.state["prompt"] = None
            self.nowhere_to_place(d, prompt["player"], prompt["building"], prompt.get("paid", 0))
        elif options != prompt["options"]:
            d.state["prompt"] = {**prompt, "options": options}

    def place_building(self, d: Draft, space: Space, kind: str) -> None:
        rec, bank = d.space(space.id), d.state["bank"]
        if kind == "hotel":
            rec["houses"], rec["hotel"] = 0, True
            bank["houses"] += self.hotel_after(d)
            bank["hotels"] -= 1
            d.say("build", m("Put a hotel on {space} and return its {what} to the bank", space=space.id,
                             what=self.houses_words(d)), space=space.id, building="hotel")
        else:
            rec["houses"] += 1
            bank["houses"] -= 1
            d.say("build", m("Put a house on {space} ({n} now)", space=space.id, n=rec["houses"]), space=space.id,
                  building="house")

    def verb_sell(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        space = self.street(act.get("space"), m("{player} cannot sell a building on {ident}", player=name,
                                                ident=str(act.get("space"))))
        rec = d.read_space(space.id)
        why = m("{player} cannot sell a building on {space}", player=name, space=space.id)
        if rec["owner"] != name:
            raise reject("{why}: {player} does not own it", why=why, player=name)
        level = self.level(rec)
        if level == 0:
            raise reject("{why}: there is none", why=why)
        group = self.board.groups[space.group or ""]
        even = d.state["options"]["even_build"]
        if even and level < max(self.level(d.read_space(sid)) for sid in group):
            raise reject("{why}: sell evenly, the other streets of the {group} group come first", why=why,
                         group=space.group)
        half = (space.house or 0) // 2
        bank = d.state["bank"]
        houses = self.hotel_after(d)
        if rec["hotel"] and bank["houses"] < houses:
            self.sell_group_down(d, name, space, group if even else [space.id])
            return
        rec = d.space(space.id)
        if rec["hotel"]:
            rec["hotel"], rec["houses"] = False, houses
            bank["hotels"] += 1
            bank["houses"] -= houses
            said = mp("Take the hotel off {space} and put {count} house there",
                      "Take the hotel off {space} and put {count} houses there", houses, space=space.id)
            self.transfer(d, "bank", name, half, m("for the hotel on {space}", space=space.id))
        else:
            rec["houses"] -= 1
            bank["houses"] += 1
            said = m("Take a house off {space}", space=space.id)
            self.transfer(d, "bank", name, half, m("for a house on {space}", space=space.id))
        d.say("build", said, space=space.id)

    def sell_group_down(self, d: Draft, name: str, space: Space, group: Sequence[str]) -> None:
        """A hotel sold while the bank has fewer than four houses cannot become four houses, and a street
        beside a hotel must hold four: every hotel of the group comes off, and the houses there are (the bank's
        and those on the group) are spread evenly, as many as can be. The player is paid half price for every
        building that goes back. Evenness holds after every sale (RULES.md). (Four: option ``houses_before_hotel``;
        with ``even_build`` false ``group`` is the sold street alone.)"""
        bank = d.state["bank"]
        most = self.hotel_after(d)
        hotels = {sid for sid in group if d.read_space(sid)["hotel"]}
        before = {sid: self.buildings(d, d.read_space(sid)) for sid in group}
        caps = {sid: min(level, most) for sid, level in before.items()}  # never more houses than a street had
        available = bank["houses"] + sum(level for sid, level in before.items() if sid not in hotels)
        low = next(n for n in range(most, -1, -1) if all(c >= n for c in caps.values()) and n * len(group) <= available)
        # The extra houses above the even level stay where houses already stand (fewer to move), the sold
        # street last.
        order = sorted(group, key=lambda sid: (sid in hotels, sid == space.id))
        extra = available - low * len(group)
        after = {}
        for sid in order:
            after[sid] = low + (1 if extra > 0 and caps[sid] > low else 0)
            extra -= after[sid] - low
        d.say("say", m("The bank has only {n} houses: the {group} group comes down evenly", n=bank["houses"],
                       group=space.group) if len(group) > 1 else
              m("The bank has only {n} houses: {space} comes down", n=bank["houses"], space=space.id))
        for sid in group:
            rec = d.space(sid)
            if sid in hotels:
                d.say("build", mp("Take the hotel off {space} and put {count} house there",
                                  "Take the hotel off {space} and put {count} houses there", after[sid], space=sid)
                      if after[sid] else m("Take the hotel off {space}", space=sid), space=sid)
                bank["hotels"] += 1
                bank["houses"] -= after[sid]
            elif after[sid] < before[sid]:
                d.say("build", mp("Take {count} house off {space}", "Take {count} houses off {space}",
                                  before[sid] - after[sid], space=sid), space=sid)
                bank["houses"] += before[sid] - after[sid]
            rec["hotel"], rec["houses"] = False, after[sid]
        sold = sum(before.values()) - sum(after.values())
        self.transfer(d, "bank", name, sold * ((space.house or 0) // 2),
                      m("for {n} buildings of the {group} group", n=sold, group=space.group))

    # ================================================================== mortgages
    def deed(self, d: Draft, name: str, space_id: Any, why: Message) -> Space:
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        if space is None or not space.ownable:
            raise reject("{why}: there is no property {value}", why=why, value=space_id)
        if d.read_space(space.id)["owner"] != name:
            raise reject("{why}: {player} does not own {space}", why=why, player=name, space=space.id)
        return space

    def named(self, space_id: Any) -> str:
        """A space as players name it in a refusal ("Baltic Avenue"); the id as sent when no space has it."""
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        return space.name if space is not None else str(space_id)

    def verb_mortgage(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        why = m("{player} cannot mortgage {space}", player=name, space=act.get("space"))
        space = self.deed(d, name, act.get("space"), why)
        if d.read_space(space.id)["mortgaged"]:
            raise reject("{why}: it is mortgaged already", why=why)
        if space.kind == "street" and self.group_built(d, space):
            raise reject("{why}: sell the buildings of the {group} group first", why=why, group=space.group)
        d.space(space.id)["mortgaged"] = True
        self.transfer(d, "bank", name, space.mortgage or 0, m("on the mortgage of {space}", space=space.id))
        d.say("deed", m("Turn the deed of {space} face down", space=space.id), space=space.id)

    def verb_unmortgage(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.check_spending(d, name, m("lift a mortgage"))
        why = m("{player} cannot lift the mortgage on {space}", player=name, space=act.get("space"))
        space = self.deed(d, name, act.get("space"), why)
        if not d.read_space(space.id)["mortgaged"]:
            raise reject("{why}: it is not mortgaged", why=why)
        cost = (space.mortgage or 0) + interest(space.mortgage or 0)
        if d.player(name)["cash"] < cost:
            raise reject("{why}: it costs {cost}", why=why, cost=cost)
        d.space(space.id)["mortgaged"] = False
        self.transfer(d, name, "bank", cost, m("to lift the mortgage on {space}", space=space.id))
        d.say("deed", m("Turn the deed of {space} face up", space=space.id), space=space.id)
