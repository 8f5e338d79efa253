"""The analysis board and the game review in Chromium: opened from a live game, a variation
branch and rolls chosen by hand, and a finished game's review marks with the better move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

import diceboard
from tests.e2e.conftest import Server, phone_context, screenshot, wait_until
from tests.e2e.driver import play_by_clicks
from tests.server.conftest import PLAY_POSITION

pytestmark = pytest.mark.browser

#: the first answer may wait for the server's worker to warm up (a minute on a busy machine)
ENGINE_MS = 240_000
#: Red to move; i8-f7SW lets Blue take a die at once
HANGING = (
    ".R1R2R3R4R5R4R3R1/........R2/........./........./...B2...../.....B2.../........./"
    "........./B2B3.B3B3B2B6B1B1 R 6 23"
)


@pytest.fixture(autouse=True)
def engine_ready(server: Server) -> Iterator[None]:
    """Wait until the server's engine has warmed up (minutes on a busy machine), so that
    no request below times out waiting for it."""
    wait_until(
        lambda: bool(httpx2.get(f"{server.base}/api/health", timeout=10).json()["ready"]),
        timeout=600,
        what="the engine to warm up",
    )
    yield


def board_moves(server: Server, **body: Any) -> list[dict[str, Any]]:
    """The legal moves of a board position, as the page gets them."""
    return list(server.api("POST", "/api/analysis/moves", json=body)["legal"])


def tree_moves(page: Any) -> list[str]:
    return list(page.locator("#tree button.move").all_inner_texts())


def test_the_board_opens_from_a_live_game(page: Any, server: Server) -> None:
    game = server.api(
        "POST",
        "/api/games",
        json={"game": "custodian", "position": PLAY_POSITION, "level": "random", "side": "W"},
    )
    token = game["token"]
    server.api("POST", f"/api/games/{game['id']}/moves", token, json={"move": "b1-b2=2"})
    wait_until(
        lambda: len(server.game(game["id"], token)["moves"]) == 2,
        timeout=ENGINE_MS / 1000,
        what="the reply",
    )
    played = [m["notation"] for m in server.game(game["id"], token)["moves"]]

    # the game page's "Analyse" opens the board at the position it shows
    page.goto(f"{server.base}/game/{game['id']}#seat={token}")
    page.wait_for_function("document.body.dataset.version !== undefined")
    link = page.locator("#analyse")
    assert link.get_attribute("href") == f"/analysis?from={game['id']}&at=2"
    assert page.locator("#review").is_hidden()  # the game is still being played
    link.click()
    page.wait_for_url("**/analysis?**")
    page.wait_for_function("document.body.dataset.win !== undefined", timeout=ENGINE_MS)
    assert tree_moves(page) == played
    expected = diceboard.game("custodian").parse(PLAY_POSITION).play(played[0]).play(played[1])
    assert page.evaluate("document.body.dataset.position") == str(expected)
    text = page.locator("#eval-text").inner_text()
    assert "White" in text and "Black" in text and "%" in text
    assert "depth" in page.locator("#engine-readout").inner_text()
    assert page.locator("#top-moves button.top-move").count() >= 1
    assert page.locator("#back-to-game").get_attribute("href") == f"/game/{game['id']}"
    screenshot(page, "analysis-live-game")

    # stop, then go on thinking
    page.click("#think")
    page.wait_for_function("document.body.dataset.engine === 'stopped'")
    page.click("#think")
    page.wait_for_function("document.body.dataset.engine !== 'stopped'")
    # the start of the game is one click away, and so is copying its position
    page.click("#nav-first")
    page.wait_for_function(f"document.body.dataset.position === {PLAY_POSITION!r}")
    assert page.locator("#position-string").input_value() == PLAY_POSITION

    # two quick steps forward reach the second position even while the first one's moves are
    # still being fetched (held back here), and the first answer, arriving last, is dropped
    held: list[Any] = []
    page.route("**/api/analysis/moves", lambda route: held.append(route))
    page.click("#nav-forward")
    page.click("#nav-forward")
    page.wait_for_timeout(300)
    for route in held:
        route.continue_()
    page.unroute("**/api/analysis/moves")
    page.wait_for_function(f"document.body.dataset.position === {str(expected)!r}")
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.position") == str(expected)


def test_a_variation_branches_off_the_main_line(page: Any, server: Server) -> None:
    page.goto(f"{server.base}/analysis?game=custodian&position={PLAY_POSITION}")
    page.wait_for_function("document.body.dataset.node === '0'")
    legal = board_moves(server, game="custodian", position=PLAY_POSITION)
    first = next(m for m in legal if m["notation"] == "b1-b2=2")
    play_by_clicks(page, first)
    page.wait_for_function("document.querySelectorAll('#tree button.move').length === 1")
    page.click("#nav-back")
    page.wait_for_function("document.body.dataset.node === '0'")
    other = next(m for m in legal if m["notation"] == "e1-e3=3")
    play_by_clicks(page, other)
    page.wait_for_function("document.querySelector('#tree .variation') !== null")
    assert page.locator("#tree .variation button.move").all_inner_texts() == ["e1-e3=3"]
    start = diceboard.game("custodian").parse(PLAY_POSITION)
    assert page.evaluate("document.body.dataset.position") == str(start.play("e1-e3=3"))
    # the side line goes on from its own position, and the main line stays as it was
    reply = board_moves(server, game="custodian", position=PLAY_POSITION, moves=["e1-e3=3"])[0]
    page.fill("#notation-input", reply["notation"])
    page.click("#notation button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#tree .variation button.move').length === 2")
    page.locator("#tree button.move", has_text="b1-b2=2").click()
    page.wait_for_function(f"document.body.dataset.position === {str(start.play('b1-b2=2'))!r}")
    screenshot(page, "analysis-variation")
    # made the main line, the side line comes first
    page.locator("#tree button.move", has_text="e1-e3=3").click()
    page.click("#promote")
    page.wait_for_function(
        "document.querySelector('#tree > .tree-move button.move').textContent === 'e1-e3=3'"
    )


def test_rolls_are_chosen_by_hand_or_rolled(page: Any, server: Server) -> None:
    page.goto(f"{server.base}/analysis?game=custodian&variant=chaos&position={PLAY_POSITION}")
    page.wait_for_function("document.body.dataset.node === '0'")
    chaos = diceboard.game("custodian", "chaos").parse(PLAY_POSITION)
    step = next(
        m
        for m in board_moves(server, game="custodian", variant="chaos", position=PLAY_POSITION)
        if m["notation"] == "b1-b2"
    )
    play_by_clicks(page, step)
    page.wait_for_function("document.body.dataset.chance === 'true'")
    assert page.locator("#chance").is_visible()
    page.click('#chance-outcomes button[data-notation="=4"]')
    page.wait_for_function(f"document.body.dataset.position === {str(chaos.play('b1-b2=4'))!r}")
    page.click("#nav-back")
    page.wait_for_function("document.body.dataset.chance === 'true'")
    page.click("#roll")
    page.wait_for_function("document.body.dataset.chance === 'false'")
    rolled = page.evaluate("document.body.dataset.position")
    assert rolled in {str(chaos.play(f"b1-b2={k}")) for k in range(1, 7)}
    assert len(page.locator("#tree button.move.roll").all_inner_texts()) in (1, 2)
    screenshot(page, "analysis-chaos-roll")


def test_a_finished_games_review_marks_its_mistakes(page: Any, server: Server) -> None:
    game = server.api(
        "POST", "/api/games", json={"game": "chase", "mode": "local", "position": HANGING}
    )
    token = game["token"]
    state = diceboard.game("chase").parse(HANGING).play("i8-f7SW")
    take = next(m for m in state.legal_moves() if m.capture)
    for notation in ("i8-f7SW", take.notation, state.play(take).legal_moves()[0].notation):
        server.api("POST", f"/api/games/{game['id']}/moves", token, json={"move": notation})
    server.api("POST", f"/api/games/{game['id']}/resign", token, json={})

    page.goto(f"{server.base}/analysis?from={game['id']}&review=1")
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=ENGINE_MS)
    glyphs = page.locator("#tree button.glyph")
    assert glyphs.count() >= 1
    assert glyphs.first.inner_text() in ("?", "??")
    assert page.locator("#review-graph svg circle.graph-mark").count() == glyphs.count()
    assert page.locator("#review-sides tr").count() == 3
    # a click on the mark shows the position before the move, with the better move drawn
    glyphs.first.click()
    page.wait_for_function(f"document.body.dataset.position === {HANGING!r}")
    assert "was better" in page.locator("#message").inner_text()
    assert page.locator("#board .mark-hint-from").count() >= 1
    assert page.locator("#board .path-hint").count() >= 1
    screenshot(page, "analysis-review")


def test_the_board_fits_a_phone(browser: Any, server: Server) -> None:
    """At 390 px the board, the win-probability bar and its figures all fit: the figures are
    shown whole (not cut off), and the page does not scroll sideways."""
    context = phone_context(browser)
    page = context.new_page()
    try:
        page.goto(f"{server.base}/analysis?game=chase")
        page.wait_for_selector("#board svg")
        page.wait_for_function("document.body.dataset.win !== undefined", timeout=ENGINE_MS)
        text = page.locator("#eval-text")
        assert "%" in text.inner_text()
        assert page.evaluate(
            "(() => { const t = document.querySelector('#eval-text');"
            " return t.scrollWidth <= t.clientWidth + 1"
            " && t.getBoundingClientRect().right <= window.innerWidth + 1; })()"
        )
        bar = page.locator("#eval-bar").bounding_box()
        assert bar is not None and bar["width"] >= 60
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        screenshot(page, "analysis-phone")
    finally:
        context.close()
