"""Custodian Dice move notation (spec: "Notation"): action ids to text and text to moves,
with errors that say which square and which rule is at fault."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from diceboard.core.errors import IllegalMoveError, NotationError
from diceboard.core.move import Move, MoveKind
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    CHANCE_OUTCOME,
    HAND,
    JUMP,
    NDIR,
    NEIGHBOUR,
    NSQ,
    NUM_ACTIONS,
    OPT_JUMPING,
    OPT_ROLL_FACES,
    OPT_SELF_AVOIDING,
    PASS,
    PHASE_PLACEMENT,
    PLACE,
    STEP_ROLL,
    STEP_TURN,
    square_name,
)
from diceboard.games.custodian.kernel.walks import occupied_mask, step_destinations
from diceboard.kernel import PHASE, TO_MOVE

if TYPE_CHECKING:
    from diceboard.core.game import State

_COLOURS = ("White", "Black")
_SQ = r"([a-e][1-5])"
_PLACE_RE = re.compile(rf"^([1-6])@{_SQ}$")
_MOVE_RE = re.compile(rf"^{_SQ}([-^]){_SQ}(?:=([1-6]))?$")
_CHANCE_RE = re.compile(r"^=([1-6])$")


def _action_text(action: int) -> str:
    if action >= CHANCE_OUTCOME:
        return f"={action - CHANCE_OUTCOME + 1}"
    if action >= PASS:
        return "pass"
    if action >= PLACE:
        face, sq = divmod(action - PLACE, NSQ)
        return f"{face + 1}@{square_name(sq)}"
    if action >= JUMP:
        frm, d = divmod(action - JUMP, NDIR)
        over = NEIGHBOUR[frm, d]
        land = NEIGHBOUR[over, d] if over >= 0 else -1
        target = square_name(land) if land >= 0 else "WSNE"[d] + "(off the board)"
        return f"{square_name(frm)}^{target}"
    if action >= STEP_ROLL:
        frm, to = divmod(action - STEP_ROLL, NSQ)
        return f"{square_name(frm)}-{square_name(to)}"
    frm, rest = divmod(action - STEP_TURN, 150)
    to, face = divmod(rest, 6)
    return f"{square_name(frm)}-{square_name(to)}={face + 1}"


#: notation of every action id
ACTION_TEXT: tuple[str, ...] = tuple(_action_text(a) for a in range(NUM_ACTIONS))


def _action_move(action: int) -> Move:
    """The Move of one action id, with its structure."""
    text = ACTION_TEXT[action]
    ids = (action,)
    if action >= CHANCE_OUTCOME:
        face = action - CHANCE_OUTCOME + 1
        return Move(text, ids, MoveKind.ROLL, face=face, roll=face)
    if action >= PASS:
        return Move(text, ids, MoveKind.PASS)
    if action >= PLACE:
        face, sq = divmod(action - PLACE, NSQ)
        return Move(text, ids, MoveKind.PLACEMENT, to_square=square_name(sq), face=face + 1)
    if action >= JUMP:
        frm, d = divmod(action - JUMP, NDIR)
        over = NEIGHBOUR[frm, d]
        land = NEIGHBOUR[over, d] if over >= 0 else -1
        landing = square_name(land) if land >= 0 else None
        return Move(text, ids, MoveKind.JUMP, square_name(frm), landing)
    if action >= STEP_ROLL:
        frm, to = divmod(action - STEP_ROLL, NSQ)
        return Move(text, ids, MoveKind.STEP, square_name(frm), square_name(to))
    frm, rest = divmod(action - STEP_TURN, 150)
    to, face = divmod(rest, 6)
    return Move(text, ids, MoveKind.STEP, square_name(frm), square_name(to), face=face + 1)


#: one shared Move object per action id
ACTION_MOVES: tuple[Move, ...] = tuple(_action_move(a) for a in range(NUM_ACTIONS))

#: the action id of each action's notation (every action's text is its own)
TEXT_ACTION: dict[str, int] = {text: action for action, text in enumerate(ACTION_TEXT)}


def _square(name: str) -> int:
    return (ord(name[0]) - ord("a")) * 5 + int(name[1]) - 1


def parse_move(state: State, text: str) -> Move:
    """The legal move that ``text`` names in ``state``."""
    norm = text.strip().lower()
    if state.is_chance():
        m = _CHANCE_RE.match(norm)
        if m is None:
            raise NotationError(
                f"a roll is pending: expected a chance outcome =1 … =6, not {text!r}"
            )
        return ACTION_MOVES[CHANCE_OUTCOME + int(m.group(1)) - 1]
    if _CHANCE_RE.match(norm):
        raise IllegalMoveError(f"{text} is a roll, but no roll is pending: {state.to_move} to move")
    # (the action that the text names, then whether it is legal: a server parses every
    # move, and a dict of the legal moves' texts made for each cost more than the rest)
    legal = state.legal_action_ids()
    action = TEXT_ACTION.get(norm)
    if action is not None and action in legal:
        return ACTION_MOVES[action]
    opts = state.game.opts
    if opts[OPT_ROLL_FACES]:
        m = _MOVE_RE.match(norm)
        if m is not None and m.group(4) is not None:
            action = TEXT_ACTION.get(norm.rsplit("=", 1)[0])
            if action is not None and action in legal:
                roll = ACTION_MOVES[CHANCE_OUTCOME + int(m.group(4)) - 1]
                return ACTION_MOVES[action].joined(roll)
    raise _explain(state, norm, text)


def _explain(state: State, norm: str, text: str) -> Exception:
    """Why ``norm`` is not a legal move of ``state``."""
    arr = state.kernel_state()
    opts = state.game.opts
    player = int(arr[TO_MOVE])
    colour = _COLOURS[player]
    sign = 1 if player == 0 else -1
    placing = arr[PHASE] == PHASE_PLACEMENT
    pm = _PLACE_RE.match(norm)
    mm = _MOVE_RE.match(norm)
    if norm != "pass" and pm is None and mm is None:
        return NotationError(
            f"{text!r} is not Custodian Dice notation: write a step as b1-d2=5, a jump as "
            "b1^b3, a placement as 6@c1, or pass"
        )
    if placing:
        if pm is None:
            return IllegalMoveError(
                f"{colour} is placing rolled dice: write a placement like 6@c1, not {text!r}"
            )
        face, sq = int(pm.group(1)), _square(pm.group(2))
        home = 1 if player == 0 else 5
        hand = [f + 1 for f in range(6) for _ in range(int(arr[HAND + 6 * player + f]))]
        if face not in hand:
            return IllegalMoveError(
                f"{colour} has no rolled {face} in hand (hand: {' '.join(map(str, hand))})"
            )
        if sq % 5 != home - 1:
            return IllegalMoveError(f"{colour} places on rank {home}; {pm.group(2)} is not on it")
        return IllegalMoveError(f"{pm.group(2)} is already occupied")
    if pm is not None:
        return IllegalMoveError(f"placement is over; {text} is not a move of the play phase")
    if norm == "pass":
        return IllegalMoveError(f"pass is legal only when {colour} has no step or jump")
    assert mm is not None
    frm_name, kind, to_name, face_text = mm.groups()
    frm, to = _square(frm_name), _square(to_name)
    v = int(arr[BOARD + frm]) * sign
    if arr[BOARD + frm] == 0:
        return IllegalMoveError(f"{frm_name} is empty: there is no die to move")
    if v < 0:
        return IllegalMoveError(
            f"the die on {frm_name} is {_COLOURS[1 - player]}'s; {colour} is to move"
        )
    roll = bool(opts[OPT_ROLL_FACES])
    if kind == "^":
        return _explain_jump(arr, opts, frm, to, frm_name, to_name, face_text, v)
    empty = ~occupied_mask(arr) & ((1 << NSQ) - 1)
    dests = step_destinations(frm, v, empty | (1 << frm), bool(opts[OPT_SELF_AVOIDING]))
    if not (dests >> to) & 1:
        path = "self-avoiding walk" if opts[OPT_SELF_AVOIDING] else "walk"
        steps = "step" if v == 1 else "steps"
        return IllegalMoveError(
            f"the die on {frm_name} shows {v}: no {path} of exactly {v} {steps} through empty "
            f"squares (never straight back) ends on {to_name}"
        )
    if roll:
        return IllegalMoveError(f"internal: {text} should be legal")  # pragma: no cover
    if face_text is None:
        return NotationError(f"a step names the new face: {frm_name}-{to_name}=N")
    allowed = [f for f in range(1, 7) if f not in (v, 7 - v)]
    return IllegalMoveError(
        f"a die turning from {v} must show {', '.join(map(str, allowed[:-1]))} or "
        f"{allowed[-1]}, not {face_text}"
    )


def _explain_jump(
    arr: np.ndarray,
    opts: np.ndarray,
    frm: int,
    to: int,
    frm_name: str,
    to_name: str,
    face_text: str | None,
    v: int,
) -> Exception:
    if not opts[OPT_JUMPING]:
        return IllegalMoveError("jumping is off in this variant (jumping=off)")
    for d in range(NDIR):
        over = NEIGHBOUR[frm, d]
        if over >= 0 and NEIGHBOUR[over, d] == to:
            if arr[BOARD + over] == 0:
                return IllegalMoveError(f"there is no die on {square_name(over)} to jump over")
            if arr[BOARD + to] != 0:
                return IllegalMoveError(
                    f"{to_name} is occupied: a jump must land on an empty square"
                )
            if face_text is not None:
                flip = "is rolled after the jump" if opts[OPT_ROLL_FACES] else f"flips to {7 - v}"
                return NotationError(
                    f"a jump names no face (the die {flip}): write {frm_name}^{to_name}"
                )
    return IllegalMoveError(
        f"{frm_name}^{to_name} is not a jump: the landing square must be two squares away "
        "in a straight line, over an adjacent die"
    )
