"""A game as the service holds it in memory: the stored data plus the engine state that the
stored moves lead to. Values are immutable; every change makes a new :class:`LiveGame`, so a
write that fails to commit leaves the cached game as it was."""

from __future__ import annotations

from dataclasses import dataclass

from diceboard.core.errors import IllegalMoveError
from diceboard.core.game import Game, State
from diceboard.core.move import Move
from diceboard.core.outcome import Outcome
from diceboard.server.rolls import resolve_chance
from diceboard.server.storage.rows import GameData, MoveData, SeatData

#: outcome reasons decided by the server rather than by the rules
TIMEOUT = "timeout"
RESIGNATION = "resignation"
AGREEMENT = "agreement"


def state_after_moves(
    rules: Game, start_position: str | None, moves: list[MoveData] | tuple[MoveData, ...]
) -> State:
    """The state reached by playing the stored ``moves`` from the game's start (its stored
    position, else the initial state): how a game is loaded from the database."""
    state = rules.parse(start_position) if start_position else rules.initial_state()
    for move in moves:
        state = state.play(move.notation)
    return state


def result_for(winner: str | None, players: tuple[str, str]) -> str:
    """The result string when ``winner`` (or nobody) wins."""
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == players[0] else "0-1"


@dataclass(frozen=True)
class LiveGame:
    """A stored game and the engine state its moves lead to."""

    data: GameData
    seats: dict[str, SeatData]
    moves: tuple[MoveData, ...]
    rules: Game
    state: State

    @property
    def id(self) -> str:
        """The public game id."""
        return self.data.id

    @property
    def players(self) -> tuple[str, str]:
        """The players' letters, first player first."""
        return self.rules.players

    def outcome(self) -> Outcome | None:
        """How the game ended: by the rules, or by the server (timeout, resignation,
        agreement); ``None`` while it goes on."""
        if self.data.status == "finished" and self.data.reason:
            return Outcome(self.data.winner, self.data.reason, self.data.result)
        return self.state.outcome()

    def in_play(self) -> bool:
        """Whether moves can be made now."""
        return self.data.status == "active" and not self.state.is_terminal()

    def side_to_move(self) -> str | None:
        """The player who must decide now, or ``None`` when nobody can move."""
        return self.state.to_move if self.in_play() else None

    def opponent(self, seat: str) -> str:
        """The other player's letter."""
        return self.players[1] if seat == self.players[0] else self.players[0]

    def computer_to_move(self) -> bool:
        """Whether the computer must move now."""
        side = self.side_to_move()
        return side is not None and self.seats[side].kind == "computer"

    def last_decision_by(self, seat: str) -> int | None:
        """Index of the last move that ``seat`` made (rolls are nobody's), if any."""
        for idx in range(len(self.moves) - 1, -1, -1):
            if self.moves[idx].seat == seat:
                return idx
        return None


def play_decision(state: State, text: str, seed: int, index: int) -> Move:
    """The whole move that a player's ``text`` makes in ``state`` at move ``index``: the
    decision, with any roll it causes made by the server and joined to it (``b1-d2`` becomes
    ``b1-d2=4`` in Chaos). A player may never name a roll: the server makes them."""
    move = state.parse_move(text)
    node = state
    for action in move.actions:
        if node.is_chance():
            raise IllegalMoveError(
                f"{text} names a roll; the server rolls the dice: submit the move without it"
            )
        node = node.play(action)
    _after, rolls = resolve_chance(node, seed, index)
    if not rolls:
        return move
    for roll in rolls:
        move = move.joined(roll)  # the notation, the actions and the rolled face
    return move
