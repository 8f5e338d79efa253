"""Who plays each side: a human at the keyboard or a computer player (an agent spec)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import diceboard
from diceboard.core.game import Game

if TYPE_CHECKING:
    from diceboard.ai import Agent

HUMAN = "human"


@dataclass(frozen=True)
class Seat:
    """One side of the game: its player letter and colour name, the spec it was given
    (``human`` or an agent spec) and, for a computer, its agent."""

    player: str
    name: str
    spec: str
    agent: Agent | None

    @property
    def is_human(self) -> bool:
        """Whether a person decides this side's moves."""
        return self.agent is None

    def __str__(self) -> str:
        return f"{self.name} ({self.spec})"


def make_seats(game: Game, specs: tuple[str, str], seed: int | None) -> dict[str, Seat]:
    """The seats of ``game``'s two players (first player first), by player letter. Each
    agent gets its own seed derived from ``seed``; an unknown spec raises ``OptionError``."""
    seats = {}
    for index, (player, name, spec) in enumerate(
        zip(game.players, game.player_names, specs, strict=True)
    ):
        text = spec.strip()
        if text.lower() == HUMAN:
            seats[player] = Seat(player, name, HUMAN, None)
        else:
            agent_seed = None if seed is None else seed + 1 + index
            seats[player] = Seat(player, name, text, diceboard.agent(text, seed=agent_seed))
    return seats
