"""Replaying a record's moves with the engine, in the record's canonical form.

A record holds whole moves, as ``State.legal_moves()`` lists them, each played through its
notation (``State.play``), so a record holds only moves the engine reads back. Two kinds of
pieces are put together:

- **turn pieces**: a move given as single kernel decisions (a Chase turn played action by
  action: the absorb steps ``{a1}``, ``{b6}``, then ``d6-d3SW``) becomes the whole legal move
  that leads to the same state (``{a1,b6}d6-d3SW``);
- **chance outcomes**: a decision directly followed by its chance outcome (a Chaos move and
  its roll) becomes one joined move, ``b1-d2`` + ``=4`` -> ``b1-d2=4``, when the engine reads
  the joined text as exactly those actions. Chance outcomes with no decision before them
  (the setup rolls) stay on their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from diceboard.core.errors import DiceboardError, RecordError
from diceboard.core.game import State
from diceboard.core.move import Move

#: move index (0-based) -> where that move stands, e.g. "game 2, line 14, move 23"
MoveLocator = Callable[[int], str]


def plain_locator(index: int) -> str:
    """The location of a move given without a text around it: ``move N`` (1-based)."""
    return f"move {index + 1}"


@dataclass(frozen=True, slots=True)
class Replay:
    """The result of replaying a list of moves.

    ``states[i]`` is the state before ``moves[i]`` (``states[-1]`` the final state);
    ``index[j]`` is the position in ``moves`` of the j-th given move (given moves that were
    put together share a position).
    """

    moves: tuple[Move, ...]
    states: tuple[State, ...]
    index: tuple[int, ...]


def replay(start: State, moves: Sequence[Move | str], locate: MoveLocator) -> Replay:
    """Play ``moves`` from ``start``; a move that cannot be played raises
    :class:`RecordError` saying where it stands, the move, and the engine's reason."""
    played: list[Move] = []
    states = [start]
    index: list[int] = []
    state = start
    i = 0
    while i < len(moves):
        first = i
        move, after, i = _whole_move(state, moves, i, locate)
        if not state.is_chance() and after.is_chance() and i + 1 < len(moves):
            rolled = _play(after, moves[i + 1], i + 1, locate)
            joined = _join(state, move, _last(rolled))
            if joined is not None:
                after = state.play(joined)
                move = joined
                i += 1
        index.extend([len(played)] * (i + 1 - first))
        played.append(move)
        states.append(after)
        state = after
        i += 1
    return Replay(tuple(played), tuple(states), tuple(index))


def _whole_move(
    state: State, moves: Sequence[Move | str], i: int, locate: MoveLocator
) -> tuple[Move, State, int]:
    """The whole move that starts with ``moves[i]`` in ``state``, the state after it, and
    the index of its last piece in ``moves``."""
    after = _play(state, moves[i], i, locate)
    move = _last(after)
    if state.is_chance() or _turn_over(state, after):
        # a chance outcome, or the common case: the move handed over, or a roll is next
        return move, after, i
    whole = {m.actions: m for m in state.legal_moves()}
    if move.actions in whole:
        return move, after, i
    # a piece of a turn (the player decides again): put the turn together
    actions = move.actions
    last = i
    while actions not in whole and not _turn_over(state, after):
        if last + 1 >= len(moves):
            raise RecordError(
                f"{locate(i)} {move.notation!r}: the record stops in the middle of a turn; a "
                "record holds whole turns (finish the turn, or record the state before it)"
            )
        last += 1
        after = _play(after, moves[last], last, locate)
        actions += _last(after).actions
    turn = whole.get(actions) or _same_turn(state, after, actions, whole.values())
    if turn is None:
        raise RecordError(
            f"{locate(i)}: the decisions {list(actions)} make no legal move of {state}"
        )
    return turn, _play(state, turn, i, locate), last


def _turn_over(before: State, after: State) -> bool:
    """Whether the move from ``before`` to ``after`` ended the mover's decisions: the other
    player decides next, a roll is pending, or the game is over."""
    return after.is_terminal() or after.is_chance() or after.to_move != before.to_move


def _same_turn(
    state: State, after: State, actions: tuple[int, ...], turns: Iterable[Move]
) -> Move | None:
    """The legal move of ``state`` that leads to ``after`` by the same number of decisions
    ending with the same one: pieces given in another order than the canonical move's (such
    as absorb steps that give the same faces)."""
    for turn in turns:
        same_shape = len(turn.actions) == len(actions) and turn.actions[-1] == actions[-1]
        if same_shape and state.play(turn) == after:
            return turn
    return None


def _last(state: State) -> Move:
    move = state.last_move
    assert move is not None  # every state made by play() knows its move
    return move


def _play(state: State, move: Move | str, i: int, locate: MoveLocator) -> State:
    """``state`` after ``move``, played through its notation."""
    if isinstance(move, Move):
        text = move.notation
    elif isinstance(move, str):
        text = move
    else:
        raise RecordError(
            f"{locate(i)}: a move is a Move or its notation, not {type(move).__name__} {move!r}"
        )
    try:
        after = state.play(text)
    except DiceboardError as exc:
        raise RecordError(f"{locate(i)} {text!r}: {exc}") from None
    if isinstance(move, Move) and _last(after).actions != move.actions:
        raise RecordError(
            f"{locate(i)} {text!r}: the notation names action(s) {list(_last(after).actions)}, "
            f"but the Move holds {list(move.actions)}"
        )
    return after


def _join(state: State, decision: Move, roll: Move) -> Move | None:
    """The joined move ``decision`` + ``roll`` as the engine reads it, if it reads it so."""
    try:
        joined = state.parse_move(decision.notation + roll.notation)
    except DiceboardError:
        return None
    return joined if joined.actions == decision.actions + roll.actions else None
