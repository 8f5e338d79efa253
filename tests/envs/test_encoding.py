"""Observation encodings for hand-checked positions, and masks against the legal ids."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceboard
from diceboard.core.errors import OptionError
from diceboard.core.game import Game
from diceboard.encoding import action_mask, encoding_for, observe

START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def _squares(obs: np.ndarray, plane: int, game: Game) -> set[str]:
    flat = obs[plane].reshape(-1)
    return {game.squares[i] for i in np.flatnonzero(flat)}


def test_custodian_planes_for_the_first_move_position() -> None:
    game = diceboard.game("custodian")
    state = game.parse(START)
    enc = encoding_for(game)
    assert enc.shape == (42, 5, 5) and enc.version == 1
    obs = observe(state)
    assert obs.dtype == np.float32 and obs.shape == enc.shape
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    # White to move: White's dice are "own"
    assert _squares(obs, enc.plane("own_face_3"), game) == {"a1"}
    assert _squares(obs, enc.plane("own_face_1"), game) == {"b1"}
    assert _squares(obs, enc.plane("own_face_6"), game) == {"c1"}
    assert _squares(obs, enc.plane("opponent_face_2"), game) == {"b5", "d5"}
    assert _squares(obs, enc.plane("opponent_face_6"), game) == {"c5", "e5"}
    assert _squares(obs, enc.plane("opponent_face_5"), game) == {"a5"}
    assert obs[: enc.plane("pending_roll") + 1].sum() == 10
    # indexing: obs[plane, file, rank]
    assert obs[enc.plane("own_face_3"), 0, 0] == 1.0
    full = {"phase_play", "perspective_to_move", "option_jumping"}
    for name in enc.planes[enc.plane("perspective_is_second") :]:
        expected = 1.0 if name in full else 0.0
        assert (obs[enc.plane(name)] == expected).all(), name
    # Black's view of the same position swaps own and opponent
    black = observe(state, "B")
    assert _squares(black, enc.plane("own_face_5"), game) == {"a5"}
    assert _squares(black, enc.plane("opponent_face_3"), game) == {"a1"}
    assert (black[enc.plane("perspective_is_second")] == 1).all()
    assert (black[enc.plane("perspective_to_move")] == 0).all()
    np.testing.assert_array_equal(observe(state, 1), black)


def test_custodian_setup_hands_pending_rolls_clock_and_options() -> None:
    game = diceboard.game("custodian", variant="chaos", placement="chosen", no_capture_limit=50)
    enc = encoding_for(game)
    setup = game.parse("...../...../...../...../..... W 0 0 W3????,B?????")
    obs = observe(setup)
    assert (obs[enc.plane("phase_rolls")] == 1).all() and (obs[enc.plane("chance")] == 1).all()
    assert (obs[enc.plane("own_hand_3")] == 0.2).all()
    assert (obs[enc.plane("own_unrolled")] == 0.8).all()
    assert (obs[enc.plane("opponent_unrolled")] == 1.0).all()
    assert (obs[enc.plane("option_faces_roll")] == 1).all()
    assert (obs[enc.plane("option_jumping")] == 1).all()
    placing = game.parse("...../...../...../...../W3W1W6W4W2 B 0 5 B22566")
    obs = observe(placing)
    assert (obs[enc.plane("phase_placement")] == 1).all()
    assert (obs[enc.plane("own_hand_2")] == 0.4).all() and (
        obs[enc.plane("own_hand_6")] == 0.4
    ).all()
    assert _squares(obs, enc.plane("opponent_face_3"), game) == {"a1"}
    pending = game.parse("B5B2B6B2B6/...../..W?../...../W3W1.W4W2 W 25 11")
    obs = observe(pending)
    assert _squares(obs, enc.plane("pending_roll"), game) == {"c3"}
    assert (obs[enc.plane("chance")] == 1).all()
    assert (obs[enc.plane("clock")] == 0.5).all()


def test_custodian_repetition_planes_count_earlier_occurrences() -> None:
    game = diceboard.game("custodian")
    enc = encoding_for(game)
    state = game.parse("....B1/....B2/...../W2..../W1.... W 0 10")
    seen = [state]
    for move in ["a1^a3", "e5^e3", "a3^a1", "e3^e5"] * 2:
        state = state.play(move)
        seen.append(state)
    assert str(seen[4]).split()[0] == str(seen[0]).split()[0]
    rep1, rep2 = enc.plane("repetition_1"), enc.plane("repetition_2")
    assert observe(seen[3])[rep1].max() == 0
    assert observe(seen[4])[rep1].min() == 1 and observe(seen[4])[rep2].max() == 0
    assert observe(seen[8])[rep2].min() == 1
    outcome = seen[8].outcome()
    assert outcome is not None and outcome.reason == "repetition"


def test_chase_planes_for_the_standard_start() -> None:
    game = diceboard.game("chase")
    enc = encoding_for(game)
    assert enc.shape == (24, 9, 9)
    obs = observe(game.initial_state())
    assert _squares(obs, enc.plane("own_face_5"), game) == {"a5"}
    assert _squares(obs, enc.plane("own_face_1"), game) == {"a1", "a9"}
    assert _squares(obs, enc.plane("opponent_face_4"), game) == {"i4", "i6"}
    assert _squares(obs, enc.plane("chamber"), game) == {"e5"}
    assert obs[enc.plane("chamber"), 4, 4] == 1.0  # obs[plane, row, column]
    assert _squares(obs, enc.plane("odd_row"), game) == {
        f"{r}{c}" for r in "bdfh" for c in range(1, 10)
    }
    assert (obs[enc.plane("own_dice")] == 0.9).all()
    assert (obs[enc.plane("absorbing")] == 0).all()
    red = observe(game.initial_state(), "R")
    assert _squares(red, enc.plane("own_face_5"), game) == {"i5"}


def test_chase_absorbing_planes() -> None:
    game = diceboard.game("chase")
    enc = encoding_for(game)
    # Blue totals 22 (a1 holds a 1 instead of a 4): three pips to absorb
    state = game.parse(
        "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./"
        "........./........./B1B2B3B1B5B4B3B2B1 B 0 0"
    )
    obs = observe(state)
    assert (obs[enc.plane("absorbing")] == 1).all()
    assert np.allclose(obs[enc.plane("own_pips_to_absorb")], 3 / 25)
    assert (obs[enc.plane("opponent_pips_to_absorb")] == 0).all()


def test_unknown_names_are_option_errors() -> None:
    with pytest.raises(OptionError, match="no observation encoding for game 'go'"):
        encoding_for("go")
    enc = encoding_for("custodian")
    with pytest.raises(OptionError, match="has no plane 'king'"):
        enc.plane("king")
    state = diceboard.game("custodian").parse(START)
    with pytest.raises(OptionError, match="unknown player 'X'"):
        observe(state, "X")
    with pytest.raises(OptionError, match="a player index is 0 or 1"):
        observe(state, 2)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
    variant=st.sampled_from(["standard", "chaos"]),
)
def test_masks_equal_legal_ids_and_dice_planes_match_the_board(
    seed: int, plies: int, variant: str
) -> None:
    game = diceboard.game("custodian", variant=variant)
    enc = encoding_for(game)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        ids = state.legal_action_ids()
        state = state.play(ids[int(rng.integers(len(ids)))])
    mask = action_mask(state)
    assert mask.shape == (game.num_actions,) and mask.dtype == np.int8
    assert np.flatnonzero(mask).tolist() == sorted(state.legal_action_ids())
    obs = observe(state)
    me = state.to_move
    for square, (owner, face) in state.board().items():
        i = game.squares.index(square)
        if face is None:
            plane = enc.plane("pending_roll")
        else:
            plane = enc.plane(("own" if owner == me else "opponent") + f"_face_{face}")
        assert obs[plane].reshape(-1)[i] == 1.0
    assert obs[: enc.plane("pending_roll") + 1].sum() == len(state.board())
