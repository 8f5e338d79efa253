"""The computer-strength menus offer each game its own levels, level 9 where the game has it
(issue 15), and a game created at level 9 from the home page gets the computer's move."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from tests.e2e.conftest import Server, screenshot, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: a cold start compiles level 9's search on its first move (the warm-up compiles the
#: levels' alpha-beta only), on a loaded machine
FIRST_MOVE_SECONDS = 300.0


def _offered(meta: dict[str, Any], game: str) -> list[str]:
    return [lv["spec"] for lv in meta["levels"] if "games" not in lv or game in lv["games"]]


def _menu(page: Any) -> list[str]:
    values: list[str] = page.eval_on_selector_all("#level option", "els => els.map(e => e.value)")
    return values


def test_the_level_menu_is_the_chosen_games(page: Any, server: Server) -> None:
    meta = server.api("GET", "/api/meta")
    page.goto(server.base + "/")
    page.wait_for_selector("#level option", state="attached")
    names = [g["name"] for g in meta["games"]]
    with_nine = [name for name in names if "level:9" in _offered(meta, name)]
    assert with_nine, "no game has level 9"
    for name in names:
        page.select_option("#game", name)
        assert _menu(page) == _offered(meta, name)
        assert ("level:9" in _menu(page)) is (name in with_nine)
        # the default is the middle level, as before level 9 existed
        assert page.input_value("#level") == "level:4"
    page.select_option("#game", with_nine[0])
    label = page.locator('#level option[value="level:9"]').inner_text()
    assert label.startswith("Level 9 — the strongest") and "slower to start" in label
    page.select_option("#level", "level:9")
    screenshot(page, "home-level-9")
    for name in names:
        # a choice the next game also has is kept; else the menu falls back to the middle
        page.select_option("#game", name)
        assert page.input_value("#level") == ("level:9" if name in with_nine else "level:4")
        if name not in with_nine:
            page.select_option("#game", with_nine[0])
            page.select_option("#level", "level:9")


def test_a_game_at_level_9_gets_the_computers_move(page: Any, server: Server) -> None:
    meta = server.api("GET", "/api/meta")
    game = next(g for g in meta["games"] if "level:9" in _offered(meta, g["name"]))
    page.goto(server.base + "/")
    page.wait_for_selector("#level option", state="attached")
    page.select_option("#game", game["name"])
    page.select_option("#level", "level:9")
    page.check('input[name="side"][value="second"]')
    page.click("#create")
    page.wait_for_url("**/game/**")
    gid = page.url.split("/game/")[1].split("#")[0].split("?")[0]
    created = server.game(gid)
    computer = next(s for s, seat in created["seats"].items() if seat["kind"] == "computer")
    assert created["seats"][computer]["agent"] == "level:9"
    assert computer == game["players"][0]

    def computer_moved() -> bool:
        now = server.game(gid)
        return now["to_move"] != computer and any(m["seat"] == computer for m in now["moves"])

    wait_until(computer_moved, timeout=FIRST_MOVE_SECONDS, what="level 9's first move")
    page.wait_for_function("document.body.dataset.version !== undefined")
    wait_until(
        lambda: page.locator("#status").inner_text().startswith("Your move"),
        timeout=30.0,
        what="the page to say it is the player's move",
    )
    names = page.locator(".player-bar .name").all_inner_texts()
    assert any("Computer · level 9" in name for name in names), names
    screenshot(page, "game-level-9")


def _options(page: Any, selector: str) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        f"{selector} option", "els => els.map(e => e.value)"
    )
    return values


def test_the_continue_menus_offer_the_games_levels(page: Any, server: Server) -> None:
    """The analysis board's and an imported record's 'continue against the computer' menus
    list the levels of the game shown."""
    meta = server.api("GET", "/api/meta")
    for game in meta["games"]:
        name = game["name"]
        page.goto(f"{server.base}/analysis?game={name}")
        page.wait_for_function("document.querySelectorAll('#continue-level option').length > 0")
        assert _options(page, "#continue-level") == _offered(meta, name)
        assert page.input_value("#continue-level") == "level:4"
        created = server.api("POST", "/api/games", json={"game": name, "mode": "local"})
        first = game["players"][0]
        server.api(
            "POST", f"/api/games/{created['id']}/resign", created["token"], json={"seat": first}
        )
        pgn = httpx2.get(
            f"{server.base}/api/games/{created['id']}/record?format=pgn", timeout=60
        ).text
        page.goto(server.base + "/")
        page.fill("#record-text", pgn)
        page.click("#import")
        page.wait_for_url("**/game/**")
        page.wait_for_selector("#continue:not([hidden])")
        page.wait_for_function("document.querySelectorAll('#continue-level option').length > 0")
        assert _options(page, "#continue-level") == _offered(meta, name)
