"""What the browser needs to know about a legal move, read from its canonical notation and
from the engine (``State.move_segments``): the kind of move, the squares it starts and ends
on, the new face, and the path to draw. No rule is decided here: only legal moves, produced by
the engine, are described.
"""

from __future__ import annotations

import re
from typing import Any

from diceboard.core.game import State
from diceboard.core.move import Move

_CUSTODIAN_PLACE = re.compile(r"^([1-6])@([a-e][1-5])$")
_CUSTODIAN_MOVE = re.compile(r"^([a-e][1-5])([-^])([a-e][1-5])(?:=([1-6]))?$")
_ROLL = re.compile(r"^=([1-6])$")
_HEX = r"[a-i][1-9]"
_CHASE = re.compile(
    rf"^(?:\{{({_HEX}(?:,{_HEX})*)\}})?"
    rf"(?:({_HEX})([-x])({_HEX})(E|W|NE|NW|SE|SW)"
    rf"|({_HEX})=([1-6]),({_HEX})=([1-6]))?$"
)


def describe(state: State, move: Move, *, segments: bool = True) -> dict[str, Any]:
    """A JSON-ready description of ``move`` (legal in ``state``, or just played from it)."""
    text = move.notation
    info: dict[str, Any] = {"notation": text}
    if state.game.name == "chase":
        info.update(_chase(text))
    else:
        info.update(_custodian(text))
    if segments:
        try:
            info["segments"] = state.move_segments(move) if not state.is_chance() else []
        except ValueError:  # a move the engine cannot draw is still a move
            info["segments"] = []
    return info


def _custodian(text: str) -> dict[str, Any]:
    if text == "pass":
        return {"kind": "pass"}
    if m := _ROLL.match(text):
        return {"kind": "roll", "face": int(m.group(1))}
    if m := _CUSTODIAN_PLACE.match(text):
        return {"kind": "place", "to": m.group(2), "face": int(m.group(1))}
    if m := _CUSTODIAN_MOVE.match(text):
        frm, sep, to, face = m.groups()
        return {
            "kind": "jump" if sep == "^" else "step",
            "from": frm,
            "to": to,
            "face": None if face is None else int(face),
        }
    return {"kind": "other"}


def _chase(text: str) -> dict[str, Any]:
    m = _CHASE.match(text)
    if m is None:
        return {"kind": "other"}
    prefix, frm, sep, to, direction, t1, f1, t2, f2 = m.groups()
    info: dict[str, Any] = {"absorb": prefix.split(",") if prefix else []}
    if frm is not None:
        info.update(
            {"kind": "move", "from": frm, "to": to, "dir": direction, "capture": sep == "x"}
        )
    elif t1 is not None:
        info.update({"kind": "transfer", "transfer": [[t1, int(f1)], [t2, int(f2)]]})
    else:
        info["kind"] = "absorb"
    return info


def rolled_face(text: str, chaos: bool) -> int | None:
    """The face the server rolled in a move: a setup roll ``=4``, or in Chaos (``chaos``)
    the roll joined to a step or jump (``b1-d2=4``); ``None`` for a move without a roll."""
    if m := _ROLL.match(text):
        return int(m.group(1))
    if chaos and (m := _CUSTODIAN_MOVE.match(text)) and m.group(4) is not None:
        return int(m.group(4))
    return None
