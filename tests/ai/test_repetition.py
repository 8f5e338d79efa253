"""The winning side does not walk into a draw by repetition on values its transposition table
kept from earlier moves (a regression: the table ignores repetition history, and a position
already seen twice took the value stored when it was new)."""

from __future__ import annotations

from pathlib import Path

import diceboard
from diceboard.core.game import State
from diceboard.records import read_pgn

#: alphabeta:depth=2 (White, five dice) against greedy (two dice): White shuffled a1-b1-a1
#: until Black's reply repeated the position a third time
GAME = Path(__file__).parent / "data" / "shuffle_draw.pgn"


def _allows_repetition(state: State) -> bool:
    """Whether the opponent, to move in ``state``, has a reply that draws by repetition."""
    for reply in state.legal_moves():
        outcome = state.play(reply).outcome()
        if outcome is not None and outcome.reason == "repetition":
            return True
    return False


def test_a_searcher_that_played_the_game_avoids_the_repetition() -> None:
    (record,) = read_pgn(GAME.read_text())
    states = record.states()
    decision = states[-3]  # White to move, 5 dice against 2; the record's move allowed the draw
    assert decision.to_move == "W"
    played = decision.play(record.moves[-2])
    assert _allows_repetition(played)
    searcher = diceboard.agent("alphabeta:depth=2", seed=1)
    for state in states[:-3]:  # the same searcher thinks along, filling its table
        if state.to_move == "W" and not state.is_chance() and state.outcome() is None:
            searcher.choose(state)
    move = searcher.choose(decision)
    assert not _allows_repetition(decision.play(move))
