"""A board that tells the story (issue 11): captures marked before the move and counted after
it, the move list in numbered pairs, the turn in the tab title, the exchange chooser's words,
and phone widths without sideways scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Server, screenshot, wait_until
from tests.e2e.driver import play_turn

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: White's d3-e4 sandwiches two Black dice
CUSTODIAN_CAPTURE = ".B2.B2B6/...../...W2B4/....B4/.W1W6W4W2 W 6 16"
START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def _open(page: Any, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.base + created["links"]["player"])
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.version !== undefined")


def test_a_capture_is_marked_before_the_move_and_counted(page: Any, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/games",
        json={"game": "custodian", "mode": "local", "position": CUSTODIAN_CAPTURE},
    )
    gid, token = created["id"], created["token"]
    game = server.game(gid, token)
    capture = next(m for m in game["legal"] if m["notation"].startswith("d3-e4"))
    assert capture["captures"] == 2
    _open(page, server, created)
    page.locator('#board .die[data-square="d3"]').click(force=True)
    # the destination that captures is marked as a capture, others as plain targets
    assert page.locator("#board .mark-dot-capture").count() >= 1
    assert page.locator("#board .mark-dot-target").count() >= 1
    screenshot(page, "custodian-capture-marked")
    page.locator('#board .die[data-square="d3"]').click(force=True)  # deselect
    after = play_turn(page, server, gid, token, capture)
    assert after["captured"] == {"W": 0, "B": 2}
    page.wait_for_function("document.querySelector('#bar-bottom .captured').dataset.count === '2'")
    assert page.locator("#bar-top .captured").get_attribute("data-count") == "0"
    screenshot(page, "custodian-capture")


def test_moves_read_as_numbered_pairs_and_the_title_shows_the_turn(
    page: Any, server: Server
) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": START}
    )
    gid, token = created["id"], created["token"]
    _open(page, server, created)
    assert page.title().startswith("● Your turn")
    for _ in range(5):
        game = server.game(gid, token)
        play_turn(page, server, gid, token, game["legal"][0])
    game = server.game(gid, token)
    decisions = [m for m in game["moves"] if m["seat"]]
    rows = page.locator("#moves li.move-row")
    assert rows.count() == (len(decisions) + 1) // 2
    assert rows.first.locator(".move-number").inner_text() == "1."
    # every move is a button of its row
    assert page.locator("#moves button.move").count() == len(game["moves"])
    second = rows.nth(0).locator(".move-cell").nth(1).locator("button.move:not(.roll)")
    assert second.inner_text() == decisions[1]["notation"]


def test_a_spectator_title_has_no_turn_mark(browser: Any, server: Server) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": START}
    )
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["spectate"])
        page.wait_for_function("document.body.dataset.version !== undefined")
        assert not page.title().startswith("●")
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_phone_widths_never_scroll_sideways(browser: Any, server: Server, width: int) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 780},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        bypass_csp=True,
    )
    page = context.new_page()
    overflow = "document.documentElement.scrollWidth - window.innerWidth"
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#game option", state="attached")
        assert page.evaluate(overflow) <= 0, "the home page scrolls sideways"
        for game in ("custodian", "chase"):
            created = server.api(
                "POST", "/api/games", json={"game": game, "mode": "local", "seed": 3}
            )
            gid, token = created["id"], created["token"]
            _open(page, server, created)
            for _ in range(6):
                legal = server.game(gid, token)["legal"]
                play_turn(page, server, gid, token, legal[-1])
            wait_until(lambda: True)
            assert page.evaluate(overflow) <= 0, f"{game} scrolls sideways at {width} px"
            box = page.locator("#board svg").bounding_box()
            assert box is not None and box["width"] <= width
            screenshot(page, f"phone-{width}-{game}")
    finally:
        context.close()
