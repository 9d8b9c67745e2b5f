"""Title deeds as printed: each ownable space's price, rents, building costs and mortgage value, in words.

The page opens a space's deed card from a deed row or the board; the words come from here, read from the board
file's numbers and the ruleset's options, so that every ruleset's spaces read as their cards do (a street's rents
with each number of houses, a railroad's by how many are owned, a utility's times the dice, a 1904 lot's rent and
a franchise's fee, 1924 land with its improvement). Nothing here decides a rent: the engine does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.board import Board, Space
from companion.words import Words

Deed = dict[str, Any]


def deeds(board: Board, options: Mapping[str, Any], *, dice_utilities: bool, words: Words | None = None) -> dict[str, Deed]:
    """Every space's card that has something printed on it: ``{"lines": [[label, value], ...], "notes": [sentence, ...]}``.

    ``dice_utilities``: a utility's rent is a multiple of the dice (the property trading game), not an amount.
    ``words``: the phone's language (English by default), amounts with the board's symbol where it puts them."""
    words = words if words is not None else Words.for_language("en", board)
    found = {space.id: deed(space, board, options, words, dice_utilities=dice_utilities) for space in board.spaces}
    return {sid: card for sid, card in found.items() if card["lines"] or card["notes"]}


def deed(space: Space, board: Board, options: Mapping[str, Any], words: Words, *, dice_utilities: bool) -> Deed:
    t, money = words.t, words.money
    lines: list[list[str]] = []
    notes: list[str] = []
    if space.price is not None:
        lines.append([t("Price"), money(space.price)])
    rent, kind = space.rent, space.kind
    group = board.groups.get(space.group or "", ())
    if kind == "street" and len(rent) == 6:
        lines.append([t("Rent"), money(rent[0])])
        lines += [[words.nt("With {n} house", "With {n} houses", n), money(rent[n])]
                  for n in range(1, 5)]
        lines.append([t("With a hotel"), money(rent[5])])
        if space.house is not None:
            lines += [[t("Houses cost"), t("{price} each", price=money(space.house))],
                      [t("A hotel costs"), t("{price} plus 4 houses", price=money(space.house))]]
        if len(group) == 2:
            notes.append(t("Rent is doubled on an unbuilt street when one player owns both streets of the group."))
        else:
            notes.append(t("Rent is doubled on an unbuilt street when one player owns all {n} streets of the group.",
                           n=words.number(len(group))))
    elif kind == "utility" and dice_utilities:
        lines += [[t("With {n} owned", n=words.number(n)), t("{n} × the dice", n=words.number(r))]
                  for n, r in enumerate(rent, 1)]
    elif kind in ("railroad", "utility") and rent:
        lines += [[t("With {n} owned", n=words.number(n)), money(r)] for n, r in enumerate(rent, 1)]
        if group and not dice_utilities:
            notes.append(t("The owner's fare: by how many of the {n} they hold; the board pays it to an owner who "
                           "lands on their own.", n=words.number(len(group))))
    elif kind == "land" and rent:
        lines.append([t("Rent"), money(rent[0])])
        if "improvement_price" in options:
            lines += [[t("An improvement costs"), money(int(options["improvement_price"]))],
                      [t("Rent of the improvement"), f"+{money(int(options['improvement_rent']))}"]]
            notes.append(t("{n} improvements on one side double the land rent of the whole side.",
                           n=options["side_improvements"]))
    elif len(rent) == 1:
        lines.append([t("Rent"), money(rent[0])])
    else:
        lines += [[t("Rent {n}", n=words.number(n)), money(r)] for n, r in enumerate(rent, 1)]
    if "fee" in space.data:
        lines.append([t("Fee"), money(int(space.data["fee"]))])
    if space.mortgage is not None:
        lines.append([t("Mortgage value"), money(space.mortgage)])
    return {"lines": lines, "notes": notes}
