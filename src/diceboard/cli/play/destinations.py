"""Where the die on a square can go: the legal moves that start there, by landing square.
The squares come from the game API (``State.move_segments``), never from the rules."""

from __future__ import annotations

from dataclasses import dataclass

from diceboard.core.game import State
from diceboard.core.move import Move, MoveKind

#: the kinds of move that carry a die somewhere (not transfers, whose drawing also runs from
#: one die to another); a placement counts, landing where it is put
CARRIES_A_DIE = frozenset({MoveKind.STEP, MoveKind.JUMP, MoveKind.PLACEMENT, MoveKind.MOVE})


@dataclass(frozen=True)
class Destinations:
    """The legal moves of the die on ``square``, grouped by the square each one lands on
    (in the order the moves sort)."""

    square: str
    landings: dict[str, list[Move]]

    @property
    def squares(self) -> tuple[str, ...]:
        """The landing squares."""
        return tuple(self.landings)


def destinations(state: State, square: str) -> Destinations:
    """The moves whose path begins on ``square``, keyed by where they end."""
    landings: dict[str, list[Move]] = {}
    for move in state.legal_moves():
        if move.kind not in CARRIES_A_DIE:
            continue
        segments = state.move_segments(move)
        if not segments or not segments[0] or segments[0][0] != square:
            continue
        landings.setdefault(segments[0][-1], []).append(move)
    return Destinations(square, landings)


def describe(state: State, found: Destinations) -> list[str]:
    """Lines that list ``found`` for the player, or say why there is nothing to list."""
    owner = state.board().get(found.square)
    if found.landings:
        width = max(len(sq) for sq in found.landings)
        if owner is None:
            # a placement puts a die from the hand onto the square
            header = f"moves onto {found.square}:"
        else:
            header = f"moves of the die on {found.square}, by the square where it lands:"
        return [header] + [
            f"  {to:<{width}}  {' '.join(m.notation for m in moves)}"
            for to, moves in found.landings.items()
        ]
    names = dict(zip(state.game.players, state.game.player_names, strict=True))
    mover = names[state.to_move]
    if owner is None:
        return [f"{found.square} is empty and no move starts there"]
    if owner[0] != state.to_move:
        return [f"the die on {found.square} is {names[owner[0]]}'s; {mover} is to move"]
    return [f"the die on {found.square} has no legal move"]
