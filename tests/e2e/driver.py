"""Playing moves in the browser the way a person does: clicks on dice, squares, hand dice
and the chooser. Which move to make is read from the server's legal moves; how to make it is
only ever clicks."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.conftest import Server, screenshot, wait_until


def click_square(page: Any, square: str) -> None:
    # the topmost element at the square's centre gets the click (a die, if one stands there)
    page.locator(f'#board [data-square="{square}"]').first.click(force=True)


def play_by_clicks(page: Any, move: dict[str, Any]) -> None:
    """Make ``move`` (a legal move as the server describes it) with the mouse."""
    absorb = move.get("absorb") or []
    if absorb and page.locator("#absorb").is_visible():
        page.locator("#absorb button", has_text=" then ".join(absorb)).first.click()
    kind = move["kind"]
    if kind == "pass":
        page.click("#pass")
        return
    if kind == "placement":
        owner = page.evaluate("document.querySelector('#board .hand-die.placeable').dataset.owner")
        page.locator(
            f'#board .hand-die[data-owner="{owner}"][data-face="{move["face"]}"]'
        ).first.click(force=True)
        click_square(page, move["to"])
    elif kind == "transfer":
        (first, _), (second, _) = move["transfer"]
        click_square(page, first)
        click_square(page, second)
    else:
        click_square(page, move["from"])
        click_square(page, move["to"])
    chooser = page.locator("#chooser")
    if chooser.is_visible():
        chooser.locator(f'button.choice[title="{move["notation"]}"]').click()


def play_turn(
    page: Any, server: Server, game_id: str, token: str, move: dict[str, Any]
) -> dict[str, Any]:
    """Play ``move`` by clicks and wait until the page shows the game after it."""
    before = server.game(game_id, token)["version"]
    # a person clicks on what they see: wait until the page shows the current position
    page.wait_for_function(f"Number(document.body.dataset.version) === {before}")
    play_by_clicks(page, move)
    try:
        wait_until(lambda: server.game(game_id, token)["version"] > before, timeout=10)
    except AssertionError:
        screenshot(page, f"failed-{move['notation']}")
        raise AssertionError(
            f"the page did not play {move} (message: {page.locator('#message').inner_text()!r})"
        ) from None
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    return server.game(game_id, token)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A move to play: a capture when there is one (games end sooner), else any."""
    captures = [m for m in legal if m.get("capture")]
    return rng.choice(captures or legal)


def play_against_computer(
    page: Any,
    server: Server,
    game_id: str,
    token: str,
    seat: str,
    rng: random.Random,
    max_turns: int = 200,
) -> dict[str, Any]:
    """Play the whole game by clicks (the computer answers on the server)."""
    for _ in range(max_turns):
        game = server.game(game_id, token)
        if game["status"] == "finished":
            return game
        if game["to_move"] == seat:
            play_turn(page, server, game_id, token, choose(game["legal"], rng))
        else:
            wait_until(
                lambda: server.game(game_id, token)["to_move"] in (seat, None),
                what="the computer's move",
            )
    raise AssertionError("the game did not end")
