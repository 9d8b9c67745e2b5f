"""The app's URL rules, which write their URL-building code only when a URL is first built from them.

werkzeug compiles two builder functions for every rule when the rule is added (it writes their Python and
compiles it): ~12 ms of the table's start here for the app's ~35 routes, a quarter of a second on a Pi Zero
(issue 43), though the page builds URLs of one endpoint only (``url_for("static", ...)`` in its templates). A rule
of this class matches requests as werkzeug's does (its matching is compiled as before) and compiles each builder
when it is first called.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import Rule


class LazyRule(Rule):
    """A werkzeug ``Rule`` whose URL builders are compiled on first use (``url_for``)."""

    def _compile_builder(self, append_unknown: bool = True) -> Any:
        compiled: list[Any] = []  # the builder, once written

        def build(rule: LazyRule, *args: Any, **kwargs: Any) -> Any:
            if not compiled:
                compiled.append(Rule._compile_builder(rule, append_unknown).__get__(rule, None))
            return compiled[0](*args, **kwargs)

        return build
