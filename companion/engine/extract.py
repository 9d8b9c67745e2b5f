"""Babel's extraction method for the engine's msgids (``babel-engine.cfg``): not run by the engine itself.

``pybabel extract`` hands it each source file of ``companion/engine``; it reads the file's syntax tree and yields
every msgid a message is made of: the first argument of :func:`~.messages.m`, :func:`~.core.reject`,
:func:`~.messages.n_` and ``IllegalInput``, each alternative of a conditional there (``m("A" if x else "B")``:
both are whole sentences a translator sees), and the two of :func:`~.messages.mp` and :func:`~.messages.np_`
(a plural). Tables of msgids mark theirs with ``n_`` or ``np_``. Python's own extractor would miss the
conditionals, which keep a sentence whole instead of gluing English pieces together.

    pybabel extract -F babel-engine.cfg -o companion/words/locales/engine.pot .

(docs/languages.md, "The engine's catalogue").
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

#: Calls whose first argument is a msgid (or a conditional choosing between msgids).
SINGULAR = frozenset({"m", "n_", "reject", "IllegalInput"})
#: Calls whose first two arguments are a singular and a plural msgid.
PLURAL = frozenset({"mp", "np_"})

Found = tuple[int, str, "str | tuple[str, str]", list[str]]


def extract(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[Found]:
    """Babel's extraction method: ``(line, function, msgid or (singular, plural), comments)`` for each msgid."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else None
        if name in PLURAL and len(node.args) >= 2:
            singular, plural = _text(node.args[0]), _text(node.args[1])
            if singular is not None and plural is not None:
                yield node.lineno, "ngettext", (singular, plural), []
        elif name == "IllegalInput" and len(node.args) >= 3 and _text(node.args[2]) is not None:
            singular, plural = _text(node.args[0]), _text(node.args[2])
            if singular is not None and plural is not None:
                yield node.lineno, "ngettext", (singular, plural), []
        elif name in SINGULAR:
            for msgid in _alternatives(node.args[0]):
                yield node.lineno, "gettext", msgid, []


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _alternatives(node: ast.expr) -> Iterator[str]:
    """The msgids an argument may be: a string, or each branch of a conditional expression."""
    text = _text(node)
    if text is not None:
        yield text
    elif isinstance(node, ast.IfExp):
        yield from _alternatives(node.body)
        yield from _alternatives(node.orelse)
