"""Whole games in a real browser: against the computer, Chaos, Chase's transfers, captures
and absorptions, an online game with a spectator, and reloading in the middle of a game."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from tests.e2e.conftest import Server, phone_context, screenshot, wait_until
from tests.e2e.driver import play_against_computer, play_turn

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
CHASE_SEED = int(os.environ.get("DICEBOARD_E2E_SEED", "6"))

CHASE_CAPTURE = (
    "R1R2R3R4R5R4R3R2R1/....B1..../........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2. B 0 0"
)


def _open_as_player(page: Any, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.base + created["links"]["player"])
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.version !== undefined")


def _open_custodian_setup(page: Any, server: Server) -> tuple[str, str, dict[str, Any]]:
    """A local Custodian game at its placements, open as its player: (id, token, game)."""
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "seed": 21}
    )
    _open_as_player(page, server, created)
    gid, token = created["id"], created["token"]
    return gid, token, server.game(gid, token)


def test_custodian_against_the_computer_by_clicks(page: Any, server: Server) -> None:
    # a short no-capture limit keeps the whole game (rolls, placements, moves) short
    created = server.api(
        "POST",
        "/api/games",
        json={
            "game": "custodian",
            "mode": "computer",
            "level": "random",
            "seed": 4,
            "options": {"no_capture_limit": 14},
        },
    )
    _open_as_player(page, server, created)
    assert page.locator("#status").inner_text().startswith("Your move")
    screenshot(page, "custodian-setup")
    final = play_against_computer(
        page, server, created["id"], created["token"], "W", random.Random(1)
    )
    page.wait_for_function("document.body.dataset.status === 'finished'")
    status = page.locator("#status").inner_text()
    assert status.startswith("Game over") and final["outcome"]["result"] in status
    placements = [m for m in final["moves"] if "@" in m["notation"]]
    assert len(placements) == 10
    screenshot(page, "custodian-game-over")
    assert page.locator("#rematch").is_visible()
    assert page.locator("#download-pgn").get_attribute("href").endswith("format=pgn")


def test_chase_against_the_computer_by_clicks(page: Any, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/games",
        json={
            "game": "chase",
            "mode": "computer",
            "level": "random",
            "side": "first",
            "seed": CHASE_SEED,
            "options": {"no_capture_limit": 8},
        },
    )
    _open_as_player(page, server, created)
    screenshot(page, "chase-start")
    final = play_against_computer(
        page, server, created["id"], created["token"], "B", random.Random(CHASE_SEED)
    )
    page.wait_for_function("document.body.dataset.status === 'finished'")
    assert page.locator("#status").inner_text().startswith("Game over")
    assert final["outcome"] is not None
    screenshot(page, "chase-game-over")


def test_chaos_rolls_are_shown(page: Any, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/games",
        json={
            "game": "custodian",
            "variant": "chaos",
            "mode": "local",
            "seed": 9,
            "position": "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10",
        },
    )
    _open_as_player(page, server, created)
    gid, token = created["id"], created["token"]
    for _ in range(3):
        game = server.game(gid, token)
        step = next(m for m in game["legal"] if m["kind"] == "step")
        game = play_turn(page, server, gid, token, step)
        rolled = game["last"]["roll"]
        assert game["moves"][-1]["notation"] == f"{step['notation']}={rolled}"
        page.wait_for_function(
            f"document.querySelector('#roll').textContent.includes('rolled {rolled}')"
        )
        die = page.locator(f'#board .die[data-square="{step["to"]}"]')
        assert die.get_attribute("data-face") == str(rolled)
    screenshot(page, "chaos-roll")


def test_custodian_placement_by_hand_dice(page: Any, server: Server) -> None:
    gid, token, game = _open_custodian_setup(page, server)
    hand = game["hand"]["W"]
    # a placement: pick the hand die, then the square
    first = next(m for m in game["legal"] if m["face"] == hand[0] and m["to"] == "c1")
    page.locator(f'#board .hand-die[data-owner="W"][data-face="{hand[0]}"]').first.click(force=True)
    assert page.locator("#board .mark-target").count() == 5
    page.locator('#board [data-square="c1"]').first.click(force=True)
    wait_until(lambda: server.game(gid, token)["version"] > game["version"])
    assert server.game(gid, token)["board"]["c1"] == ["W", first["face"]]
    # another: the square first, then the face in the chooser
    page.wait_for_function(f"Number(document.body.dataset.version) > {game['version']}")
    game = server.game(gid, token)
    page.locator('#board [data-square="a1"]').first.click(force=True)
    faces = sorted(set(game["hand"]["W"]))
    if len(faces) > 1:
        page.wait_for_selector("#chooser:not([hidden])")
        screenshot(page, "custodian-placement-chooser")
        page.locator("#chooser button.choice").first.click()
    wait_until(lambda: "a1" in server.game(gid, token)["board"])
    page.wait_for_function(f"Number(document.body.dataset.version) > {game['version']}")
    # an illegal typed move is explained with the engine's words
    page.fill("#notation-input", "6@c5")
    page.click("#notation-play")
    page.wait_for_function("document.querySelector('#message').textContent.length > 0")
    assert (
        "rank 1" in page.locator("#message").inner_text()
        or "hand" in page.locator("#message").inner_text()
    )


def test_typing_while_a_clicked_move_is_answered_keeps_the_text(page: Any, server: Server) -> None:
    gid, _token, game = _open_custodian_setup(page, server)
    held: list[Any] = []
    # the clicked move's request is held until the player has typed the next move
    page.route(f"**/api/games/{gid}/moves", lambda route: held.append(route))
    face = game["hand"]["W"][0]
    page.locator(f'#board .hand-die[data-owner="W"][data-face="{face}"]').first.click(force=True)
    page.locator('#board [data-square="c1"]').first.click(force=True)
    for _ in range(400):  # the route handler runs while Playwright has the page's events
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    page.fill("#notation-input", "6@c5")
    with page.expect_response(f"**/api/games/{gid}/moves"):
        held[0].continue_()
    page.wait_for_function(f"Number(document.body.dataset.version) > {game['version']}")
    page.wait_for_timeout(300)  # the answer is handled after the socket may have shown the move
    assert page.locator("#notation-input").input_value() == "6@c5"


def test_chase_transfer_capture_and_absorption(page: Any, server: Server) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "chase", "mode": "local", "position": CHASE_CAPTURE}
    )
    _open_as_player(page, server, created)
    gid, token = created["id"], created["token"]
    game = server.game(gid, token)
    capture = next(m for m in game["legal"] if m["notation"] == "h5xi5NE")
    # a selected die shows its targets; a capture is marked as one
    page.locator('#board .die[data-square="h5"]').click(force=True)
    assert page.locator("#board .mark-capture").count() == 2
    screenshot(page, "chase-capture-targets")
    page.locator('#board .die[data-square="i5"]').click(force=True)
    wait_until(
        lambda: server.game(gid, token)["version"] > game["version"], what=capture["notation"]
    )
    game = server.game(gid, token)
    assert game["moves"][-1]["notation"] == capture["notation"]
    assert game["board"]["i5"] == ["B", 1]
    # Red lost 5 pips: its two 1s are tied, so where they go is Red's choice
    page.wait_for_selector("#absorb:not([hidden])")
    assert page.locator("#absorb button").count() == 2
    screenshot(page, "chase-absorb-choice")
    page.locator("#absorb button", has_text="i9").click()
    transfer = next(
        m
        for m in game["legal"]
        if m["kind"] == "transfer"
        and m["absorb"] == ["i9"]
        and {sq for sq, _ in m["transfer"]} == {"i2", "i3"}
    )
    page.locator('#board .die[data-square="i2"]').click(force=True)
    assert page.locator("#board .mark-transfer").count() >= 1
    page.locator('#board .die[data-square="i3"]').click(force=True)
    page.wait_for_selector("#chooser:not([hidden])")
    board = server.game(gid, token)["board"]
    assert page.locator("#chooser-title").inner_text() == (
        f"Exchange i2 ({board['i2'][1]}) and i3 ({board['i3'][1]})"
    )
    screenshot(page, "chase-transfer-chooser")
    page.locator(f'#chooser button.choice[title="{transfer["notation"]}"]').click()
    wait_until(
        lambda: (
            server.game(gid, token)["moves"][-1:]
            and server.game(gid, token)["moves"][-1]["notation"] == transfer["notation"]
        )
    )
    final = server.game(gid, token)
    assert final["board"]["i9"] == ["R", 6]
    assert sum(f for o, f in final["board"].values() if o == "R") == 25
    page.wait_for_function(f"Number(document.body.dataset.version) === {final['version']}")
    screenshot(page, "chase-after-transfer")


def test_online_game_with_a_spectator(browser: Any, server: Server) -> None:
    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 820}, bypass_csp=True)
        for _ in range(3)
    ]
    host, guest, watcher = (c.new_page() for c in contexts)
    try:
        host.goto(server.base + "/")
        host.wait_for_selector("#game option", state="attached")
        host.check('input[name="mode"][value="online"]')
        host.click("#create")
        host.wait_for_url("**/game/**")
        host.wait_for_selector("#invite:not([hidden])")
        invite = host.input_value("#invite-link")
        spectate = host.locator("#spectate-link").get_attribute("href")
        gid = spectate.rstrip("/").split("/")[-1]
        screenshot(host, "online-waiting")
        guest.goto(invite)
        # a first visit asks the joining player's name (remembered afterwards)
        guest.wait_for_selector("#name-dialog:not([hidden])")
        guest.fill("#name-input", "Guest")
        guest.click("#name-dialog button[type=submit]")
        guest.wait_for_function("document.body.dataset.status === 'active'")
        watcher.goto(spectate)
        watcher.wait_for_selector("#board svg")
        host.wait_for_function("document.body.dataset.status === 'active'")
        host_token = host.evaluate(f"localStorage.getItem('diceboard.seat.{gid}')")
        guest_token = guest.evaluate(f"localStorage.getItem('diceboard.seat.{gid}')")
        assert host_token and guest_token and host_token != guest_token
        rng = random.Random(5)
        for turn in range(12):
            game = server.game(gid)
            page, token = (host, host_token) if game["to_move"] == "W" else (guest, guest_token)
            play_turn(page, server, gid, token, rng.choice(game["legal"]))
            version = server.game(gid)["version"]
            watcher.wait_for_function(f"Number(document.body.dataset.version) === {version}")
            if turn == 5:
                screenshot(watcher, "online-spectator")
        # the spectator's page holds no seat and never saw a token
        html = watcher.content()
        assert host_token not in html and guest_token not in html
        assert watcher.evaluate(f"localStorage.getItem('diceboard.seat.{gid}')") is None
        assert not watcher.locator("#resign").is_visible()
        moves = server.game(gid)["moves"]
        assert watcher.locator("#moves button.move").count() == len(moves)
    finally:
        for context in contexts:
            context.close()


def test_reload_in_the_middle_of_a_game(page: Any, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/games",
        json={"game": "custodian", "mode": "computer", "level": "random", "seed": 8},
    )
    _open_as_player(page, server, created)
    gid, token = created["id"], created["token"]
    rng = random.Random(3)
    for _ in range(3):
        play_turn(page, server, gid, token, rng.choice(server.game(gid, token)["legal"]))
    page.reload()
    page.wait_for_selector("#board svg")
    game = server.game(gid, token)
    page.wait_for_function(f"Number(document.body.dataset.version) === {game['version']}")
    assert page.locator("#status").inner_text().startswith("Your move")
    # the seat survives the reload (kept in this browser): play on
    play_turn(page, server, gid, token, rng.choice(server.game(gid, token)["legal"]))
    # step back through the game and return
    page.click("#nav-first")
    page.wait_for_selector("#viewing:not([hidden])")
    page.click("#nav-live")
    page.wait_for_selector("#viewing", state="hidden")
    screenshot(page, "after-reload")


def test_open_pages_reconnect_after_the_server_is_killed(browser: Any, tmp_path: Any) -> None:
    import signal

    from tests.e2e.conftest import start_server, stop_server

    database = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    first = start_server(database)
    second = None
    context = browser.new_context(viewport={"width": 1100, "height": 820}, bypass_csp=True)
    page = context.new_page()
    try:
        created = first.api(
            "POST",
            "/api/games",
            json={
                "game": "custodian",
                "mode": "local",
                "position": "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10",
            },
        )
        gid, token = created["id"], created["token"]
        page.goto(first.base + created["links"]["player"])
        page.wait_for_selector("#board svg")
        rng = random.Random(11)
        play_turn(page, first, gid, token, rng.choice(first.game(gid, token)["legal"]))
        stop_server(first, signal.SIGKILL)
        page.wait_for_selector("#connection:not([hidden])")
        screenshot(page, "server-down")
        second = start_server(database, first.port)
        page.wait_for_selector("#connection", state="hidden", timeout=30_000)
        game = second.game(gid, token)
        assert game["version"] == 2 and len(game["moves"]) == 1
        # the page carries on by itself: play by clicks on the restarted server
        play_turn(page, second, gid, token, rng.choice(game["legal"]))
        assert len(second.game(gid, token)["moves"]) == 2
    finally:
        context.close()
        stop_server(first, signal.SIGKILL)
        if second is not None:
            stop_server(second)


PLAY_POSITION = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def test_keyboard_play(page: Any, server: Server) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": PLAY_POSITION}
    )
    _open_as_player(page, server, created)
    gid, token = created["id"], created["token"]
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the cursor appears on a1
    page.keyboard.press("ArrowRight")  # b1
    page.keyboard.press("Enter")  # select the die on b1
    page.keyboard.press("ArrowUp")  # b2
    page.keyboard.press("Enter")  # four new faces: the chooser opens, its first choice focused
    page.wait_for_selector("#chooser:not([hidden])")
    assert page.locator("#chooser button.choice").count() == 4
    page.keyboard.press("Enter")
    wait_until(lambda: len(server.game(gid, token)["moves"]) == 1)
    assert server.game(gid, token)["moves"][0]["notation"] == "b1-b2=2"
    # the page must have the new position before Black types (else it answers as White)
    page.wait_for_function("document.querySelector('#moves').textContent.includes('b1-b2=2')")
    # typed notation: an illegal move is explained, a legal one is played
    page.fill("#notation-input", "a5-a4=2")
    page.press("#notation-input", "Enter")
    page.wait_for_function("document.querySelector('#message').textContent.includes('turning')")
    page.fill("#notation-input", "a5-a4=1")
    page.press("#notation-input", "Enter")
    wait_until(lambda: len(server.game(gid, token)["moves"]) == 2)


def test_phone_sized_screen(browser: Any, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    try:
        created = server.api(
            "POST",
            "/api/games",
            json={"game": "chase", "mode": "computer", "level": "random", "seed": 3},
        )
        page.goto(server.base + created["links"]["player"])
        page.wait_for_selector("#board svg")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        box = page.locator("#board svg").bounding_box()
        assert box is not None and 300 < box["width"] <= 390
        game = server.game(created["id"], created["token"])
        move = next(m for m in game["legal"] if m["kind"] == "move")
        play_turn(page, server, created["id"], created["token"], move)
        screenshot(page, "phone")
        page.goto(server.base + "/")
        page.wait_for_selector("#create")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        screenshot(page, "phone-home")
    finally:
        context.close()


def test_a_record_imported_before_the_games_are_known_is_not_lost(
    page: Any, server: Server
) -> None:
    """The home page handles its forms from the start: a record submitted while the page
    still waits for /api/meta is imported, where the browser's own submit used to reload
    the page and drop it (seen as a flaky import in CI)."""
    created = server.api("POST", "/api/games", json={"game": "custodian", "mode": "local"})
    import httpx2

    pgn = httpx2.get(f"{server.base}/api/games/{created['id']}/record?format=pgn", timeout=60).text
    held: list[Any] = []
    holding = [True]

    def hold(route: Any) -> None:
        # the page's first request waits, unanswered, until the record is submitted
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/meta", hold)
    page.goto(server.base + "/", wait_until="domcontentloaded")
    page.fill("#record-text", pgn)
    page.click("#import")
    assert held, "the page asks for /api/meta first"
    holding[0] = False
    for route in held:
        route.continue_()
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#board svg")


def test_import_a_record_and_replay_it(page: Any, server: Server) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": PLAY_POSITION}
    )
    gid, token = created["id"], created["token"]
    for notation in ("b1-b2=2", "a5-a4=1", "b2-b4=3"):
        server.api("POST", f"/api/games/{gid}/moves", token, json={"move": notation})
    import httpx2

    pgn = httpx2.get(f"{server.base}/api/games/{gid}/record?format=pgn", timeout=60).text
    page.goto(server.base + "/")
    page.fill("#record-text", pgn)
    page.click("#import")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#board svg")
    assert page.locator("#moves button.move").count() == 3
    assert page.locator("#title").inner_text().endswith("record")
    page.click("#nav-first")
    page.wait_for_selector("#viewing:not([hidden])")
    assert page.locator("#viewing").inner_text().startswith("Start of the game (2 moves)")
    page.click("#nav-forward")
    page.wait_for_function("document.querySelector('#viewing').textContent.includes('b1-b2=2')")
    screenshot(page, "replay")
    # the box to continue the record (with its long level menu) stays inside the page
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.goto(server.base + "/")
    page.fill("#record-text", '[Game "Custodian Dice"]\n\n1. zz9 *')
    page.click("#import")
    page.wait_for_function("document.querySelector('#import-error').textContent.length > 0")
