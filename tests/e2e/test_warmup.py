"""A first start in the browser: while the next game's kernels still compile, the home page
says which game can be played now, and a game of it is created and played from the page."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from diceboard.server import create_app
from diceboard.server.loadtest import free_port
from tests.e2e.conftest import screenshot
from tests.server.conftest import hold_back_warm_up, make_settings

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


@pytest.fixture
def half_warm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Any]]:
    """A server (uvicorn in a thread of this process) whose Chase kernels are held back until
    the test lets them go (the release event it yields)."""
    release = hold_back_warm_up(monkeypatch, "chase")
    app = create_app(make_settings(f"sqlite:///{tmp_path / 'games.sqlite3'}"), warm_up_beside=True)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="error")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 300
    while not (server.started and app.state.warmup.game_ready("custodian")):
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{server.config.port}", release
    finally:
        release.set()
        server.should_exit = True
        thread.join(30)


def test_the_ready_game_is_named_and_played_while_the_other_warms_up(
    page: Any, half_warm: tuple[str, Any]
) -> None:
    base, release = half_warm
    page.goto(base + "/")
    page.wait_for_function("document.body.dataset.engine === 'warming'")
    box = page.locator("#engine")
    page.wait_for_function(
        "document.querySelector('#engine').textContent.includes('can be played now')"
    )
    text = box.inner_text()
    assert text.startswith("Custodian Dice can be played now."), text
    assert "Chase" not in text.split(".")[0]
    screenshot(page, "warmup-home")
    page.select_option("#game", "custodian")
    page.check('input[name="mode"][value="local"]')
    page.click("#create")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.version !== undefined")
    assert page.locator("#board [data-square]").count() >= 25
    version = int(page.evaluate("document.body.dataset.version"))
    page.locator('#board .hand-die[data-owner="W"]').first.click(force=True)
    page.locator('#board [data-square="c1"]').first.click(force=True)
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    screenshot(page, "warmup-custodian-game")
    release.set()
    page.goto(base + "/")
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=120_000)
    assert page.locator("#engine").is_hidden()
