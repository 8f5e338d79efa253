"""Lessons: one short lesson per rule of a game, each a small position in which the learner
must make the move that shows the rule.

A game's lessons are data, ``lessons/<game>.json`` (format ``diceboard-lessons``): for each
lesson an ``id``, a ``title``, the ``text`` (a line or two), the game ``options`` (a variant),
the ``position`` string, the ``marks`` to draw (``{"square", "kind"}``, kind ``focus``,
``target`` or ``capture``), the ``goal`` that the learner's move must meet, one move that
meets it (``play``, checked by the tests), the explanations of wrong moves (``wrong``: the
first entry whose ``when`` matches the move, else ``hint``) and what is said once it is
done (``success``).

A goal (and a ``when``) is a predicate on the move and on the position after it, every field
of which must hold; the engine plays the move and counts, nothing here decides a rule:

- ``moves``: the move is one of these (notation, read by the game's own parser),
- ``kind``, ``from``, ``to``, ``face``, ``direction``: the move's structure
  (:class:`~diceboard.core.move.Move`),
- ``captures``: the opponent has exactly this many dice fewer on the board afterwards,
- ``gains``: the mover has exactly this many dice more on the board afterwards (a split),
- ``absorbed``: the dice raised by the turn's absorption, in order,
- ``after``: squares and what stands on them afterwards (``"B4"``, or ``"."`` for empty),
- ``wins``: the move ends the game with the mover the winner.

A roll that follows a move (the Chaos variant) is made by ``rng`` before the position after
it is judged.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State
from diceboard.core.move import Move

#: the goal fields :func:`meets` understands
GOAL_FIELDS = frozenset(
    {
        "moves",
        "kind",
        "from",
        "to",
        "face",
        "direction",
        "captures",
        "gains",
        "absorbed",
        "after",
        "wins",
    }
)
#: the kinds of square marks a lesson may draw
MARK_KINDS = frozenset({"focus", "target", "capture"})


@dataclass(frozen=True)
class Attempt:
    """A move tried in a lesson: whether it does what the lesson asks, what to tell the
    learner, and the position after it (after any roll that follows)."""

    correct: bool
    text: str
    move: Move
    after: State


def lesson_names() -> list[str]:
    """The games that have lessons."""
    from diceboard import games

    return [n for n in games.names() if _source(n).is_file()]


def _source(name: str) -> Any:
    return resources.files("diceboard.analysis.lessons").joinpath(f"{name}.json")


@functools.cache
def lessons(name: str) -> dict[str, Any]:
    """The lesson document of the game ``name`` (an :class:`OptionError` if it has none)."""
    from diceboard.games import canonical_name

    key = canonical_name(name)
    source = _source(key)
    if not source.is_file():
        raise OptionError(f"there are no lessons for {key}")
    document: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return document


def lesson(name: str, lesson_id: str) -> dict[str, Any]:
    """One lesson of the game ``name`` by its id (an :class:`OptionError` if there is none)."""
    for item in lessons(name)["lessons"]:
        if item["id"] == lesson_id:
            found: dict[str, Any] = item
            return found
    raise OptionError(f"{name} has no lesson {lesson_id!r}")


def rules_of(name: str, item: dict[str, Any]) -> Game:
    """The game (with the lesson's options) that a lesson is played in."""
    import diceboard

    return diceboard.game(name, **item.get("options", {}))


def start_of(name: str, item: dict[str, Any]) -> State:
    """The lesson's position."""
    return rules_of(name, item).parse(item["position"])


def resolve_rolls(state: State, rng: random.Random) -> State:
    """``state`` with every pending chance event rolled by ``rng``."""
    while state.is_chance() and not state.is_terminal():
        outcomes = state.chance_outcomes()
        state = state.play(rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
    return state


def _square_text(state: State, square: str) -> str:
    found = state.board().get(square)
    if found is None:
        return "."
    owner, face = found
    return f"{owner}{'?' if face is None else face}"


def meets(goal: dict[str, Any], before: State, move: Move, after: State) -> bool:
    """Whether ``move``, played in ``before`` and leading to ``after``, meets ``goal``."""
    unknown = set(goal) - GOAL_FIELDS
    if unknown:
        raise ValueError(f"unknown goal fields: {sorted(unknown)}")
    mover = before.to_move
    checks: dict[str, Callable[[Any], bool]] = {
        "moves": lambda v: move in [before.parse_move(text) for text in v],
        "kind": lambda v: move.kind.value == v,
        "from": lambda v: move.from_square == v,
        "to": lambda v: move.to_square == v,
        "face": lambda v: move.face == v,
        "direction": lambda v: move.direction == v,
        "absorbed": lambda v: list(move.absorbed) == list(v),
        "captures": lambda v: _lost(before, after, mover) == v,
        "gains": lambda v: after.dice_counts()[mover] - before.dice_counts()[mover] == v,
        "after": lambda v: all(_square_text(after, sq) == want for sq, want in v.items()),
        "wins": lambda v: _wins(after, mover) == v,
    }
    return all(checks[key](value) for key, value in goal.items())


def _lost(before: State, after: State, mover: str) -> int:
    counts = after.dice_counts()
    return sum(n - counts[p] for p, n in before.dice_counts().items() if p != mover)


def _wins(after: State, mover: str) -> bool:
    outcome = after.outcome()
    return outcome is not None and outcome.winner == mover


def attempt(
    name: str, item: dict[str, Any], text: str, rng: random.Random | None = None
) -> Attempt:
    """Play the move ``text`` in the lesson ``item`` of the game ``name`` and judge it. An
    illegal or unreadable move raises the engine's error, which says why."""
    before = start_of(name, item)
    move = before.parse_move(text)
    after = resolve_rolls(before.play(move), rng or random.Random())
    if meets(item["goal"], before, move, after):
        return Attempt(True, item["success"], move, after)
    for wrong in item.get("wrong", []):
        if meets(wrong["when"], before, move, after):
            return Attempt(False, wrong["text"], move, after)
    return Attempt(False, item["hint"], move, after)
