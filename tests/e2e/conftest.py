"""End-to-end fixtures: a real ``diceboard serve`` subprocess and Debian's Chromium driven by
Playwright (never a downloaded browser). Screenshots go to ``artifacts/e2e/``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# the browser tests drive the web app: without the web extra they are skipped
pytest.importorskip("fastapi")

from tests.server.processes import Server, start_server, stop_server

__all__ = ["Server", "screenshot", "start_server", "stop_server", "wait_until"]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "e2e"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("e2e") / "games.sqlite3"
    # one server and one address for the whole session: more games than a visitor's share
    running = start_server(f"sqlite:///{db}", extra=("--no-client-limits",))
    yield running
    stop_server(running)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # Playwright evaluates its wait conditions as strings, which the pages' CSP forbids
    context = browser.new_context(viewport={"width": 1200, "height": 860}, bypass_csp=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, errors


def phone_context(browser: Any, width: int = 390, height: int = 844) -> Any:
    """A browser context the size of a phone, touch and all (close it when done)."""
    return browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        bypass_csp=True,
    )


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot under artifacts/e2e/ (the folder is git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def wait_until(predicate: Any, timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
