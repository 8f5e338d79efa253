"""Regression tests for the web app bugs of issue 11 (each failed before its fix)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Server, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

POSITION = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def _open(page: Any, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.base + created["links"]["player"])
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.version !== undefined")


def _local(server: Server) -> dict[str, Any]:
    return dict(
        server.api(
            "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": POSITION}
        )
    )


def test_a_draw_at_one_screen_asks_first(page: Any, server: Server) -> None:
    """Bug 2: at one screen "Offer draw" ended the game at once."""
    created = _local(server)
    _open(page, server, created)
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.click("#draw")
    page.wait_for_timeout(500)  # (the sync API handles the dialog event while it waits)
    assert asked, "no confirmation was asked"
    assert server.game(created["id"], created["token"])["status"] == "active"
    page.remove_listener("dialog", dismiss)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#draw")
    page.wait_for_function("document.body.dataset.status === 'finished'")
    assert server.game(created["id"], created["token"])["outcome"]["reason"] == "agreement"


def test_a_draw_declined_by_the_computer_is_said(page: Any, server: Server) -> None:
    """Bug 3: the computer's refusal was wiped when the button's answer arrived."""
    created = server.api(
        "POST",
        "/api/games",
        json={"game": "custodian", "mode": "computer", "level": "random", "position": POSITION},
    )
    _open(page, server, created)
    with page.expect_response(lambda r: r.url.endswith("/draw")):
        page.click("#draw")
    page.wait_for_timeout(500)
    assert "declined the draw" in page.locator("#message").inner_text()
    assert server.game(created["id"], created["token"])["status"] == "active"


def test_f_flips_the_board_right_after_load(page: Any, server: Server) -> None:
    """Bug 4: the board took focus and the flip shortcut ignored keys sent to it."""
    created = _local(server)
    _open(page, server, created)
    where = "document.querySelector('#board [data-square=\"a1\"]').getBoundingClientRect().y"
    before = page.evaluate(where)
    page.keyboard.press("f")
    page.wait_for_function(f"{where} < {before} - 50")
    assert page.evaluate("document.activeElement.id") == "board"


def test_a_spectator_sees_no_private_link(browser: Any, server: Server) -> None:
    """Bug 6: spectators saw "Your private link (keep it secret)", empty."""
    created = _local(server)
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["spectate"])
        page.wait_for_selector("#board svg")
        page.wait_for_function("document.body.dataset.version !== undefined")
        assert not page.get_by_text("Your private link").is_visible()
        screenshot(page, "spectator")
    finally:
        context.close()
    # the player does see it
    player = browser.new_context(bypass_csp=True)
    try:
        page = player.new_page()
        _open(page, server, created)
        assert page.get_by_text("Your private link").is_visible()
    finally:
        player.close()


def test_a_rematch_throws_nothing(page: Any, server: Server) -> None:
    """Bug 7: every rematch threw a TypeError (the rematch answer went to ``Board.show``)."""
    created = _local(server)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _open(page, server, created)
    server.api("POST", f"/api/games/{created['id']}/resign", created["token"], json={})
    page.wait_for_function("document.body.dataset.status === 'finished'")
    page.click("#rematch")
    page.wait_for_url(lambda url: created["id"] not in url)
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.status === 'active'")
    assert not errors, errors
