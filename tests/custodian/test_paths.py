"""The path drawn for each Custodian step is a real walk under the rules: exactly the face's
number of orthogonal steps through empty squares, never straight back, self-avoiding where the
option says so, from the die's square to the move's landing square."""

from __future__ import annotations

import itertools
import random

import pytest

import diceboard
from diceboard.core.move import MoveKind


def _adjacent(a: str, b: str) -> bool:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1])) == 1


@pytest.mark.parametrize("path", ["no-reversal", "self-avoiding"])
def test_every_step_is_drawn_along_a_legal_walk(path: str) -> None:
    game = diceboard.game("custodian", path=path)
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        state = game.start(seed=seed)
        for _ in range(40):
            if state.is_terminal():
                break
            board = state.board()
            for move in state.legal_moves():
                if move.kind is not MoveKind.STEP:
                    continue
                (walk,) = state.move_segments(move)
                face = board[move.from_square][1]
                assert face is not None
                assert len(walk) == face + 1, (str(state), move, walk)
                assert (walk[0], walk[-1]) == (move.from_square, move.to_square)
                for i, (a, b) in enumerate(itertools.pairwise(walk)):
                    assert _adjacent(a, b), (move, walk)
                    assert b == move.from_square or b not in board, (move, walk)
                    if i:
                        assert b != walk[i - 1], f"{move} steps straight back: {walk}"
                if path == "self-avoiding":
                    assert len(set(walk)) == len(walk), (move, walk)
                checked += 1
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(moves[rng.randrange(len(moves))])
    assert checked > 500


def test_a_jump_is_drawn_as_a_jump() -> None:
    state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../W1..../W3.W6W4W2 W 0 10")
    jump = state.parse_move("a1^a3")
    assert jump.kind is MoveKind.JUMP
    assert state.move_segments(jump) == [["a1", "a3"]]
