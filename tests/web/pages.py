"""A browser page opened at a phone's size for the page's tests (errors kept in ``page.errors``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .test_browser import PHONE, TIMEOUT

# What a page's accessibility checks find: controls without a name, text under 4.5:1 (3:1 when large) against its
# background (faded, disabled and inert controls aside), and how wide the page is laid out.
A11Y = """() => {
  const visible = (e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed';
  const unnamed = [...document.querySelectorAll('button, input, select, textarea, a[href], [role=button]')]
    .filter(visible).filter((e) => {
      const by = e.getAttribute('aria-labelledby');
      const name = e.getAttribute('aria-label') || (by && document.getElementById(by)?.textContent)
        || (e.labels && e.labels.length && e.labels[0].textContent) || e.textContent || e.title;
      return !name || !name.trim();
    }).map((e) => e.outerHTML.slice(0, 80));
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (e) => {
    for (let n = e; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor;
      if (rgb(c).length < 4 ? c !== 'rgba(0, 0, 0, 0)' : rgb(c)[3] === 1) return rgb(c).slice(0, 3);
    }
    return [20, 22, 26];
  };
  const faded = (e) => { for (let n = e; n; n = n.parentElement) if (getComputedStyle(n).opacity < 1 || n.disabled || n.inert) return true; return false; };
  const poor = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!visible(e) || faded(e) || e.closest('svg') || ![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(e), size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const a = lum(rgb(style.color).slice(0, 3)), b = lum(background(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < (size >= 24 || (bold && size >= 18.66) ? 3 : 4.5)) poor.push(`${e.tagName} "${e.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
  }
  // The widest things (a phone widens its layout to fit them: innerWidth is no measure).
  const wide = [...document.querySelectorAll('main *, header *')].filter(visible)
    .map((e) => [Math.round(e.getBoundingClientRect().right), e.tagName + '#' + e.id + '.' + e.className]).sort((a, b) => b[0] - a[0]).slice(0, 6);
  return { unnamed, poor, width: document.documentElement.scrollWidth, wide };
}"""


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
