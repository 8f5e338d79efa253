"""People around the board (issue 11): names asked once and remembered, the chat of an online
game between two browsers with a spectator reading it (markup shown as text), the spectator
count, the rules pages linked from home and from every game, an imported record's result and
any of its positions continued as a new game, and Home's game lists."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from tests.e2e.conftest import Server, phone_context, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
INJECTION = '<img src=x onerror="document.body.dataset.pwned=1"><b>bold</b>'


def _context(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 1100, "height": 820}, bypass_csp=True)


def _create_online_from_home(page: Any, server: Server, name: str) -> str:
    page.goto(server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.fill("#player-name", name)
    page.check('input[name="mode"][value="online"]')
    page.click("#create")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#invite:not([hidden])")
    return str(page.input_value("#invite-link"))


def test_chat_between_two_players_with_a_spectator(browser: Any, server: Server) -> None:
    contexts = [_context(browser) for _ in range(3)]
    host, guest, watcher = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (host, guest, watcher):
        page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        invite = _create_online_from_home(host, server, "Ann")
        spectate = host.locator("#spectate-link").get_attribute("href")
        guest.goto(invite)
        guest.wait_for_selector("#name-dialog:not([hidden])")
        guest.fill("#name-input", "Bob")
        guest.click("#name-dialog button[type=submit]")
        guest.wait_for_function("document.body.dataset.status === 'active'")
        watcher.goto(spectate)
        watcher.wait_for_selector("#chat:not([hidden])")
        # names reached the game: each bar names its player
        host.wait_for_function(
            "document.querySelector('#bar-top .name').textContent.includes('Bob')"
        )
        assert "Ann" in host.locator("#bar-bottom .name").inner_text()
        # the spectator reads but cannot write
        assert watcher.locator("#chat-form").is_hidden()
        host.fill("#chat-input", "good luck!")
        host.press("#chat-input", "Enter")
        for page in (guest, watcher):
            page.wait_for_function(
                "document.querySelector('#chat-log').textContent.includes('good luck!')"
            )
        guest.fill("#chat-input", INJECTION)
        guest.click("#chat-form button[type=submit]")
        for page in (host, watcher):
            page.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
            last = page.locator("#chat-log li .chat-text").nth(1)
            assert last.inner_text() == INJECTION  # shown as the text it is
            assert page.locator("#chat-log img, #chat-log b").count() == 0
            assert page.evaluate("document.body.dataset.pwned") is None
        assert watcher.locator("#chat-log li .chat-name").nth(0).inner_text() == "Ann:"
        # one spectator watches (the two players do not count)
        host.wait_for_function("document.querySelector('#spectators').dataset.count === '1'")
        assert "1 spectator" in host.locator("#spectators").inner_text()
        screenshot(watcher, "online-chat-spectator")
        # too long is refused by the field; the server's limits are tested in tests/server
        assert host.locator("#chat-input").get_attribute("maxlength") == "300"
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def test_the_name_is_asked_once_and_remembered(browser: Any, server: Server) -> None:
    context = _context(browser)
    try:
        page = context.new_page()
        _create_online_from_home(page, server, "Carol")
        assert page.evaluate("localStorage.getItem('diceboard.name')") == "Carol"
        page.goto(server.base + "/")
        page.wait_for_selector("#game option", state="attached")
        assert page.input_value("#player-name") == "Carol"  # remembered, and editable
        page.fill("#player-name", "Caroline")
        page.check('input[name="mode"][value="computer"]')
        page.click("#create")
        page.wait_for_url("**/game/**")
        page.wait_for_selector("#board svg")
        page.wait_for_function(
            "document.querySelector('#bar-bottom .name').textContent.includes('Caroline')"
        )
        # the computer's side says it is the computer, at its level
        assert "Computer · level" in page.locator("#bar-top .name").inner_text()
        # joining another game asks nothing: the name is known
        created = server.api("POST", "/api/games", json={"game": "chase", "mode": "online"})
        page.goto(server.base + created["links"]["invite"])
        page.wait_for_function("document.body.dataset.status === 'active'")
        assert page.locator("#name-dialog").is_hidden()
        seats = server.game(created["id"])["seats"]
        assert seats["R"]["name"] == "Caroline"
    finally:
        context.close()


def test_rules_pages_from_home_and_from_a_game(page: Any, server: Server) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#rules-nav a")
    page.click("#rules-nav a:has-text('Chase')")
    page.wait_for_url("**/rules/chase")
    assert page.locator("h1").first.inner_text() == "Chase"
    assert page.get_attribute("#learn", "href") == "/learn/chase"
    images = page.locator("main.rules img")
    assert images.count() >= 5
    # every diagram loaded
    page.wait_for_function(
        "[...document.querySelectorAll('main.rules img')]"
        ".every((i) => i.complete && i.naturalWidth > 0)"
    )
    screenshot(page, "rules-chase")
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": START}
    )
    page.goto(server.base + created["links"]["player"])
    page.wait_for_selector("#rules-link:not([hidden])")
    assert page.get_attribute("#rules-link", "href") == "/rules/custodian"
    page.goto(server.base + "/rules/custodian")
    assert page.locator("h1").first.inner_text() == "Custodian Dice"
    assert page.locator("main.rules img").count() >= 2


def test_an_imported_record_continues_from_any_position(page: Any, server: Server) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": START}
    )
    gid, token = created["id"], created["token"]
    for notation in ("b1-b2=2", "a5-a4=1", "b2-b4=3"):
        server.api("POST", f"/api/games/{gid}/moves", token, json={"move": notation})
    pgn = httpx2.get(f"{server.base}/api/games/{gid}/record?format=pgn", timeout=60).text
    page.goto(server.base + "/")
    page.fill("#record-text", pgn)
    page.click("#import")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#continue:not([hidden])")
    imported_url = page.url
    assert page.locator("#status").inner_text() == "Record: unfinished (*)"
    # step back to the position after White's first move and continue it at one screen. The
    # pictures are held back until both clicks are made, and the later one is answered first:
    # the second click counts from the first (not from the position still shown) and the
    # first picture, arriving last, is not shown over it.
    held: list[Any] = []
    page.route("**/positions/*", lambda route: held.append(route))
    page.click("#nav-first")
    page.click("#nav-forward")
    for _ in range(200):  # 10 s at most
        if len(held) >= 2:
            break
        page.wait_for_timeout(50)
    assert [r.request.url.split("?")[0].rsplit("/", 1)[1] for r in held] == ["0", "1"]
    for route in reversed(held):
        route.continue_()
    page.wait_for_function("document.querySelector('#viewing').textContent.includes('b1-b2=2')")
    page.wait_for_timeout(300)  # the first picture has arrived too by now, and was dropped
    assert "b1-b2=2" in page.locator("#viewing").inner_text()
    page.unroute("**/positions/*")
    assert page.input_value("#continue-side") == "B"  # Black is to move there
    page.click("#continue-local")
    # the imported record has a game page of its own: wait until the page leaves it
    page.wait_for_url(lambda url: url != imported_url and gid not in url and "/game/" in url)
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.version !== undefined")
    new_id = page.url.rstrip("/").split("/")[-1]
    game = server.game(new_id)
    assert game["mode"] == "local"
    assert game["start_position"] == "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"
    assert game["to_move"] == "B"


def test_a_finished_record_shows_its_result(page: Any, server: Server) -> None:
    created = server.api(
        "POST", "/api/games", json={"game": "custodian", "mode": "local", "position": START}
    )
    gid, token = created["id"], created["token"]
    server.api("POST", f"/api/games/{gid}/resign", token, json={"seat": "W"})
    pgn = httpx2.get(f"{server.base}/api/games/{gid}/record?format=pgn", timeout=60).text
    page.goto(server.base + "/")
    page.fill("#record-text", pgn)
    page.click("#import")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#continue:not([hidden])")
    status = page.locator("#status").inner_text()
    assert status.startswith("Record: Black wins") and "0-1" in status, status


def test_home_lists_show_variant_opponent_and_date(browser: Any, server: Server) -> None:
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#variant", "chaos")
        page.check('input[name="mode"][value="computer"]')
        page.click("#create")
        page.wait_for_url("**/game/**")
        page.goto(server.base + "/")
        page.wait_for_selector("#recent .game-line")
        line = page.locator("#recent .game-line").first
        assert "Custodian Dice · Chaos" in line.locator("strong").inner_text()
        assert "Computer · level" in line.locator(".game-seats").inner_text()
        assert "today" in line.locator(".game-when").inner_text()
        # every control of every card fits inside its card
        overflow = page.evaluate(
            """() => [...document.querySelectorAll('.card')].flatMap((card) => {
                const box = card.getBoundingClientRect();
                return [...card.querySelectorAll('input, select, textarea, button')]
                  .filter((c) => c.offsetParent !== null)
                  .filter((c) => c.getBoundingClientRect().right > box.right + 0.5)
                  .map((c) => c.id || c.name || c.tagName);
            })"""
        )
        assert overflow == []
    finally:
        context.close()


def test_an_online_game_with_its_chat_fits_a_phone(browser: Any, server: Server) -> None:
    context = phone_context(browser, 360, 780)
    try:
        page = context.new_page()
        created = server.api("POST", "/api/games", json={"game": "chase", "mode": "online"})
        code = created["links"]["invite"].split("#code=")[1]
        server.api("POST", f"/api/games/{created['id']}/join", json={"code": code})
        server.api(
            "POST", f"/api/games/{created['id']}/chat", created["token"], json={"text": "x" * 300}
        )
        page.goto(server.base + created["links"]["player"])
        page.wait_for_selector("#chat-log li")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.goto(server.base + "/rules/chase")
        page.wait_for_selector("main.rules img")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        screenshot(page, "phone-360-rules")
    finally:
        context.close()
