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

Deed = dict[str, Any]


def money(amount: int) -> str:
    return f"${amount}"


def deeds(board: Board, options: Mapping[str, Any], *, dice_utilities: bool) -> dict[str, Deed]:
    """Every space's card that has something printed on it: ``{"lines": [[label, value], ...], "notes": [sentence, ...]}``.

    ``dice_utilities``: a utility's rent is a multiple of the dice (the property trading game), not an amount."""
    found = {space.id: deed(space, board, options, dice_utilities=dice_utilities) for space in board.spaces}
    return {sid: card for sid, card in found.items() if card["lines"] or card["notes"]}


def deed(space: Space, board: Board, options: Mapping[str, Any], *, dice_utilities: bool) -> Deed:
    lines: list[list[str]] = []
    notes: list[str] = []
    if space.price is not None:
        lines.append(["Price", money(space.price)])
    rent, kind = space.rent, space.kind
    group = board.groups.get(space.group or "", ())
    if kind == "street" and len(rent) == 6:
        lines.append(["Rent", money(rent[0])])
        lines += [[f"With {n} house{'s' if n > 1 else ''}", money(rent[n])] for n in range(1, 5)]
        lines.append(["With a hotel", money(rent[5])])
        if space.house is not None:
            lines += [["Houses cost", f"{money(space.house)} each"], ["A hotel costs", f"{money(space.house)} plus 4 houses"]]
        whole = "both streets" if len(group) == 2 else f"all {len(group)} streets"
        notes.append(f"Rent is doubled on an unbuilt street when one player owns {whole} of the group.")
    elif kind == "utility" and dice_utilities:
        lines += [[f"With {n} owned", f"{r} × the dice"] for n, r in enumerate(rent, 1)]
    elif kind in ("railroad", "utility") and rent:
        lines += [[f"With {n} owned", money(r)] for n, r in enumerate(rent, 1)]
        if group and not dice_utilities:
            notes.append(f"The owner's fare: by how many of the {len(group)} they hold; the board pays it to an owner "
                         "who lands on their own.")
    elif kind == "land" and rent:
        lines.append(["Rent", money(rent[0])])
        if "improvement_price" in options:
            lines += [["An improvement costs", money(int(options["improvement_price"]))],
                      ["Rent of the improvement", f"+{money(int(options['improvement_rent']))}"]]
            notes.append(f"{options['side_improvements']} improvements on one side double the land rent of the "
                         "whole side.")
    elif len(rent) == 1:
        lines.append(["Rent", money(rent[0])])
    else:
        lines += [[f"Rent {n}", money(r)] for n, r in enumerate(rent, 1)]
    if "fee" in space.data:
        lines.append(["Fee", money(int(space.data["fee"]))])
    if space.mortgage is not None:
        lines.append(["Mortgage value", money(space.mortgage)])
    return {"lines": lines, "notes": notes}
