"""Won endings played out: how often an attacker converts them against a defender.

A game's set of endings is a small committed JSON file, ``ai/weights/<game>-endings.json``:
positions where one side (the *attacker*) has more dice, each with a name. Playing one out is
an ordinary game from that position between two agents, to its end by the game's own rules
(elimination, repetition, the no-capture limit), so a conversion is a win for the attacker and
a draw is a failure to convert. ``diceboard bench endings`` prints the conversion rate of each
attacker it is given against the same defender on the same positions.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources

from diceboard.ai.base import Agent
from diceboard.ai.specs import agent
from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State

#: a safety net against a game that the rules never end (they always do: the no-capture
#: limit ends a game without captures, and captures run out)
MAX_MOVES = 2000


@dataclass(frozen=True)
class Ending:
    """One won ending: a position string and the side that should win it."""

    name: str
    position: str
    attacker: str


@dataclass(frozen=True)
class EndingResult:
    """How one ending went: the attacker's score (1 won, 0.5 drawn, 0 lost), the moves
    played and how the game ended."""

    ending: Ending
    score: float
    moves: int
    reason: str


def endings_file(game_name: str) -> str:
    """File name of a game's endings inside :mod:`diceboard.ai.weights`."""
    return f"{game_name}-endings.json"


def load_endings(game: Game) -> list[Ending]:
    """The committed endings of ``game``, each checked: it parses and its attacker is one of
    the game's players. :class:`~diceboard.core.OptionError` when the game has none."""
    ref = resources.files("diceboard.ai.weights").joinpath(endings_file(game.name))
    try:
        record = json.loads(ref.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OptionError(f"no endings for {game.name}") from None
    found = []
    for entry in record["endings"]:
        ending = Ending(str(entry["name"]), str(entry["position"]), str(entry["attacker"]))
        if ending.attacker not in game.players:
            raise OptionError(f"ending {ending.name!r}: no player {ending.attacker!r}")
        game.parse(ending.position)
        found.append(ending)
    return found


def play_out(state: State, attacker: Agent, defender: Agent, side: str, seed: int) -> EndingResult:
    """Play ``state`` to its end, ``attacker`` for the player ``side``, ``defender`` for the
    other; rolls (if any) come from a generator seeded with ``seed``. Returns the result with
    an :class:`Ending` made from the start position."""
    start = str(state)
    rng = random.Random(seed)
    attacker.reset()
    defender.reset()
    moves = 0
    while not state.is_terminal() and moves < MAX_MOVES:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            rolled = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            state = state.play(rolled)
            continue
        player = attacker if state.to_move == side else defender
        state = state.play(player.choose(state))
        moves += 1
    ending = Ending(start, start, side)
    outcome = state.outcome()
    if outcome is None:
        return EndingResult(ending, 0.5, moves, "move limit")
    score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == side else 0.0
    return EndingResult(ending, score, moves, outcome.reason)


def convert(
    game: Game, endings: list[Ending], attacker_spec: str, defender_spec: str, seed: int
) -> list[EndingResult]:
    """Play each of ``endings`` once with a fresh ``attacker_spec`` for its attacker against
    ``defender_spec`` (both seeded with ``seed``, the same for every attacker compared)."""
    results = []
    for index, ending in enumerate(endings):
        attacker = agent(attacker_spec, seed=seed + index)
        defender = agent(defender_spec, seed=seed + index)
        played = play_out(game.parse(ending.position), attacker, defender, ending.attacker, seed)
        results.append(EndingResult(ending, played.score, played.moves, played.reason))
    return results


def conversion_rate(results: list[EndingResult]) -> float:
    """The share of ``results`` that the attacker won."""
    return sum(1 for r in results if r.score == 1.0) / len(results) if results else 0.0
