"""The home page's menus come from ``/api/meta`` (the game registry): every game, every variant
and every option can be chosen there, and reaches the game that is created."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Server, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def _value_for(option: dict[str, Any], turn: int) -> str | int:
    """The value to choose for ``option`` on the ``turn``-th game: the choices in turn (the
    default included), or a whole number inside the option's range."""
    if option["kind"] == "int":
        low = option["minimum"] if option["minimum"] is not None else 0
        return int(low + 5 + turn)
    choices = option["choices"]
    return str(choices[(turn + 1) % len(choices)])


def _choose(page: Any, option: dict[str, Any], value: str | int) -> None:
    control = page.locator(f'#game-options [data-option="{option["name"]}"]')
    if option["kind"] == "int":
        control.fill(str(value))
    else:
        control.select_option(str(value))


def test_every_variant_and_option_reaches_the_created_game(page: Any, server: Server) -> None:
    meta = server.api("GET", "/api/meta")
    turn = 0
    for game in meta["games"]:
        own = [o for o in game["options"] if not o["variant"]]
        for variant in game["variants"]:
            page.goto(server.base + "/")
            page.wait_for_selector("#game option", state="attached")
            page.select_option("#game", game["name"])
            # the menus are the chosen game's, built from /api/meta
            offered = page.eval_on_selector_all("#variant option", "els => els.map(e => e.value)")
            assert offered == [v["name"] for v in game["variants"]]
            shown = page.eval_on_selector_all(
                "#game-options [data-option]", "els => els.map(e => e.dataset.option)"
            )
            assert shown == [o["name"] for o in own]
            for option in own:
                control = page.locator(f'#game-options [data-option="{option["name"]}"]')
                assert control.input_value() == str(option["default"])
                if option["kind"] == "int":
                    assert control.get_attribute("min") == str(option["minimum"])
                    assert control.get_attribute("max") == str(option["maximum"])
            if len(game["variants"]) > 1:
                page.select_option("#variant", variant["name"])
            else:  # the only variant: shown, not to be chosen
                assert page.is_disabled("#variant")
            chosen = {o["name"]: _value_for(o, turn) for o in own}
            for option in own:
                _choose(page, option, chosen[option["name"]])
            # changing the rest of the form must leave the variant and options as chosen
            page.check('input[name="mode"][value="local"]')
            page.check("#timed")
            page.uncheck("#timed")
            assert page.input_value("#variant") == variant["name"]
            screenshot(page, f"home-{game['name']}-{variant['name']}")
            page.click("#create")
            page.wait_for_url("**/game/**")
            gid = page.url.split("/game/")[1].split("#")[0].split("?")[0]
            created = server.api("GET", f"/api/games/{gid}?pictures=false")["game"]
            assert created["game"] == game["name"]
            assert created["variant"] == variant["name"], (game["name"], variant["name"])
            expected = {**variant["options"], **chosen}
            assert {k: created["options"][k] for k in expected} == expected
            assert created["mode"] == "local"
            turn += 1


def test_the_page_names_the_registered_games(page: Any, server: Server) -> None:
    meta = server.api("GET", "/api/meta")
    page.goto(server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    titles = page.eval_on_selector_all("#game option", "els => els.map(e => e.textContent)")
    assert titles == [g["title"] for g in meta["games"]]
    tagline = page.locator("#tagline").inner_text()
    assert all(g["title"] in tagline for g in meta["games"])
    for game in meta["games"]:
        page.select_option("#game", game["name"])
        assert page.get_attribute("#position", "placeholder") == game["example_position"]
        names = page.eval_on_selector_all("[data-player]", "els => els.map(e => e.textContent)")
        assert names == game["player_names"]
