"""The computer levels on offer per game (``/api/meta``'s ``levels``): every game's levels
without ``games``, a level that only some games have (level 9) naming them, and a new game
refused a level its game lacks (issue 15)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import diceboard
from diceboard import ai
from diceboard.ai.bindings import binding
from diceboard.server.computer_players import computer_levels, default_level


def _specs(levels: list[dict[str, object]]) -> list[object]:
    return [level["spec"] for level in levels]


def test_each_game_is_offered_exactly_its_levels() -> None:
    every = computer_levels()
    for name in diceboard.games.names():
        own = ["random", *(f"level:{n}" for n in ai.game_levels(name))]
        assert _specs(computer_levels(name)) == own
        # the whole list, filtered as the menus filter it, gives the same
        offered = [lv for lv in every if "games" not in lv or name in lv["games"]]  # type: ignore[operator]
        assert _specs(offered) == own
    # a level without ``games`` is every game's; with it, only some games have it
    for level in every:
        having = level.get("games", list(diceboard.games.names()))
        for name in diceboard.games.names():
            assert (level["spec"] in _specs(computer_levels(name))) == (name in having)


def test_level_9_is_offered_where_a_game_declares_it() -> None:
    for name in diceboard.games.names():
        declared = 9 in binding(name).LEVEL_SPECS
        assert ("level:9" in _specs(computer_levels(name))) is declared
    nine = next(level for level in computer_levels() if level["spec"] == "level:9")
    assert str(nine["label"]).startswith("Level 9 — the strongest")


def test_a_game_without_level_9_keeps_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = diceboard.games.names()
    monkeypatch.delitem(binding(first).LEVEL_SPECS, 9, raising=False)
    for other in others:
        monkeypatch.setitem(binding(other).LEVEL_SPECS, 9, "alphabeta:time=1.8")
    nine = next(level for level in computer_levels() if level["spec"] == "level:9")
    assert nine["games"] == others
    assert "level:9" not in _specs(computer_levels(first))
    # the default opponent stays the middle of the levels every game has
    assert default_level() == "level:4"


def test_creating_a_game_at_a_level_its_game_lacks_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, *_ = diceboard.games.names()
    monkeypatch.delitem(binding(first).LEVEL_SPECS, 9, raising=False)
    body = {"game": first, "mode": "computer", "level": "level:9"}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert "unknown computer level 'level:9'" in response.json()["detail"]
    assert "level:8" in response.json()["detail"]
    levels = client.get("/api/meta").json()["levels"]
    nine = [level for level in levels if level["spec"] == "level:9"]
    assert all(first not in level.get("games", [first]) for level in nine)
