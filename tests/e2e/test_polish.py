"""The board tells the story (issue 11, the rest): a jump drawn as an arc, captured dice
leaving with an animation and the loss said, Chase's exchanges, bump chooser, pip totals and
split edge hexes, moves counted as moves, the keyboard cursor only for the keyboard, and
sounds that are off until turned on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Server, screenshot, wait_until
from tests.e2e.driver import click_square, play_turn

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: White's 2 on c1 can jump over Black's 3 on c2 to c3
CUSTODIAN_JUMP = "B5B2.../...../...../..B3../W3.W2.. W 0 10"
#: White's d3-e4 sandwiches two Black dice
CUSTODIAN_CAPTURE = ".B2.B2B6/...../...W2B4/....B4/.W1W6W4W2 W 6 16"
#: White moves its 3 on e5 away; then Black's a2-a1 traps White's b1 against c1, and White
#: is left with one die
CAPTURE_WINS = "....W3/...../...../B1..../.W2B4.. W 0 10"
#: Blue's 6 on f8 reaches f2 (its own 3) two ways, NE and W, bumping the 3 either way
CHASE_BUMP = (
    ".R3R1R4R6R1R4R2./....R4..../........./.B3.....B6./........./........./........./"
    ".B2......./B1...B5B3.B1B4 B 24 44"
)
#: Blue's 1 stands on b1, a split edge hex
CHASE_SPLIT_HEX = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "B1......../.B2B3B4B5B4B3B2B1 B 0 0"
)
#: Blue's 1 has come up to h5, next to Red's row
CHASE_READY = (
    "R1R2R3R4R5R4R3R2R1/....B1..../........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2. B 0 0"
)
CHASE_START = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2B1 B 0 0"
)

#: records, in the page, every die that got the class of a captured die leaving
WATCH_CAPTURES = """() => {
  window.leaving = [];
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.classList && r.target.classList.contains('captured-leaving'))
        window.leaving.push(r.target.dataset.square);
    }
  }).observe(document.getElementById('board'),
             {subtree: true, attributes: true, attributeFilter: ['class']});
}"""


def _local(server: Server, game: str, position: str) -> dict[str, Any]:
    return dict(
        server.api("POST", "/api/games", json={"game": game, "mode": "local", "position": position})
    )


def _open(page: Any, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.base + created["links"]["player"])
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.version !== undefined")


def test_a_jump_is_drawn_as_an_arc(page: Any, server: Server) -> None:
    created = _local(server, "custodian", CUSTODIAN_JUMP)
    gid, token = created["id"], created["token"]
    _open(page, server, created)
    jump = next(m for m in server.game(gid, token)["legal"] if m["kind"] == "jump")
    assert jump["notation"] == "c1^c3"
    play_turn(page, server, gid, token, jump)
    page.wait_for_selector("#board path.path-last.path-jump")
    # an arc: a curve whose control point is off the straight line c1-c3
    d = page.get_attribute("#board path.path-last.path-jump", "d")
    assert d is not None and " Q " in d
    (x0, _), (cx, _), (x1, _) = _curve_points(d)
    assert x0 == x1 and abs(cx - x0) > 20, d
    # the server's straight arrow of the last move is hidden in its favour
    assert page.locator("#board .arrow.last-move").get_attribute("display") == "none"
    screenshot(page, "custodian-jump-arc")


def _curve_points(d: str) -> list[tuple[float, float]]:
    """The start, control and end points of ``M x y Q cx cy x y``."""
    numbers = [float(t) for t in d.replace("M", " ").replace("Q", " ").split()]
    return [(numbers[0], numbers[1]), (numbers[2], numbers[3]), (numbers[4], numbers[5])]


def test_captured_dice_leave_with_an_animation(page: Any, server: Server) -> None:
    created = _local(server, "custodian", CUSTODIAN_CAPTURE)
    gid, token = created["id"], created["token"]
    _open(page, server, created)
    page.evaluate(WATCH_CAPTURES)
    capture = next(m for m in server.game(gid, token)["legal"] if m["notation"].startswith("d3-e4"))
    play_turn(page, server, gid, token, capture)
    wait_until(lambda: len(page.evaluate("window.leaving")) == 2, what="two dice leaving")
    assert sorted(page.evaluate("window.leaving")) == ["e2", "e3"]


def test_after_the_other_side_captures_a_line_says_what_was_lost(page: Any, server: Server) -> None:
    # the opponent (the computer, or a person online: the page treats both alike) is played
    # through the API here, so that its capture is certain
    created = server.api(
        "POST",
        "/api/games",
        json={"game": "custodian", "mode": "online", "side": "W", "position": CAPTURE_WINS},
    )
    gid, token = created["id"], created["token"]
    code = created["links"]["invite"].split("#code=")[1]
    black = server.api("POST", f"/api/games/{gid}/join", json={"code": code, "name": "Bea"})
    _open(page, server, created)
    legal = server.game(gid, token)["legal"]
    away = next(m for m in legal if m.get("from") == "e5" and m.get("to") == "e2")
    play_turn(page, server, gid, token, away)
    server.api("POST", f"/api/games/{gid}/moves", black["token"], json={"move": "a2-a1=2"})
    page.wait_for_function("document.body.dataset.status === 'finished'")
    lost = page.locator("#lost").inner_text()
    assert lost == "Black captured your 2 on b1 (a2-a1=2).", lost
    assert page.locator("#status").inner_text().startswith("Game over: Black wins")
    screenshot(page, "custodian-game-over-lost")


def test_chase_sides_show_dice_pips_and_the_exchange_is_drawn(page: Any, server: Server) -> None:
    created = _local(server, "chase", CHASE_START)
    gid, token = created["id"], created["token"]
    _open(page, server, created)
    for bar in ("#bar-top", "#bar-bottom"):
        stats = page.locator(f"{bar} .stats")
        assert stats.get_attribute("data-pips") == "25"
        assert stats.get_attribute("data-dice") == "9"
        assert "9 dice · 25 pips · 1 spare" in stats.inner_text()
    screenshot(page, "chase-start")
    transfer = next(m for m in server.game(gid, token)["legal"] if m["notation"] == "a1=2,a2=1")
    play_turn(page, server, gid, token, transfer)
    page.wait_for_selector("#board .path-last.path-exchange")
    # two arcs, one each way, each with its head: an exchange, not a movement arrow
    assert page.locator("#board .path-last.path-exchange .exchange-arc").count() == 2
    assert page.locator("#board .path-last.path-exchange .exchange-head").count() == 2
    assert page.locator("#board .arrow.last-move").get_attribute("display") == "none"
    blue = page.locator('.player-bar[data-seat="B"] .stats')
    assert blue.get_attribute("data-pips") == "25"  # an exchange keeps the total


def test_custodian_sides_count_dice_without_pips(page: Any, server: Server) -> None:
    created = _local(server, "custodian", CUSTODIAN_CAPTURE)
    _open(page, server, created)
    white = page.locator('.player-bar[data-seat="W"] .stats')
    assert white.get_attribute("data-dice") == "5" and white.get_attribute("data-pips") == ""
    assert white.inner_text() == "5 dice"


def test_the_bump_chooser_names_what_it_bumps(page: Any, server: Server) -> None:
    created = _local(server, "chase", CHASE_BUMP)
    _open(page, server, created)
    click_square(page, "f8")
    click_square(page, "f2")
    page.wait_for_selector("#chooser:not([hidden])")
    labels = page.locator("#chooser button.choice").all_inner_texts()
    assert len(labels) == 2
    assert all("bumps f2 (3)" in label for label in labels), labels
    assert {label.strip().split()[1] for label in labels} == {"NE", "W"}
    screenshot(page, "chase-bump-chooser")
    page.click("#chooser-cancel")


def test_a_die_on_a_split_edge_hex_is_drawn_once(page: Any, server: Server) -> None:
    created = _local(server, "chase", CHASE_SPLIT_HEX)
    _open(page, server, created)
    assert page.locator('#board .die[data-square="b1"]').count() == 1
    assert page.locator('#board .die[data-square="b1"] .die-image').count() == 1
    assert page.locator("#board .wrap-copy").count() == 0
    # the other half of the hex is outlined as the same hex
    assert page.locator('#board .hex.split-twin[data-square="b1"]').count() == 1


def test_move_n_of_m_counts_moves(page: Any, server: Server) -> None:
    created = _local(server, "custodian", CUSTODIAN_JUMP)
    gid, token = created["id"], created["token"]
    server.api("POST", f"/api/games/{gid}/moves", token, json={"move": "c1^c3"})
    for _ in range(2):
        move = server.game(gid, token)["legal"][0]["notation"]
        server.api("POST", f"/api/games/{gid}/moves", token, json={"move": move})
    _open(page, server, created)
    page.click("#nav-first")
    page.wait_for_selector("#viewing:not([hidden])")
    assert page.locator("#viewing").inner_text().startswith("Start of the game (2 moves)")
    page.click("#nav-forward")
    page.wait_for_function("document.querySelector('#viewing').dataset.move === '1'")
    assert page.locator("#viewing").inner_text().startswith("Move 1 of 2 · White")
    page.click("#nav-forward")
    page.wait_for_function("document.querySelector('#viewing').textContent.includes('Black')")
    assert page.locator("#viewing").inner_text().startswith("Move 1 of 2 · Black")
    page.click("#nav-forward")
    # the last position is the game itself again
    page.wait_for_selector("#viewing", state="hidden")


def test_the_keyboard_cursor_shows_only_while_the_keyboard_is_used(
    page: Any, server: Server
) -> None:
    created = _local(server, "custodian", CUSTODIAN_JUMP)
    _open(page, server, created)
    page.focus("#board")
    page.keyboard.press("ArrowRight")
    cursor = page.locator("#board .kb-cursor").first
    assert cursor.is_visible()
    click_square(page, "e3")  # a pointer: the cursor goes
    assert page.locator("#board").get_attribute("data-input") == "pointer"
    assert not cursor.is_visible()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#board .kb-cursor").first.is_visible()


def test_sounds_are_off_until_turned_on_and_remembered(page: Any, server: Server) -> None:
    created = _local(server, "custodian", CUSTODIAN_CAPTURE)
    gid, token = created["id"], created["token"]
    _open(page, server, created)
    sound = page.locator("#sound")
    assert sound.get_attribute("aria-pressed") == "false"
    legal = server.game(gid, token)["legal"]
    play_turn(page, server, gid, token, next(m for m in legal if not m.get("captures")))
    assert page.evaluate("document.body.dataset.sound") is None  # off: nothing played
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_function("document.body.dataset.version !== undefined")
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    legal = server.game(gid, token)["legal"]
    play_turn(page, server, gid, token, legal[0])
    page.wait_for_function("document.body.dataset.sound === 'move'")


def test_the_readme_screenshot(page: Any, server: Server) -> None:
    """The README's picture of the app (copied from artifacts/e2e/web-chase.png to
    docs/images/ when the client's look changes): Blue's selected die and where it can go."""
    created = server.api(
        "POST",
        "/api/games",
        json={"game": "chase", "mode": "computer", "level": "level:4", "side": "B"}
        | {"position": CHASE_READY},
    )
    _open(page, server, created)
    assert "Computer · level 4" in page.locator('.player-bar[data-seat="R"] .name').inner_text()
    click_square(page, "h5")
    page.wait_for_selector("#board .mark-selected")
    assert page.locator("#board .mark-dot-capture").count() >= 1
    screenshot(page, "web-chase")
