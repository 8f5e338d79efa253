"""Time control: minutes per player plus an increment per move, kept by the server.

The stored clock is ``(remaining first, remaining second, running side, since)``: the side
that is running has used ``now - since`` seconds of its remaining time. A move charges the
mover, adds the increment and starts the other side's clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from diceboard.server.storage.rows import GameData, replaced


@dataclass(frozen=True)
class ClockView:
    """What the players see: each side's remaining milliseconds and the running side."""

    remaining: dict[str, int]
    running: str | None


def has_clock(game: GameData) -> bool:
    """Whether the game is played on a clock."""
    return game.initial_ms is not None


def _stored(game: GameData, players: tuple[str, str]) -> dict[str, int]:
    return {players[0]: int(game.clock_first_ms or 0), players[1]: int(game.clock_second_ms or 0)}


def reading(game: GameData, players: tuple[str, str], now: float) -> ClockView | None:
    """Remaining time of each side at ``now`` (``None`` without time control)."""
    if not has_clock(game):
        return None
    remaining = _stored(game, players)
    running = game.clock_running
    if running is not None and game.clock_since is not None:
        used = round((now - game.clock_since) * 1000)
        remaining[running] = max(0, remaining[running] - max(0, used))
    return ClockView(remaining, running)


def flagged(game: GameData, players: tuple[str, str], now: float) -> str | None:
    """The side whose time has run out at ``now``, if any."""
    view = reading(game, players, now)
    if view is None or view.running is None:
        return None
    return view.running if view.remaining[view.running] <= 0 else None


def flag_due(game: GameData, players: tuple[str, str]) -> float | None:
    """The epoch time at which the running side's time runs out (``None`` if none runs)."""
    if not has_clock(game) or game.clock_running is None or game.clock_since is None:
        return None
    return game.clock_since + _stored(game, players)[game.clock_running] / 1000.0


def _with(game: GameData, players: tuple[str, str], remaining: dict[str, int]) -> GameData:
    return replaced(
        game, clock_first_ms=remaining[players[0]], clock_second_ms=remaining[players[1]]
    )


def charge(
    game: GameData, players: tuple[str, str], mover: str, next_side: str | None, now: float
) -> tuple[GameData, int | None]:
    """The game after ``mover`` moved at ``now`` with ``next_side`` to move next (``None``
    when the game is over): the mover is charged and gets the increment. Also returns the
    mover's remaining milliseconds (``None`` without time control)."""
    view = reading(game, players, now)
    if view is None:
        return game, None
    remaining = dict(view.remaining)
    remaining[mover] += int(game.increment_ms or 0)
    updated = _with(game, players, remaining)
    return (
        replaced(updated, clock_running=next_side, clock_since=None if next_side is None else now),
        remaining[mover],
    )


def restart(game: GameData, players: tuple[str, str], side: str | None, now: float) -> GameData:
    """The game with the time used so far charged and ``side``'s clock running from ``now``
    (``None`` stops both clocks)."""
    view = reading(game, players, now)
    if view is None:
        return game
    updated = _with(game, players, view.remaining)
    return replaced(updated, clock_running=side, clock_since=None if side is None else now)
