"""What changed between two JSON values: the operations a phone applies to the state it holds to get the next one.

Generic: any key of any object, at any depth, is compared (nothing here knows the state's keys), and the engine's
copy-on-write states share every part an input did not touch, so parts that are the same object are skipped without
a look inside: a money action is compared in a few dozen steps, whatever the size of the state.

An operation is a JSON array whose first item is where it applies, a JSON Pointer (RFC 6901: the keys and indexes
from the root, each after a ``/``, ``~`` written ``~0`` and ``/`` ``~1``: ``"/players/0/cash"``; ``""`` is the root):

* ``[path, value]``: set (an object's key, new or not; an array's index, or the index one past its end: append);
* ``[path]``: delete an object's key;
* ``[path, items, drop]``: an array loses its first ``drop`` items and ``items`` are added at its end (the log's
  window of recent lines moving on by a line costs that line, not the window).

Applied in order, they turn a copy of ``old`` into ``new`` (the page: ``patched`` in static/state.js; the tests:
``tests/web/sse.py``). Booleans are never taken for numbers (``True == 1`` in Python, not in JSON).
"""

from __future__ import annotations

from itertools import compress
from operator import is_, is_not
from typing import Any

Op = list[Any]


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (an empty list when they are equal)."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def pointer(path: str, key: str | int) -> str:
    """``path`` (a JSON Pointer) one key or index further."""
    text = str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return f"{path}/{text}"


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if old is new:
        return
    kind = type(new)
    if kind is not type(old):
        ops.append([path, new])
    elif kind is dict:
        if len(old) == len(new) and [*old] == [*new]:  # a copy's keys in its order: its changed values in C
            for key in compress(new, map(is_not, old.values(), new.values())):
                _diff(old[key], new[key], f"{path}/{key}" if type(key) is str and "~" not in key and "/" not in key
                      else pointer(path, key), ops)
            return
        for key, value in new.items():
            if key not in old:
                ops.append([pointer(path, key), value])
            elif old[key] is not value:  # a part the input did not touch is the same object: no path made for it
                _diff(old[key], value, pointer(path, key), ops)
        gone = old.keys() - new.keys()
        if gone:
            ops.extend([pointer(path, key)] for key in old if key in gone)
    elif kind is list:
        _diff_list(old, new, path, ops)
    elif old != new:
        ops.append([path, new])


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    """Index by index when few items changed in place; else as a window that moved on (the first items dropped, new
    ones added at the end); else the whole array."""
    if len(old) == len(new):
        # Both ends changed (a log's window moving on, not a record changed in place): two items at least, so the
        # window is what is tried first, before every item is compared.
        ends = len(new) > 1 and old[-1] is not new[-1] and old[-1] != new[-1] and old[0] is not new[0] \
            and old[0] != new[0]
        if ends and _window(old, new, path, ops):
            return
        if ends:  # items that differ: told by ``!=``, in C
            changed = [i for i, (a, b) in enumerate(zip(old, new)) if a is not b and (a != b or not same(a, b))]
        else:  # records changed in place, most of them copies: told by ``same`` alone (``!=`` would say nothing)
            changed = [i for i, (a, b) in enumerate(zip(old, new)) if a is not b and not same(a, b)]
        if not changed:
            return
        if len(changed) == 1 or ends or not _window(old, new, path, ops):
            if 2 * len(changed) > len(new):
                ops.append([path, new])
                return
            for i in changed:
                _diff(old[i], new[i], f"{path}/{i}", ops)
        return
    if not _window(old, new, path, ops):
        ops.append([path, new])


def _window(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> bool:
    """Add the window operation if ``new`` is ``old`` less its first items, more some at its end; False if not."""
    if not new:
        return False
    drop = max(0, len(old) - len(new))  # fewer dropped would keep more than ``new`` holds
    if new[0] not in old:  # told in C without raising: list.index's error would spell out the item (a line's repr)
        return False
    while drop < len(old):
        try:  # the next item equal to ``new``'s first, found in C (``same`` implies equal)
            drop = old.index(new[0], drop)
        except ValueError:
            return False
        kept = old[drop:]
        if all(map(is_, kept, new)) or all(a is b or same(a, b) for a, b in zip(kept, new)):
            if drop or len(kept) < len(new):
                ops.append([path, new[len(kept):], drop])
            return True
        drop += 1
    return False


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: the same object, or equal values of the same types all the way down (``True`` is not 1)."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:  # unequal in Python is unequal in JSON, found in C; equal may still hide a True for a 1
        if len(a) == len(b) and all(map(is_, a.values(), b.values())) and [*a] == [*b]:
            return True  # a copy (the engine's draft copies every player's record): the same items, told in C
        return a == b and all(v is b[k] or same(v, b[k]) for k, v in a.items())
    if kind is list:
        return a == b and all(x is y or same(x, y) for x, y in zip(a, b))
    return bool(a == b)
