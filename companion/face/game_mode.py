"""The game's own question on the buttons: what the table does when no other mode is open.

ROLL rolls when the game waits for dice (YES never does: see :data:`ROLL_ONLY`); YES / NO answer a yes-or-no question; for longer lists PREV / NEXT browse
the prompt's choices (:mod:`.choices`) and YES takes one (a costly one on a second YES). PREV / NEXT at a yes-or-no
question go onto its extras (the player's deeds, an offer's answers); NO goes back to the question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, overload

from companion.engine import State, find_ruleset
from companion.words import N_

from .choices import Browsed, browsed_choices, choice_key, first_choice, may_be
from .modes import Desk, Mode
from .screens import Choice

#: What YES on "Roll the dice" says: the roll is ROLL's alone.
ROLL_ONLY = N_("Press ROLL to roll the dice")


@dataclass
class Action:
    """One choice of the game's question: its label and what YES does."""

    choice: Browsed  # what it is (a deeds entry works out its words when they are read)
    run: Callable[[], object]  # its result, if any, is not used

    @property
    def label(self) -> str:
        return self.choice.label

    @property
    def confirm(self) -> str | None:
        """Ask "are you sure?" first."""
        return self.choice.confirm

    @property
    def extra(self) -> bool:
        """Taken only once PREV/NEXT went to it (see ButtonChoice.extra)."""
        return self.choice.extra

    @property
    def key(self) -> str:
        """What it sends, to find it again in the next state's list."""
        return choice_key(self.choice)


class Labelled(Sequence[str]):
    """The actions' labels as the screen reads them (:class:`~.screens.Choice`): each worked out when read, so that
    a screen showing one label (the cursor's) never works out the deeds entry's words it does not show."""

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = actions

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [a.label for a in self.actions[index]]
        return self.actions[index].label


class Player(Desk, Protocol):
    """What the game's question may do beyond a mode (implemented by :class:`~.controller.TableController`)."""

    def new_game(self) -> None:
        """The set-up of a new game."""

    def roll_dice(self, prompt: Mapping[str, Any]) -> None:
        """Roll for ``prompt`` with the dice source in use."""


class GameMode(Mode):
    """The cursor on the prompt's choices; the controller draws it into the game's screen (:meth:`choice`)."""

    name = "game"

    def __init__(self, desk: Player) -> None:
        super().__init__(desk)
        self.player = desk
        self.cursor = 0
        #: Whether the cursor is on one of the prompt's choices (None: as the choices say, see :meth:`selected_in`).
        self.selected: bool | None = None
        self.confirming: Action | None = None
        self._choices_of: tuple[State, list[Action]] | None = None  # the last state's choices

    def clear(self) -> None:
        """Back from another mode: the cursor at the start, nothing asked."""
        self.cursor, self.selected, self.confirming = 0, None, None

    def restart(self, state: State) -> None:
        """A new question (or the buttons' own input): the cursor on its first choice, nothing asked."""
        self.cursor, self.selected, self.confirming = first_choice(state, find_ruleset(state["ruleset"])), None, None

    def press(self, button: str) -> None:
        state = self.desk.game()
        if state is None:
            if button == "YES":
                self.player.new_game()
            return
        prompt = state.get("prompt")
        if state.get("winner") is not None or prompt is None:
            return
        choices = self.choices(state)
        selected = self.selected_in(choices)
        if button == "ROLL":
            if prompt["kind"] == "roll":
                self.player.roll_dice(prompt)
            else:
                self.desk.say(self.desk.labels().words.t("Nobody is rolling now"))
            return
        if button in ("PREV", "NEXT") and choices:
            if selected:
                self.cursor = (self.cursor + (1 if button == "NEXT" else -1)) % len(choices)
            else:  # onto the extras (the deeds at a yes/no question, an offer's answers)
                self.cursor = 0 if button == "NEXT" else len(choices) - 1
            self.selected = True
            self.confirming = None
            return
        on_extra = selected and bool(choices) and choices[self.cursor % len(choices)].extra
        if prompt.get("options") == ["yes", "no"] and button in ("YES", "NO") and not selected:
            self.desk.submit({"answer": button.lower()}, "button")
            return
        if button == "NO":
            self.confirming = None
            if on_extra:  # back to the question (or to the prompt's own choices)
                self.selected, self.cursor = None, 0
            return
        if button == "YES" and choices and selected:
            action = choices[self.cursor % len(choices)]
            if action.confirm and (self.confirming is None or self.confirming.label != action.label):
                self.confirming = action
                return
            self.confirming = None
            action.run()
        elif button == "YES" and not prompt.get("options") and prompt["kind"] != "roll":
            self.desk.say(self.desk.labels().words.t("This is for the phones"))

    def changed(self) -> None:
        self.confirming = None  # the second YES was meant for the screen before

    def choices(self, state: State) -> list[Action]:
        """What PREV/NEXT browse for the current prompt (:mod:`.choices`), each sending its input on YES.

        Found once per state (a state is never changed once built): the screen is worked out every tick, and
        finding the cards a player may play tries each on the engine; the deeds entry's words only when read."""
        if self._choices_of is None or self._choices_of[0] is not state:
            player = (state.get("prompt") or {}).get("player") or ""
            before = [a.choice for a in self._choices_of[1]] if self._choices_of is not None else []
            actions = [Action(c, self._run(c, player)) for c in browsed_choices(state, self.desk.labels(), before)]
            self._choices_of = (state, actions)
        return self._choices_of[1]

    def _run(self, choice: Browsed, player: str) -> Callable[[], object]:
        """What YES on a choice does: send its input, say that ROLL rolls (the roll's own row), or open the player's
        deeds."""
        if choice.line is not None:
            return partial(self.desk.submit, choice.line, "button")
        if choice.roll:  # only ROLL rolls: a YES there may be the second of a double press meant for the question
            return partial(self.desk.say, self.desk.labels().words.t(ROLL_ONLY))  # before (a roll cannot be undone)
        return partial(self.desk.open_deeds, player)

    def selected_in(self, choices: list[Action]) -> bool:
        """Whether the cursor is on a choice: at first, when the prompt has choices of its own (not only extras)."""
        if self.selected is None:
            return any(not a.extra for a in choices)
        return self.selected and bool(choices)

    def place(self) -> str | None:
        if self._choices_of is not None and self._choices_of[1]:
            actions = self._choices_of[1]
            return actions[self.cursor % len(actions)].key if self.selected_in(actions) else None
        return None

    def find_again(self, key: str) -> None:
        state = self.desk.game()
        if state is None:
            return
        at = next((i for i, a in enumerate(self.choices(state)) if may_be(a.choice, key)), None)
        if at is not None:
            self.cursor = at
        else:
            self.cursor, self.selected = first_choice(state, find_ruleset(state["ruleset"])), None

    def choice(self, state: State | None) -> Choice | None:
        """The choices as the game's screen shows them (``state``: the whole one, a card is offered if the engine
        takes it)."""
        choices = self.choices(state) if state is not None else []
        if not choices:
            return None
        confirm = self.confirming.confirm if self.confirming is not None else None
        return Choice(Labelled(choices), self.cursor % len(choices), confirm, self.selected_in(choices))
