"""Debian's Chromium driven by Playwright against the live test server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: `make test` installs Debian's chromium (scripts/install_chromium.sh).")
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test are sync.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def tablet(browser, live_server, person):
    """A 10-inch touch tablet signed in as ``person`` on the live server, collecting console errors."""
    from tests.conftest import PASSWORD

    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.goto(f"{live_server.url}/floor/login/")
    page.fill("#id_username", person.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Sign in')")
    page.wait_for_selector("text=Good to see you")
    return page


def admin(browser, live_server, person):
    """The admin on a 1280x800 screen, signed in as ``person``, collecting console errors."""
    from tests.conftest import PASSWORD

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", person.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    return page


def rows(locator) -> list[list[str]]:
    """The cells' text of each table row in ``locator`` (a row itself, or what holds rows)."""
    return locator.evaluate_all(
        "found => found.flatMap(e => e.tagName === 'TR' ? [e] : Array.from(e.querySelectorAll('tr')))"
        ".map(row => Array.from(row.cells, cell => cell.innerText.trim()))"
    )
