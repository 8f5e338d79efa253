"""The server's small parts: rolls, tokens, move descriptions, computer levels."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import diceboard
from diceboard.server import tokens
from diceboard.server.computer_players import ThinkTask, computer_levels, think
from diceboard.server.live import play_decision, state_after_moves
from diceboard.server.move_json import legal_moves_json, move_json, rolled_face
from diceboard.server.rolls import resolve_chance, roll
from diceboard.server.storage.rows import GameData, MoveData
from diceboard.server.views import hand_json


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
    assert state_after_moves(game, None, [MoveData(m.notation, None, 0.0) for m in rolls]) == state


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
    info = move_json(state, state.parse_move("c1^c3"))
    assert info == {
        "notation": "c1^c3",
        "kind": "jump",
        "from": "c1",
        "to": "c3",
        "segments": [["c1", "c3"]],
    }
    step = move_json(state, next(m for m in state.legal_moves() if m.kind.value == "step"))
    assert isinstance(step["face"], int) and "roll" not in step and "capture" not in step
    setup = diceboard.game("custodian").start(seed=2)
    place = move_json(setup, setup.legal_moves()[0])
    assert place["kind"] == "placement" and place["segments"] == [[place["to"]]]
    assert isinstance(place["face"], int)


def test_moves_followed_by_a_roll_are_marked() -> None:
    position = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
    chaos = diceboard.game("custodian", variant="chaos").parse(position)
    assert all(m["rolled_after"] for m in legal_moves_json(chaos))
    assert all("face" not in m for m in legal_moves_json(chaos) if m["kind"] == "step")
    standard = diceboard.game("custodian").parse(position)
    assert not any("rolled_after" in m for m in legal_moves_json(standard))


def test_chase_moves_are_described() -> None:
    state = diceboard.game("chase").initial_state()
    described = [move_json(state, m, segments=False) for m in state.legal_moves()]
    moves = [m for m in described if m["kind"] == "move"]
    assert moves and all({"from", "to", "dir"} <= set(m) for m in moves)
    assert all(m["dir"] in {"E", "W", "NE", "NW", "SE", "SW"} for m in moves)
    transfers = [m for m in described if m["kind"] == "transfer"]
    for m in transfers:
        assert "from" not in m and len(m["transfer"]) == 2
        assert all(isinstance(sq, str) and 1 <= face <= 6 for sq, face in m["transfer"])


def test_chase_captures_and_absorptions_are_described() -> None:
    # the structure is the engine's: compare with the Move fields of every legal move
    # of a few random positions (captures and absorption prefixes come up quickly)
    import random

    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(4):
        state = diceboard.game("chase").initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            legal = state.legal_moves()
            for m in legal:
                info = move_json(state, m, segments=False)
                assert info.get("capture", False) is m.capture
                assert info.get("absorb", []) == list(m.absorbed)
                assert info.get("dir") == m.direction
                if m.capture:
                    seen.add("capture")
                if m.absorbed:
                    seen.add("absorb")
            state = state.play(rng.choice(legal))
    assert seen == {"capture", "absorb"}


def test_rolled_faces() -> None:
    chaos = diceboard.game("custodian", variant="chaos")
    state = chaos.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    assert rolled_face(state.parse_move("b1-b2=4")) == 4
    standard = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    assert rolled_face(standard.parse_move("b1-b2=4")) is None
    setup = diceboard.game("custodian", placement="rolled").initial_state()
    roll_move = setup.chance_outcomes()[0][0]
    assert rolled_face(roll_move) == roll_move.face


def test_hands_are_read_from_the_state() -> None:
    setup = diceboard.game("custodian").parse("...../...../...../...../..... W 0 0 W12466,B11255")
    assert hand_json(setup) == {"W": [1, 2, 4, 6, 6], "B": [1, 1, 2, 5, 5]}
    rolling = diceboard.game("custodian").parse("...../...../...../...../..... W 0 0 W3????,B?????")
    assert hand_json(rolling) == {"W": [3], "B": []}
    playing = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    assert hand_json(playing) is None
    assert hand_json(diceboard.game("chase").initial_state()) is None


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


def test_sqlite_syncs_every_commit(tmp_path: Path) -> None:
    """synchronous=FULL (2) with WAL: an acknowledged move survives a power loss (issue 12)."""
    from sqlalchemy import text

    from diceboard.server.storage.database import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'games.db'}")
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    engine.dispose()
