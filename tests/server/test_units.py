"""The server's small parts: rolls, tokens, move descriptions, computer levels."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import diceboard
from diceboard.server import tokens
from diceboard.server.computer import ThinkTask, computer_levels, think
from diceboard.server.live import play_decision, replay
from diceboard.server.moves import _chase, describe, rolled_face
from diceboard.server.rolls import resolve_chance, roll
from diceboard.server.storage.records import GameData, MoveData
from diceboard.server.views import _hand


def sample_game() -> GameData:
    """A stored game with every optional field empty."""
    return GameData(
        id="g",
        game="custodian",
        options={},
        start_position=None,
        seed=1,
        mode="local",
        listed=False,
        status="active",
        revision=1,
        version=1,
        move_count=0,
        result="*",
        winner=None,
        reason=None,
        initial_ms=None,
        increment_ms=None,
        clock_first_ms=None,
        clock_second_ms=None,
        clock_running=None,
        clock_since=None,
        draw_offer=None,
        takeback_offer=None,
        rematch_offer=None,
        rematch_game=None,
        rematch_of=None,
        invite_code=None,
        created_at=0.0,
        updated_at=0.0,
    )


@given(st.integers(0, 2**62), st.integers(0, 10_000), st.integers(1, 36))
def test_rolls_are_in_range_and_repeatable(seed: int, index: int, count: int) -> None:
    value = roll(seed, index, count)
    assert 0 <= value < count and roll(seed, index, count) == value


def test_rolls_are_fair_enough() -> None:
    counts = [0] * 6
    for i in range(6000):
        counts[roll(12345, i, 6)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_setup_rolls_replay() -> None:
    game = diceboard.game("custodian", placement="rolled")
    state, rolls = resolve_chance(game.initial_state(), 99, 0)
    assert len(rolls) == 10 and not state.is_chance()
    assert replay(game, None, [MoveData(m.notation, None, 0.0) for m in rolls]) == state


def test_a_chaos_decision_is_joined_with_its_roll() -> None:
    game = diceboard.game("custodian", variant="chaos")
    state = game.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    move = play_decision(state, "b1-b2", seed=4, index=17)
    face = roll(4, 17, 6) + 1
    assert move.notation == f"b1-b2={face}" and len(move.actions) == 2
    assert state.play(move).board()["b2"] == ("W", face)


def test_tokens() -> None:
    token = tokens.new_token()
    assert len(token) == 32 and token != tokens.new_token()
    stored = tokens.token_hash(token)
    assert tokens.same_hash(token, stored) and not tokens.same_hash(token + "x", stored)
    assert not tokens.same_hash(token, None)
    derived = tokens.derived_token(token, "rematch:g1")
    assert derived == tokens.derived_token(token, "rematch:g1")
    assert derived != tokens.derived_token(token, "rematch:g2") and derived != token


def test_custodian_moves_are_described() -> None:
    state = diceboard.game("custodian").parse("B5B2.../...../...../..B3../W3.W2.. W 0 10")
    info = describe(state, state.parse_move("c1^c3"))
    assert info == {
        "notation": "c1^c3",
        "kind": "jump",
        "from": "c1",
        "to": "c3",
        "face": None,
        "segments": [["c1", "c3"]],
    }
    setup = diceboard.game("custodian").start(seed=2)
    place = describe(setup, setup.legal_moves()[0])
    assert place["kind"] == "place" and place["segments"] == [[place["to"]]]


def test_chase_notation_is_read() -> None:
    assert _chase("{a1,b6}d6-d3SW") == {
        "absorb": ["a1", "b6"],
        "kind": "move",
        "from": "d6",
        "to": "d3",
        "dir": "SW",
        "capture": False,
    }
    assert _chase("d6xd3NE")["capture"] is True
    assert _chase("a1=2,a2=1") == {
        "absorb": [],
        "kind": "transfer",
        "transfer": [["a1", 2], ["a2", 1]],
    }
    assert _chase("{c3}a1=2,a2=1")["absorb"] == ["c3"]
    assert _chase("nonsense") == {"kind": "other"}


def test_rolled_faces() -> None:
    assert rolled_face("=4", chaos=False) == 4
    assert rolled_face("b1-d2=4", chaos=True) == 4
    assert rolled_face("b1-d2=4", chaos=False) is None
    assert rolled_face("b1^b3", chaos=True) is None


def test_hands_are_read_from_the_position() -> None:
    assert _hand("...../...../...../...../..... W 0 0 W12466,B11255", ("W", "B")) == {
        "W": [1, 2, 4, 6, 6],
        "B": [1, 1, 2, 5, 5],
    }
    assert _hand("...../...../...../...../..... W 0 0 W3????,B?????", ("W", "B")) == {
        "W": [3],
        "B": [],
    }
    assert _hand("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10", ("W", "B")) is None


def test_levels_and_thinking() -> None:
    levels = computer_levels()
    assert levels[0] == {"spec": "random", "label": "Random mover"}
    task = ThinkTask(
        "g", "custodian", {}, "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10", (), "random", 1
    )
    answer = think(task)
    legal = diceboard.game("custodian").parse(task.start_position or "").legal_moves()
    assert answer["best"] in {m.notation for m in legal}
    analysed = think(ThinkTask(**{**task.__dict__, "analyse": True, "moves": ("b1-b2=2",)}))
    assert {"best", "value", "pv"} <= set(analysed)
