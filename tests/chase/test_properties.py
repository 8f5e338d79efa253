"""Property tests: the engine against the plain-Python reference on random positions and
games, notation round trips, play accepting exactly the legal turns, random games ending
properly, and the compiled kernel agreeing with the plain-Python one."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceboard
from diceboard import DiceboardError
from diceboard.games.chase.kernel.board import refresh

from . import reference
from .random_game import lines

HEXES = [f"{r}{c}" for r in "abcdefghi" for c in range(1, 10)]
NEAR_CHAMBER = [h for h in HEXES if h[0] in "cdefg" and h[1] in "34567" and h != "e5"]


def faces_totalling(rng: random.Random, n: int, total: int) -> list[int]:
    faces = [1] * n
    for _ in range(total - n):
        faces[rng.choice([i for i in range(n) if faces[i] < 6])] += 1
    return faces


def random_position(seed: int) -> str:
    """A legal position string: 5–10 dice a side, crowded round the chamber half the time,
    the side to move sometimes short of 25 (it must absorb)."""
    rng = random.Random(seed)
    free = [h for h in HEXES if h != "e5"]
    rng.shuffle(free)
    if rng.random() < 0.5:
        near = [h for h in NEAR_CHAMBER]
        rng.shuffle(near)
        free = near + [h for h in free if h not in near]
    to_move = rng.choice("BR")
    cells: dict[str, str] = {}
    for side in "BR":
        n = rng.randint(5, 10)
        total = 25 if side != to_move or rng.random() < 0.6 else rng.randint(max(n, 13), 24)
        for face in faces_totalling(rng, n, total):
            cells[free.pop(0)] = f"{side}{face}"
    rows = ["".join(cells.get(f"{r}{c}", ".") for c in range(1, 10)) for r in "ihgfedcba"]
    return f"{'/'.join(rows)} {to_move} {rng.randint(0, 98)} {rng.randint(0, 300)}"


def random_states(seed: int, limit: int, **options: Any) -> list[diceboard.State]:
    rng = random.Random(seed)
    state = diceboard.game("chase", **options).start()
    states = [state]
    while not state.is_terminal() and len(states) < limit:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def assert_agrees_with_reference(state: diceboard.State) -> None:
    ref = reference.Position.parse(str(state))
    expected = reference.turns(ref) if state.outcome() is None else {}
    got = {str(m): m for m in state.legal_moves()}
    assert set(got) == set(expected), str(state)
    for text, after in expected.items():
        child = state.play(got[text])
        assert str(child) == str(after), (str(state), text)
        outcome = child.outcome()
        reason = None if outcome is None else outcome.reason
        if reason != "repetition":
            assert reason == reference.static_end(after), (str(state), text)


@pytest.mark.slow  # 25 s alone, about 70 s on two busy workers
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_positions_agree_with_the_reference(seed: int) -> None:
    text = random_position(seed)
    state = diceboard.game("chase").parse(text)
    outcome = state.outcome()
    assert (None if outcome is None else outcome.reason) == reference.static_end(
        reference.Position.parse(text)
    )
    assert_agrees_with_reference(state)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_games_agree_with_the_reference(seed: int) -> None:
    for state in random_states(seed, limit=120)[::3]:
        assert_agrees_with_reference(state)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_fields_kept_beside_the_board_follow_it(seed: int) -> None:
    """Counts, totals, both occupancy bitsets, hash and phase, kept up to date move by move
    (board.put), equal what refresh() computes from the board alone."""
    for state in random_states(seed, limit=200):
        kept = state.kernel_state()
        recomputed = kept.copy()
        refresh(recomputed)
        assert recomputed.tolist() == kept.tolist(), str(state)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_positions_and_turns_round_trip(seed: int) -> None:
    game = diceboard.game("chase")
    states = [*random_states(seed, limit=100), game.parse(random_position(seed))]
    for state in states:
        text = str(state)
        assert str(game.parse(text)) == text
        moves = state.legal_moves()
        assert [m.notation for m in moves] == sorted({m.notation for m in moves})
        for move in moves:
            assert state.parse_move(str(move)) == move
            if len(move.actions) == 1:
                assert game.action_notation(move.action, state) == str(move)


def _turn_texts(state: diceboard.State, rng: random.Random) -> list[str]:
    """Strings near the legal turns: other hexes, separators, directions and prefixes."""
    texts = [str(m) for m in rng.sample(state.legal_moves(), min(4, len(state.legal_moves())))]
    for _ in range(12):
        a, b = rng.choice(HEXES), rng.choice(HEXES)
        texts.append(
            f"{a}{rng.choice('-x')}{b}{rng.choice(['E', 'NE', 'NW', 'W', 'SW', 'SE', ''])}"
        )
        texts.append(f"{a}={rng.randint(0, 7)},{b}={rng.randint(0, 7)}")
    prefix = "{" + ",".join(rng.sample(HEXES, rng.randint(1, 3))) + "}"
    texts += [prefix + t for t in texts[:6]]
    texts += ["", "pass", "{}", "a1-", "{a1", "=3", "a1-a2EE", "a1xa2"]
    return texts


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_play_accepts_the_legal_turns_and_refuses_the_rest(seed: int) -> None:
    rng = random.Random(seed)
    states = [s for s in random_states(seed, limit=60) if not s.is_terminal()]
    state = states[-1] if rng.random() < 0.5 else rng.choice(states)
    legal = set(state.legal_moves())
    for text in _turn_texts(state, rng):
        try:
            move = state.parse_move(text)
        except DiceboardError as error:
            assert text not in {m.notation for m in legal}, f"{text} refused: {error}"
            assert str(error)
        else:
            # accepted: the turn itself, or a spelling of it (no direction, other order, …)
            # — or a bare absorption prefix, which plays the absorb decisions alone
            bare = move.notation.endswith("}")
            assert move in legal or bare, f"{text} accepted as {move} in {state}"
            assert state.play(move) != state


@pytest.mark.parametrize("limit", [100, 20])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_games_end_with_a_valid_outcome(limit: int, seed: int) -> None:
    final = random_states(seed, limit=5000, no_capture_limit=limit)[-1]
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.reason in {"elimination", "repetition", "no-capture-limit", "immobilized"}
    assert outcome.result == {"B": "1-0", "R": "0-1", None: "1/2-1/2"}[outcome.winner]
    assert (outcome.winner is None) == (outcome.reason in {"repetition", "no-capture-limit"})
    assert final.legal_moves() == [] and final.legal_action_ids() == []


def test_kernel_random_playouts_finish_games(chase) -> None:  # type: ignore[no-untyped-def]
    totals = chase.kernel.random_playouts(chase.start().kernel_state(), chase.opts, 50, 7, 5000)
    decisions, chance, finished, blue, red, draws = (int(x) for x in totals)
    assert chance == 0 and finished == 50 == blue + red + draws and decisions > 50 * 20


@pytest.mark.nojit
def test_compiled_and_plain_python_kernels_agree() -> None:
    script = Path(__file__).with_name("random_game.py")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(Path(__file__).parents[2]))
    for seed in (1, 2):
        plain = subprocess.run(
            [sys.executable, str(script), str(seed), "60"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert plain.stdout.splitlines() == lines(seed, 60)
