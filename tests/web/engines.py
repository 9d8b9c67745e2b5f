"""Two browser engines behind one small interface, so that a scenario is written once and run on both.

* ``chromium``: Playwright driving Debian's ``/usr/bin/chromium`` (Android's phones, and the page's first engine).
* ``webkit``: Selenium driving WebKitGTK through ``WebKitWebDriver`` (Debian's ``webkit2gtk-driver``), whose browser
  is WebKitGTK's MiniBrowser, shown on an Xvfb screen started here (Debian's ``xvfb``). Every browser on an iPhone
  renders with WebKit.

Both open the page at a phone's 390x844 CSS pixels with two device pixels to one. A scenario finds elements by
their stable ids and data attributes (CSS) or by accessible role and name (:class:`Role`), never by layout.

Screenshots: ``shot(phone, name)`` keeps ``<dir>/<engine>/<name>.png`` and, once both engines took the same view,
``<dir>/side-by-side/<name>.png`` (Chromium left, WebKit right). ``<dir>`` is ``$COMPANION_SCREENSHOTS``, by default
``test-artifacts/engines/`` at the top of the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
               "/usr/libexec/webkit2gtk-4.1/MiniBrowser")
#: How long WebKitWebDriver may take to start a session. Once in a while (seen in a full suite on a clean clone) it
#: waits for a MiniBrowser that never comes up, with no timeout of its own: killed then, and started once more.
SESSION_START = 90.0
WIDTH, HEIGHT, SCALE = 390, 844, 2  # a phone's viewport, in CSS pixels, and its device pixels per CSS pixel
TIMEOUT = 10.0  # seconds: generous for a loaded CI machine; scenarios never assert on speed
ENGINES = ("chromium", "webkit")
# Selenium's own WebKitGTK class still sets its driver's address the old way (selenium 4.2x-4.5x): not ours to fix.
QUIET_SELENIUM = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")
# MiniBrowser's tool bar is wider than a phone: its widgets are shrunk (GTK's own style sheet, read from
# $XDG_CONFIG_HOME) so that the window, and so the page's viewport, can be 390 CSS pixels wide. The page is not
# styled by GTK.
GTK_CSS = ("toolbar, toolbar *, entry, button, headerbar, headerbar * { min-width: 0; min-height: 0; padding: 0; "
           "margin: 0; font-size: 1px; border-width: 0; }\n")
# Errors thrown by the page, gathered by the page itself for Selenium (which has no such event): installed after
# each load, so an error while the page starts shows as a page that does not work rather than here.
COLLECT_ERRORS = """
if (!window.__errors) { window.__errors = [];
  addEventListener("error", (e) => window.__errors.push(String(e.message)));
  addEventListener("unhandledrejection", (e) => window.__errors.push(String(e.reason))); }
"""

ACTIONABLE = "const e = arguments[0]; return !e.disabled && !e.closest('[inert]');"


def screenshots_dir() -> Path:
    return Path(os.environ.get("COMPANION_SCREENSHOTS") or Path(__file__).parents[2] / "test-artifacts" / "engines")


def unavailable(reason: str) -> None:
    """Skip, or fail under CI: CI never passes without having run both engines."""
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


@dataclass(frozen=True)
class Role:
    """An element found by its accessible role and name, as a screen reader would: ``Role("button", "Join")``."""

    role: str
    name: str


Target = str | Role  # a CSS selector, or a role and name
# The elements that may have each role on this page, for the engine (Selenium) that has no query by role.
ROLE_CSS = {"button": "button, [role=button], input[type=submit], input[type=button]",
            "checkbox": "input[type=checkbox], [role=checkbox]", "combobox": "select", "spinbutton": "input[type=number]",
            "textbox": "input:not([type]), input[type=text], input[type=password], textarea", "link": "a[href]"}


class Phone(Protocol):
    """One phone showing the page: what a scenario does with it, the same on every engine."""

    engine: str

    def goto(self, url: str) -> None: ...
    def click(self, target: Target, *, confirm: bool = False) -> None: ...
    def fill(self, target: Target, text: str) -> None: ...
    def select(self, target: Target, value: str) -> None: ...
    def check(self, target: Target) -> None: ...
    def text(self, target: Target) -> str: ...
    def count(self, target: Target) -> int: ...
    def visible(self, target: Target) -> bool: ...
    def value(self, target: Target) -> str: ...
    def run(self, body: str) -> Any: ...
    def screenshot(self, path: Path) -> None: ...
    def errors(self) -> list[str]: ...
    def close(self) -> None: ...


def normal(text: str | None) -> str:
    return " ".join((text or "").split())


def until(what: str, probe: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
    """Poll ``probe`` until it gives something true; fail with ``what`` (and the last answer) if it never does."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while True:
        try:
            last = probe()
            if last:
                return last
        except Exception as error:  # an element not there yet, a stale one: look again
            last = error
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (last: {last!r})")
        time.sleep(0.05)


def wait_text(phone: Phone, target: Target, text: str) -> None:
    """Wait until ``target``'s text (spaces collapsed) is ``text``."""
    seen = [""]
    try:
        until(f"{target} never read {text!r}", lambda: seen.append(phone.text(target)) or seen[-1] == text)
    except AssertionError:
        raise AssertionError(f"{target} reads {seen[-1]!r}, never {text!r}") from None


def wait_contains(phone: Phone, target: Target, text: str) -> None:
    until(f"{target} never contained {text!r}", lambda: text in phone.text(target))


def wait_visible(phone: Phone, target: Target) -> None:
    until(f"{target} never showed", lambda: phone.visible(target))


def wait_hidden(phone: Phone, target: Target) -> None:
    until(f"{target} never went away", lambda: not phone.visible(target))


def wait_live(phone: Phone) -> None:
    """Wait until the page's live stream is open (the header says "live")."""
    until("the live stream never opened", lambda: phone.count("#live.on") == 1)


# ---------------------------------------------------------------------------------------------- Chromium (Playwright)
class ChromiumPhone:
    engine = "chromium"

    def __init__(self, context: Any) -> None:
        self.context = context
        self.page = context.new_page()
        self._errors: list[str] = []
        self.page.on("pageerror", lambda error: self._errors.append(str(error)))

    def _find(self, target: Target) -> Any:
        if isinstance(target, Role):
            return self.page.get_by_role(target.role, name=target.name, exact=True)
        return self.page.locator(target)

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def click(self, target: Target, *, confirm: bool = False) -> None:
        if confirm:
            self.page.once("dialog", lambda dialog: dialog.accept())
        self._find(target).click()

    def fill(self, target: Target, text: str) -> None:
        self._find(target).fill(text)

    def select(self, target: Target, value: str) -> None:
        self._find(target).select_option(value)

    def check(self, target: Target) -> None:
        self._find(target).check()

    def text(self, target: Target) -> str:
        return normal(self._find(target).text_content(timeout=TIMEOUT * 1000))

    def count(self, target: Target) -> int:
        return int(self._find(target).count())

    def visible(self, target: Target) -> bool:
        return any(item.is_visible() for item in self._find(target).all())

    def value(self, target: Target) -> str:
        return str(self._find(target).input_value())

    def run(self, body: str) -> Any:
        return self.page.evaluate("() => {" + body + "}")

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path), full_page=True)

    def errors(self) -> list[str]:
        return list(self._errors)

    def close(self) -> None:
        self.context.close()


class ChromiumEngine:
    name = "chromium"

    def __init__(self) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            unavailable("the playwright package is not installed")
        if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
            unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    def open(self) -> ChromiumPhone:
        context = self._browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=SCALE,
                                            is_mobile=True, has_touch=True)
        context.set_default_timeout(TIMEOUT * 1000)
        return ChromiumPhone(context)

    def close(self) -> None:
        self._browser.close()
        self._playwright.stop()


# ------------------------------------------------------------------------------------ WebKit (Selenium, WebKitGTK)
class WebKitPhone:
    engine = "webkit"

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def _all(self, target: Target) -> list[Any]:
        from selenium.webdriver.common.by import By

        if isinstance(target, Role):
            found = self.driver.find_elements(By.CSS_SELECTOR, ROLE_CSS[target.role])
            # The engine's own accessibility tree names each one (WebDriver's "computed label").
            return [e for e in found if e.is_displayed() and normal(e.accessible_name) == target.name]
        return list(self.driver.find_elements(By.CSS_SELECTOR, target))

    def _one(self, target: Target, *, shown: bool = True) -> Any:
        """The one element ``target`` finds; ``shown``: once displayed and able to take a tap or keys (not disabled,
        not inert: the page makes its money controls inert a moment after an act), as Playwright waits for."""
        def single() -> Any:
            found = [e for e in self._all(target) if not shown or e.is_displayed()]
            assert len(found) <= 1, f"{target} matches {len(found)} elements"
            if found and shown and not self.driver.execute_script(ACTIONABLE, found[0]):
                return None
            return found[0] if found else None
        return until(f"{target} never showed" + (" and took input" if shown else ""), single)

    def goto(self, url: str) -> None:
        self.driver.get(url)
        self.driver.execute_script(COLLECT_ERRORS)

    def click(self, target: Target, *, confirm: bool = False) -> None:
        until(f"{target} could not be clicked", lambda: self._one(target).click() or True)
        if confirm:
            alert = until("no confirmation was asked", lambda: self.driver.switch_to.alert)
            alert.accept()

    def fill(self, target: Target, text: str) -> None:
        def typed() -> bool:
            element = self._one(target)
            # Emptied as Playwright's fill does (WebKitWebDriver will not clear a number field), then typed.
            self.driver.execute_script("arguments[0].value = ''", element)
            element.send_keys(text)
            return bool(element.get_property("value") == text)

        # Tried again while the field cannot take keys (inert a moment after an act, as Playwright waits for it).
        until(f"{target} never took {text!r}", typed)

    def select(self, target: Target, value: str) -> None:
        from selenium.webdriver.support.select import Select

        until(f"{target} never offered {value!r}", lambda: Select(self._one(target)).select_by_value(value) or True)

    def check(self, target: Target) -> None:
        def checked() -> bool:
            element = self._one(target)
            if not element.is_selected():
                element.click()
            return bool(element.is_selected())

        until(f"{target} never checked", checked)

    def text(self, target: Target) -> str:
        return normal(self.driver.execute_script("return arguments[0].textContent", self._one(target, shown=False)))

    def count(self, target: Target) -> int:
        return len(self._all(target))

    def visible(self, target: Target) -> bool:
        return any(e.is_displayed() for e in self._all(target))

    def value(self, target: Target) -> str:
        return str(self._one(target).get_property("value"))

    def run(self, body: str) -> Any:
        return self.driver.execute_script(body)

    def screenshot(self, path: Path) -> None:
        """The whole page, as Playwright's ``full_page``: the window is made as tall as the page for the shot."""
        rect = self.driver.get_window_rect()
        chrome = rect["height"] - self.driver.execute_script("return innerHeight")
        tall = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_rect(width=rect["width"], height=max(tall, HEIGHT) + chrome)
        try:
            time.sleep(0.2)  # the page lays itself out at the new height
            self.driver.save_screenshot(str(path))
        finally:
            self.driver.set_window_rect(width=rect["width"], height=rect["height"])

    def errors(self) -> list[str]:
        return list(self.driver.execute_script("return window.__errors || []"))

    def close(self) -> None:
        self.driver.quit()


class WebKitEngine:
    name = "webkit"

    def __init__(self, workdir: Path) -> None:
        try:
            from selenium import webdriver
        except ImportError:
            unavailable("the selenium package is not installed")
        browser = next((path for path in MINIBROWSER if os.path.exists(path)), None)
        if not os.path.exists(WEBKIT_DRIVER) or browser is None:
            unavailable(f"{WEBKIT_DRIVER} or WebKitGTK's MiniBrowser is missing (apt-get install webkit2gtk-driver)")
        if not shutil.which("Xvfb"):
            unavailable("Xvfb is missing (apt-get install xvfb)")
        self._webdriver, self._browser = webdriver, browser
        (workdir / "gtk-3.0").mkdir(parents=True, exist_ok=True)
        (workdir / "gtk-3.0" / "gtk.css").write_text(GTK_CSS)
        self._xvfb, display = start_xvfb()
        # GDK_SCALE=2: two device pixels to a CSS pixel, as on a phone (and as Chromium is run here).
        self._env = {**os.environ, "DISPLAY": display, "GDK_SCALE": str(SCALE), "XDG_CONFIG_HOME": str(workdir)}

    def open(self) -> WebKitPhone:
        from selenium.webdriver.webkitgtk.service import Service

        options = self._webdriver.WebKitGTKOptions()
        options.binary_location = self._browser
        options.add_argument("--automation")
        driver = self._session(options, lambda: Service(executable_path=WEBKIT_DRIVER, env=self._env))
        driver.set_window_rect(x=0, y=0, width=WIDTH, height=HEIGHT)

        def phone_sized() -> bool:
            """The window grown by what is left of the tool bar (measured once it is laid out) until the page's
            viewport is a phone's."""
            width, height, scale = driver.execute_script("return [innerWidth, innerHeight, devicePixelRatio]")
            if height != HEIGHT:
                driver.set_window_rect(width=WIDTH, height=driver.get_window_rect()["height"] + HEIGHT - height)
            return bool([width, height, scale] == [WIDTH, HEIGHT, SCALE])

        try:
            until("WebKit's viewport is not a phone's", phone_sized)
        except AssertionError:
            driver.quit()
            raise
        return WebKitPhone(driver)

    def _session(self, options: Any, service_of: Callable[[], Any], tries: int = 2) -> Any:
        """A WebKitGTK driver with its session started; a start that hangs past :data:`SESSION_START` (the driver
        waiting for a browser that never came up) has its WebKitWebDriver killed and is tried again."""
        service = service_of()
        hung = threading.Event()

        def kill() -> None:
            hung.set()
            if service.process is not None:
                service.process.kill()  # the session's request then fails at once

        watchdog = threading.Timer(SESSION_START, kill)
        watchdog.start()
        try:
            return self._webdriver.WebKitGTK(options=options, service=service)
        except Exception:
            if hung.is_set() and tries > 1:
                return self._session(options, service_of, tries - 1)
            raise
        finally:
            watchdog.cancel()

    def close(self) -> None:
        self._xvfb.terminate()
        self._xvfb.wait(timeout=10)


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An X screen of its own (a free display number, chosen by Xvfb), large enough for a page shot whole."""
    read, write = os.pipe()
    screen = f"{(WIDTH + 50) * SCALE}x{4000 * SCALE // 2}x24"
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                            pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    if not number:
        xvfb.kill()
        unavailable("Xvfb did not start")
    return xvfb, f":{number}"


@contextmanager
def engine_named(name: str, workdir: Path) -> Iterator[ChromiumEngine | WebKitEngine]:
    engine: ChromiumEngine | WebKitEngine = ChromiumEngine() if name == "chromium" else WebKitEngine(workdir)
    try:
        yield engine
    finally:
        engine.close()


def shot(phone: Phone, name: str) -> Path:
    """Keep a screenshot of the whole page, and the side-by-side pair once both engines have taken ``name``."""
    base = screenshots_dir()
    path = base / phone.engine / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    until("the page's controls never settled", lambda: phone.count("[inert]") == 0)  # not dimmed after an act
    phone.run("window.scrollTo(0, 0)")  # the sticky header at the top of the shot, where the page begins
    phone.screenshot(path)
    pair = [base / engine / f"{name}.png" for engine in ENGINES]
    if all(p.exists() for p in pair):
        side_by_side(pair, base / "side-by-side" / f"{name}.png")
    return path


def side_by_side(paths: list[Path], out: Path) -> None:
    from PIL import Image, ImageDraw

    images = [Image.open(p).convert("RGB") for p in paths]
    gap, label = 16, 40
    width = sum(i.width for i in images) + gap * (len(images) - 1)
    joined = Image.new("RGB", (width, max(i.height for i in images) + label), "#000000")
    draw = ImageDraw.Draw(joined)
    x = 0
    for path, image in zip(paths, images):
        draw.text((x + 12, 12), path.parent.name, fill="#ffffff", font_size=24)
        joined.paste(image, (x, label))
        x += image.width + gap
    out.parent.mkdir(parents=True, exist_ok=True)
    joined.save(out)
