"""A browser page opened at a phone's size for the page's tests (errors kept in ``page.errors``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .test_browser import PHONE, TIMEOUT


@contextmanager
def opened(browser: Any, url: str, size: dict[str, Any] = PHONE) -> Iterator[Any]:
    context = browser.new_context(**size)
    context.set_default_timeout(TIMEOUT)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        page.goto(url)
        yield page
    finally:
        context.close()
