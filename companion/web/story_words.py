"""The story in a phone's language: the state's ``log`` (the last lines of the game, English as DESIGN.md fixes
them) said line by line in another language, for the view of a phone reading it (``said.log``).

A log line is an event's English sentence; the table's updates bring each input's events with their messages, so
this keeps the recent ones by their sentence and says each line from its event's message, by the engine's one
renderer. The lines of a game opened before the server started (resumed after a restart) are found once by
replaying its journal (``recall``), only when a phone in another language than English first needs them. English
phones cost nothing: their view has the state's own log.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

from companion.engine import Event
from companion.words import Words
from companion.words.engine_messages import say_event

KEPT_EVENTS = 400  # the sentences remembered (the log shows 20: an undo can bring back older ones)
KEPT_SAID = 2000  # the lines said, by language and ruleset


class StoryWords:
    """The recent events by their English sentence, and each line already said in a language."""

    def __init__(self, recall: Callable[[], Iterable[Event]] | None = None) -> None:
        """``recall``: the events of the current game (a replay of its journal), asked when a line of its log is
        not among the events seen here (it replays a game once: then it has nothing more to give)."""
        self._recall = recall
        self._events: OrderedDict[str, Event] = OrderedDict()
        self._said: dict[tuple[str, str, str], str] = {}
        self._lock = threading.Lock()

    def learn(self, events: Iterable[Event]) -> None:
        """Keep ``events`` (an input's) by their English sentence."""
        with self._lock:
            for event in events:
                text = event.get("text")
                if isinstance(text, str) and "msg" in event:
                    self._events[text] = event
                    self._events.move_to_end(text)
            while len(self._events) > KEPT_EVENTS:
                self._events.popitem(last=False)

    def lines(self, log: Sequence[str], words: Words, ruleset: str) -> list[str]:
        """``log`` said in ``words`` (a language other than English; ``ruleset``: the state's, whose board names
        the spaces); a line whose event is not known even after recalling the game stays as it is (a game saved
        before events carried messages)."""
        if self._recall is not None and any(line not in self._events for line in log):
            self.learn(self._recall())
        said = []
        with self._lock:
            for line in log:
                key = (words.language, ruleset, line)
                text = self._said.get(key)
                if text is None:
                    event = self._events.get(line)
                    text = say_event(words, event) if event is not None else line
                    if len(self._said) >= KEPT_SAID:
                        self._said.clear()
                    self._said[key] = text
                said.append(text)
        return said
