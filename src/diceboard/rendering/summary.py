"""What a picture of a state says besides the board: whose turn, the counters, the hands
(dice held off the board, as during Custodian Dice's setup), the last move and the result.
Both renderers word it the same way."""

from __future__ import annotations

from dataclasses import dataclass

from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.rendering.look import look

Face = int | None


@dataclass(frozen=True, slots=True)
class Summary:
    """The text facts about a state that a board picture shows.

    ``hands`` maps each player letter to the dice not yet placed (``None`` for one not yet
    rolled), only for players who hold dice (as during Custodian Dice's setup). ``status`` is
    one line: the result when the game is over, else who decides or rolls next. ``material``
    says, player by player, how many dice they have on the board (and, in a game whose look
    has ``shows_pip_total``, as Chase's, the total of their faces).
    """

    title: str
    players: tuple[str, str]
    names: tuple[str, str]
    to_move: str
    status: str
    counters: str
    hands: dict[str, tuple[Face, ...]]
    material: tuple[str, str]
    last_move: str | None
    result: str | None

    def name_of(self, player: str) -> str:
        """The colour name of a player letter (``"W"`` -> ``"White"``)."""
        return self.names[self.players.index(player)]


def hands_of(state: State) -> dict[str, tuple[Face, ...]]:
    """The dice each player holds off the board (:meth:`State.hand`), only for players who
    hold some: empty outside Custodian Dice's setup and for games without hands. Rolled faces
    come first in ascending order, then ``None`` for each die not rolled yet."""
    return {player: hand for player, hand in state.hand().items() if hand}


def displayed_move(state: State) -> Move | None:
    """The last decision that led to ``state``: its :attr:`~State.last_move`, or, where that
    was only a roll (a Chaos roll played on its own), the move joined with that roll.
    ``None`` before the first decision (setup rolls are not decisions)."""
    node = state
    rolls: list[Move] = []
    while node.parent is not None and node.last_move is not None:
        if not node.parent.is_chance():
            if rolls:
                # a record writes a Chaos move joined with its roll: b1-d2=4
                joined = node.last_move
                for roll in reversed(rolls):
                    joined = joined.joined(roll)
                return joined
            return node.last_move
        rolls.append(node.last_move)
        node = node.parent
    return None


def last_move_segments(state: State) -> list[list[str]]:
    """Polylines of the last decision's path, as the game draws it (empty if none)."""
    node = state
    while node.parent is not None and node.last_move is not None:
        segments = node.parent.move_segments(node.last_move)
        if segments or not node.parent.is_chance():
            return [list(s) for s in segments]
        node = node.parent
    return []


def _result_text(state: State, names: dict[str, str]) -> str | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    reason = outcome.reason.replace("-", " ")
    if outcome.winner is None:
        return f"{outcome.result}, draw by {reason}"
    return f"{outcome.result}, {names[outcome.winner]} wins by {reason}"


def _chance_text(state: State, names: dict[str, str], hands: dict[str, tuple[Face, ...]]) -> str:
    """Who or what is rolled next at a chance node."""
    for player, hand in hands.items():
        waiting = sum(1 for face in hand if face is None)
        if waiting:
            dice = "die" if waiting == 1 else "dice"
            return f"rolling {names[player]}'s {dice} ({waiting} to roll)"
    pending = [sq for sq, (_, face) in state.board().items() if face is None]
    if pending:
        return f"{names[state.to_move]}'s die on {pending[0]} awaits its roll"
    return f"{names[state.to_move]}'s roll"


@dataclass(frozen=True)
class SideMaterial:
    """What one side has: ``dice`` on the board, ``pips`` (the total of their faces, where the
    game's look shows it, else ``None``) and ``spares`` (dice off the board, where the game's
    look counts a full set, else ``None``)."""

    dice: int
    pips: int | None
    spares: int | None


def side_material(
    state: State, board: dict[str, tuple[str, int | None]] | None = None
) -> dict[str, SideMaterial]:
    """Each player's :class:`SideMaterial` in ``state``, by player letter (``board``: its
    :meth:`~diceboard.core.game.State.board`, where the caller already has it)."""
    if board is None:
        board = state.board()
    game_look = look(state.game.name)
    material = {}
    for player in state.game.players:
        faces = [face for owner, face in board.values() if owner == player]
        pips = sum(f for f in faces if f is not None) if game_look.shows_pip_total else None
        full = game_look.dice_per_side
        material[player] = SideMaterial(
            len(faces), pips, None if full is None else max(0, full - len(faces))
        )
    return material


def _material(state: State) -> tuple[str, str]:
    texts = []
    for side in side_material(state).values():
        text = f"{side.dice} {'die' if side.dice == 1 else 'dice'}"
        if side.pips is not None:
            text += f", total {side.pips}"
        if side.spares:
            text += f", {side.spares} spare"
        texts.append(text)
    return texts[0], texts[1]


def summarize(state: State) -> Summary:
    """The :class:`Summary` of ``state``."""
    game = state.game
    names = dict(zip(game.players, game.player_names, strict=True))
    hands = hands_of(state)
    result = _result_text(state, names)
    if result is not None:
        status = result
    elif state.is_chance():
        status = _chance_text(state, names, hands)
    elif hands.get(state.to_move):
        status = f"{names[state.to_move]} to place a die"
    else:
        status = f"{names[state.to_move]} to move"
    move = displayed_move(state)
    return Summary(
        title=game.title,
        players=game.players,
        names=game.player_names,
        to_move=state.to_move,
        status=status,
        counters=f"clock {state.clock}, ply {state.ply}",
        hands=hands,
        material=_material(state),
        last_move=None if move is None else move.notation,
        result=result,
    )
