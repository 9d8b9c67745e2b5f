"""Real estate of the property trading games: who owns what, houses and hotels, mortgages (RULES.md §1).

:class:`RealEstate` is the part of ``classic`` (and so of ``addon``) that reads and changes the
deeds on the board: who owns what (``owned``, ``owns_group``, ``worth``: rent, income tax
and the end by worth ask it), the ``build`` and ``sell`` verbs with the even-building rule and the
auction of the bank's last houses or hotels, and the ``mortgage`` and ``unmortgage`` verbs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..board import Space
from ..core import Ruleset, money, names_of, reject
from ..draft import Draft, Event, State
from .auction import Auctions


def buildings_text(level: int) -> str:
    """A street's buildings in words: "no houses", "1 house", "3 houses", "a hotel"."""
    if level == 5:
        return "a hotel"
    return "no houses" if level == 0 else f"{level} house{'s' if level > 1 else ''}"


NUMBER_WORDS = ("no", "one", "two", "three", "four")


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
        for m in self.board.groups[space.group or ""]:  # a loop, not all(<generator>): this runs on every rent
            if spaces[m]["owner"] != name:
                return False
        return True

    def count_owned(self, d: Draft, name: str, space: Space) -> int:
        spaces = d.state["spaces"]
        return sum(1 for m in self.board.groups[space.group or ""] if spaces[m]["owner"] == name)

    def undo_instructions(self, before: State, after: State) -> list[Event]:
        """Tokens (the core's), then the buildings and mortgages the undone input changed."""
        events = super().undo_instructions(before, after)
        for sid, rec in after["spaces"].items():
            old = before["spaces"].get(sid)
            if old is None or old is rec:
                continue
            name = self.board.by_id[sid].name
            if old.get("owner") != rec.get("owner"):
                events.append({"kind": "deed", "space": sid, "undo": True, "player": rec.get("owner"),
                               "text": f"Give {name}'s deed back to {rec['owner']}" if rec.get("owner")
                               else f"Put {name}'s deed back in the bank"})
            if "houses" in rec and self.level(old) != self.level(rec):
                events.append({"kind": "say", "space": sid, "undo": True,
                               "text": f"Put {name} back to {buildings_text(self.level(rec))}"})
            if old.get("mortgaged") != rec.get("mortgaged"):
                side = "face down (mortgaged)" if rec["mortgaged"] else "face up"
                events.append({"kind": "say", "space": sid, "undo": True, "text": f"Turn {name}'s deed {side} again"})
        return events

    @staticmethod
    def level(rec: Mapping[str, Any]) -> int:
        """Buildings on a street as one number: houses 0-4, a hotel 5."""
        return 5 if rec["hotel"] else rec["houses"]

    def hotel_after(self, d: Draft) -> int:
        """Houses a street holds before its hotel (option ``houses_before_hotel``; the book: 4)."""
        return int(d.state["options"]["houses_before_hotel"])

    def houses_words(self, d: Draft) -> str:
        """The houses a hotel replaces, in words: "four houses"."""
        return f"{NUMBER_WORDS[self.hotel_after(d)]} house{'s' if self.hotel_after(d) > 1 else ''}"

    def buildings(self, d: Draft, rec: Mapping[str, Any]) -> int:
        """A street's buildings counted at a house's price each: its houses, or a hotel and the houses it replaced."""
        return self.hotel_after(d) + 1 if rec["hotel"] else int(rec["houses"])

    def worth(self, d: Draft, name: str) -> int:
        """Cash + printed price of all property (mortgaged or not) + cost of buildings."""
        total = d.player(name)["cash"]
        for sid in self.owned(d, name):
            space = self.board.by_id[sid]
            total += (space.price or 0) + self.buildings(d, d.read_space(sid)) * (space.house or 0)
        return total

    # ================================================================== building
    def build_check(self, d: Draft, name: str, space_id: Any) -> tuple[Space, str]:
        """Why ``name`` may build on ``space_id`` (returns the space and "house"/"hotel"), or a rejection."""
        space = self.street(space_id, f"{name} cannot build on {space_id}")
        rec = d.read_space(space.id)
        why = f"{name} cannot build on {space.name}"
        if rec["owner"] != name:
            raise reject(f"{why}: {name} does not own it")
        if not self.owns_group(d, name, space):
            raise reject(f"{why}: {name} does not own the whole {space.group} group")
        group = self.board.groups[space.group or ""]
        if any(d.read_space(m)["mortgaged"] for m in group):
            raise reject(f"{why}: a street of the {space.group} group is mortgaged")
        level = self.level(rec)
        if level == 5:
            raise reject(f"{why}: it has a hotel already")
        if d.state["options"]["even_build"] and level > min(self.level(d.read_space(m)) for m in group):
            raise reject(f"{why}: build evenly, the other streets of the {space.group} group come first")
        kind = "hotel" if level == self.hotel_after(d) else "house"
        return space, kind

    def street(self, space_id: Any, why: str) -> Space:
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        if space is None:
            raise reject(f"{why}: there is no space {space_id!r}")
        if space.kind != "street":
            raise reject(f"{why}: {space.name} is not a street")
        return space

    def verb_build(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.check_spending(d, name, "build")
        space, kind = self.build_check(d, name, act.get("space"))
        stock = d.state["bank"][kind + "s"]
        if stock < 1:
            raise reject(f"{name} cannot build on {space.name}: the bank has no {kind}s left")
        if d.player(name)["cash"] < (space.house or 0):
            raise reject(f"{name} cannot build on {space.name}: a {kind} costs {money(space.house or 0)}")
        # Only a stock smaller than the players in the game can be short (``builders`` walks every street).
        wanting = self.builders(d, kind) if stock < len(d.solvent()) else []
        if len(wanting) > stock and d.state["prompt"]:
            if d.state["prompt"]["kind"] == "auction":
                raise reject(f"{name} cannot build on {space.name} during an auction: the bank's last "
                             f"{kind}{'s' if stock > 1 else ''} must be auctioned among {names_of(wanting)} after it")
            d.say("say", f"The bank has {stock} {kind}{'s' if stock > 1 else ''} left and "
                  f"{names_of(wanting)} can build: it is auctioned")
            self.interrupt(d, ["building-auction", kind, space.id, name, wanting])
            return
        self.transfer(d, name, "bank", space.house or 0, f"for a {kind} on {space.name}")
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
        d.ask(name, "place-building", f"{name}, where does the {kind} go?", options, building=kind, paid=lot["bid"])

    def placements(self, d: Draft, name: str, kind: str) -> list[str]:
        """The streets where ``name`` may put a ``kind`` bought at the short-stock auction, now."""
        return [sid for sid in self.owned(d, name)
                if self.board.by_id[sid].kind == "street" and self._may_place(d, name, sid, kind)]

    def nowhere_to_place(self, d: Draft, name: str, kind: str, paid: int) -> None:
        """The building goes back to the bank, and so does the money paid for it."""
        d.say("say", f"{name} has nowhere to put the {kind}: it stays with the bank")
        if not d.player(name)["bankrupt"]:
            self.transfer(d, "bank", name, paid, f"back for the {kind}")

    def _may_place(self, d: Draft, name: str, sid: str, kind: str) -> bool:
        try:
            return self.build_check(d, name, sid)[1] == kind
        except ValueError:
            return False

    def answer_place_building(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        kind, name = prompt["building"], prompt["player"]
        if self.build_check(d, name, value)[1] != kind:  # the options are kept current by ``resume``
            raise reject(f"{name} cannot put a {kind} on {self.board.by_id[value].name} now")
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
            d.say("build", f"Put a hotel on {space.name} and return its {self.houses_words(d)} to the bank",
                  space=space.id, building="hotel")
        else:
            rec["houses"] += 1
            bank["houses"] -= 1
            d.say("build", f"Put a house on {space.name} ({rec['houses']} now)", space=space.id, building="house")

    def verb_sell(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        space = self.street(act.get("space"), f"{name} cannot sell a building on {act.get('space')}")
        rec = d.read_space(space.id)
        why = f"{name} cannot sell a building on {space.name}"
        if rec["owner"] != name:
            raise reject(f"{why}: {name} does not own it")
        level = self.level(rec)
        if level == 0:
            raise reject(f"{why}: there is none")
        group = self.board.groups[space.group or ""]
        even = d.state["options"]["even_build"]
        if even and level < max(self.level(d.read_space(m)) for m in group):
            raise reject(f"{why}: sell evenly, the other streets of the {space.group} group come first")
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
            text = f"Take the hotel off {space.name} and put {houses} house{'s' if houses > 1 else ''} there"
            self.transfer(d, "bank", name, half, f"for the hotel on {space.name}")
        else:
            rec["houses"] -= 1
            bank["houses"] += 1
            text = f"Take a house off {space.name}"
            self.transfer(d, "bank", name, half, f"for a house on {space.name}")
        d.say("build", text, space=space.id)

    def sell_group_down(self, d: Draft, name: str, space: Space, group: Sequence[str]) -> None:
        """A hotel sold while the bank has fewer than four houses cannot become four houses, and a street
        beside a hotel must hold four: every hotel of the group comes off, and the houses there are (the bank's
        and those on the group) are spread evenly, as many as can be. The player is paid half price for every
        building that goes back. Evenness holds after every sale (RULES.md). (Four: option ``houses_before_hotel``;
        with ``even_build`` false ``group`` is the sold street alone.)"""
        bank = d.state["bank"]
        most = self.hotel_after(d)
        hotels = {m for m in group if d.read_space(m)["hotel"]}
        before = {m: self.buildings(d, d.read_space(m)) for m in group}
        caps = {m: min(level, most) for m, level in before.items()}  # never more houses than a street had
        available = bank["houses"] + sum(level for m, level in before.items() if m not in hotels)
        low = next(n for n in range(most, -1, -1) if all(c >= n for c in caps.values()) and n * len(group) <= available)
        # The extra houses above the even level stay where houses already stand (fewer to move), the sold
        # street last.
        order = sorted(group, key=lambda m: (m in hotels, m == space.id))
        extra = available - low * len(group)
        after = {}
        for m in order:
            after[m] = low + (1 if extra > 0 and caps[m] > low else 0)
            extra -= after[m] - low
        d.say("say", f"The bank has only {bank['houses']} houses: " + (
            f"the {space.group} group comes down evenly" if len(group) > 1 else f"{space.name} comes down"))
        for m in group:
            rec, street = d.space(m), self.board.by_id[m]
            if m in hotels:
                d.say("build", f"Take the hotel off {street.name}" + (f" and put {after[m]} "
                      f"{'house' if after[m] == 1 else 'houses'} there" if after[m] else ""), space=m)
                bank["hotels"] += 1
                bank["houses"] -= after[m]
            elif after[m] < before[m]:
                d.say("build", f"Take {before[m] - after[m]} {'house' if before[m] - after[m] == 1 else 'houses'} "
                      f"off {street.name}", space=m)
                bank["houses"] += before[m] - after[m]
            rec["hotel"], rec["houses"] = False, after[m]
        sold = sum(before.values()) - sum(after.values())
        self.transfer(d, "bank", name, sold * ((space.house or 0) // 2), f"for {sold} buildings of the {space.group} group")

    # ================================================================== mortgages
    def deed(self, d: Draft, name: str, space_id: Any, why: str) -> Space:
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        if space is None or not space.ownable:
            raise reject(f"{why}: there is no property {space_id!r}")
        if d.read_space(space.id)["owner"] != name:
            raise reject(f"{why}: {name} does not own {space.name}")
        return space

    def named(self, space_id: Any) -> str:
        """A space as players name it in a refusal ("Baltic Avenue"); the id as sent when no space has it."""
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        return space.name if space is not None else str(space_id)

    def verb_mortgage(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        why = f"{name} cannot mortgage {self.named(act.get('space'))}"
        space = self.deed(d, name, act.get("space"), why)
        if d.read_space(space.id)["mortgaged"]:
            raise reject(f"{why}: it is mortgaged already")
        if space.kind == "street" and any(self.level(d.read_space(m)) for m in self.board.groups[space.group or ""]):
            raise reject(f"{why}: sell the buildings of the {space.group} group first")
        d.space(space.id)["mortgaged"] = True
        self.transfer(d, "bank", name, space.mortgage or 0, f"on the mortgage of {space.name}")
        d.say("deed", f"Turn the deed of {space.name} face down", space=space.id)

    def verb_unmortgage(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.check_spending(d, name, "lift a mortgage")
        why = f"{name} cannot lift the mortgage on {self.named(act.get('space'))}"
        space = self.deed(d, name, act.get("space"), why)
        if not d.read_space(space.id)["mortgaged"]:
            raise reject(f"{why}: it is not mortgaged")
        cost = (space.mortgage or 0) + interest(space.mortgage or 0)
        if d.player(name)["cash"] < cost:
            raise reject(f"{why}: it costs {money(cost)}")
        d.space(space.id)["mortgaged"] = False
        self.transfer(d, name, "bank", cost, f"to lift the mortgage on {space.name}")
        d.say("deed", f"Turn the deed of {space.name} face up", space=space.id)
