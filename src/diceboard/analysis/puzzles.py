"""Puzzles: positions from engine self-play where exactly one move wins.

:func:`generate` plays self-play games (``SELF_PLAY_AGENT``, with ``EPSILON`` of its moves
random, so that there are slips to punish) and looks at every decision. A position is a
candidate when the self-play search's best move beats the second best by
:data:`MARGIN` of win probability; it becomes a puzzle when a deeper search
(``PROOF_AGENT``, on the position string alone, as a solver will see it) agrees on the
move, keeps the margin, and the move has a theme:

- ``win``: the move wins the game by force (a proven value of 1),
- ``material``: along the deeper search's line the mover ends with more dice than the
  opponent, relative to now (the move wins a die or more),
- ``save``: the line keeps the material balance while the second-best move's line loses a die.

Difficulty (1–4) is the shallowest search depth that finds the move and keeps it: a depth-1
puzzle is seen at a glance, a depth-4 one needs a combination. Everything is seeded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from diceboard.analysis.calibration import EPSILON, roll_chance, win_probability
from diceboard.core.game import Game, State
from diceboard.core.move import Move

SELF_PLAY_AGENT = "alphabeta:depth=2"
PROOF_DEPTH = 4
PROOF_AGENT = f"alphabeta:depth={PROOF_DEPTH},contempt=0"
#: how much more win probability the solution must give than the second-best move
MARGIN = 0.2
MAX_DECISIONS = 400


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position string, the one move that solves it, the line after it."""

    id: str
    game: str
    options: dict[str, Any]
    position: str
    to_move: str
    solution: str
    line: list[str]
    theme: str
    difficulty: int
    #: win probability of the solution, and of the second-best move, for the solver
    solved: float
    second: float


def _balance(state: State, player: str) -> int:
    counts = state.dice_counts()
    return 2 * counts[player] - sum(counts.values())


def _line_balance(state: State, line: tuple[Move, ...], player: str) -> int:
    for move in line:
        if state.is_terminal() or state.is_chance():
            break
        state = state.play(move)
    return _balance(state, player)


def prove(state: State, proof: object) -> dict[str, Any] | None:
    """The puzzle fields of ``state`` (a decision position) if it is one, else ``None``.
    ``proof`` is the deep agent (anything with ``analyse``)."""
    from diceboard.ai import agent

    moves = state.legal_moves()
    if len(moves) < 2:
        return None
    deep = proof.analyse(state)  # type: ignore[attr-defined]
    name = state.game.name
    best, second = deep.moves[0], deep.moves[1]
    p_best = win_probability(name, best.value)
    p_second = win_probability(name, second.value)
    if p_best - p_second < MARGIN:
        return None
    me = state.to_move
    now = _balance(state, me)
    if best.value >= 1.0:
        theme = "win"
    elif _line_balance(state, deep.pv, me) > now:
        theme = "material"
    else:
        after = state.play(second.move)
        if after.is_terminal() or after.is_chance():
            return None
        reply = proof.analyse(after)  # type: ignore[attr-defined]
        lost = _line_balance(after, reply.pv, me) < now
        kept = _line_balance(state, deep.pv, me) >= now
        if not (lost and kept):
            return None
        theme = "save"
    difficulty = PROOF_DEPTH
    for depth in range(1, PROOF_DEPTH):
        if agent(f"alphabeta:depth={depth},contempt=0", seed=1).analyse(state).best == best.move:
            difficulty = depth
            break
    return {
        "solution": best.move.notation,
        "line": [m.notation for m in deep.pv],
        "theme": theme,
        "difficulty": difficulty,
        "solved": round(p_best, 3),
        "second": round(p_second, 3),
    }


def generate(
    game: Game,
    count: int,
    seed: int,
    log: Callable[[int, int, int], None] | None = None,
    max_games: int = 10_000,
) -> tuple[list[Puzzle], dict[str, float]]:
    """``count`` puzzles of ``game`` (fewer if ``max_games`` self-play games do not give
    them), and the figures of the run (games, candidates, seconds, puzzles per minute)."""
    from diceboard.ai import agent

    proof = agent(PROOF_AGENT, seed=1)
    found: list[Puzzle] = []
    seen: set[str] = set()
    candidates = 0
    began = time.perf_counter()
    games = 0
    while len(found) < count and games < max_games:
        rng = random.Random(seed * 1_000_003 + games)
        games += 1
        player = agent(SELF_PLAY_AGENT, seed=rng.randrange(2**31))
        state = game.start(seed=rng.randrange(2**31))
        decisions = 0
        while state.outcome() is None and decisions < MAX_DECISIONS and len(found) < count:
            if state.is_chance():
                state = roll_chance(state, rng)
                continue
            analysis = player.analyse(state)
            decisions += 1
            text = str(state)
            if len(analysis.moves) >= 2 and text not in seen:
                name = game.name
                gap = win_probability(name, analysis.moves[0].value) - win_probability(
                    name, analysis.moves[1].value
                )
                if gap >= MARGIN:
                    candidates += 1
                    seen.add(text)
                    position = game.parse(text)
                    fields = prove(position, proof)
                    if fields is not None:
                        found.append(
                            Puzzle(
                                id=f"{name}-{seed}-{len(found) + 1}",
                                game=name,
                                options=game.non_default_options(),
                                position=text,
                                to_move=state.to_move,
                                **fields,
                            )
                        )
            move = analysis.best
            if rng.random() < EPSILON:
                move = rng.choice(state.legal_moves())
            state = state.play(move)
        if log is not None:
            log(games, candidates, len(found))
    seconds = time.perf_counter() - began
    figures = {
        "games": games,
        "candidates": candidates,
        "puzzles": len(found),
        "seconds": round(seconds, 1),
        "per_minute": round(60.0 * len(found) / seconds, 1) if seconds > 0 else 0.0,
    }
    return found, figures


def puzzle_document(game: Game, puzzles: list[Puzzle], command: str) -> dict[str, Any]:
    """The JSON document of a puzzle set."""
    return {
        "format": "diceboard-puzzles",
        "version": 1,
        "game": game.name,
        "command": command,
        "proof": {"agent": PROOF_AGENT, "margin": MARGIN},
        "puzzles": [asdict(p) for p in puzzles],
    }


def verify(puzzle: dict[str, Any], game: Game) -> bool:
    """Whether ``puzzle``'s solution is still the one move, by the proof's margin."""
    from diceboard.ai import agent

    state = game.parse(puzzle["position"])
    deep = agent(PROOF_AGENT, seed=1).analyse(state)
    name = game.name
    gap = win_probability(name, deep.moves[0].value) - win_probability(name, deep.moves[1].value)
    return deep.best.notation == puzzle["solution"] and gap >= MARGIN


def shipped(name: str) -> dict[str, Any]:
    """The puzzle set shipped with the package for the game ``name`` (``puzzle_sets/``,
    made by the command recorded in its ``command`` field)."""
    from importlib import resources

    from diceboard.core.errors import OptionError
    from diceboard.games import canonical_name

    key = canonical_name(name)
    source = resources.files("diceboard.analysis").joinpath("puzzle_sets", f"{key}.json")
    if not source.is_file():
        raise OptionError(f"no puzzle set is shipped for {key}")
    import json

    document: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return document
