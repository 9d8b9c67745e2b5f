"""An input's reply writes its events' sentences as ``json.dumps`` with the feed's separators would (issue 43: by the
encoder's own function for a string, not an encoder's run), and any other list as the encoder does."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.web.api import texts_json
from companion.web.feed import compact


@given(st.lists(st.one_of(st.text(), st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)), st.none(),
                          st.integers(), st.floats(allow_nan=False), st.booleans())))
def test_the_events_texts_are_the_encoders(texts: list[Any]) -> None:
    assert texts_json(texts) == compact(texts)
