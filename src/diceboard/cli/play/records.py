"""Saving the game being played as a record (PGN, or JSON for a ``.json`` file)."""

from __future__ import annotations

import datetime

from diceboard.cli.files import write_text_atomic
from diceboard.cli.play.seats import Seat
from diceboard.core.game import State
from diceboard.core.outcome import Outcome


def save_game(
    state: State, seats: dict[str, Seat], seed: int | None, path: str, outcome: Outcome | None
) -> int:
    """Write the record of the game that led to ``state`` to ``path``, replacing the file
    whole; ``outcome`` ends a game the rules have not ended (a resignation). Returns the number
    of moves written."""
    from diceboard.records import GameRecord

    players = tuple(seats[p].spec for p in state.game.players)
    record = GameRecord.from_state(
        state, players=players, date=datetime.date.today(), seed=seed, outcome=outcome
    )
    text = record.to_json() if path.lower().endswith(".json") else record.to_pgn()
    write_text_atomic(path, text if text.endswith("\n") else text + "\n")
    return len(record.moves)
